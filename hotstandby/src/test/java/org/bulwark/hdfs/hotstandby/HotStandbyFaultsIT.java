package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.KillSession;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.bulwark.hdfs.hotstandby.controller.ControllerState;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.ForkedJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Failures around the NameNodes: a lost ZooKeeper session, a ZooKeeper restart, a hung NameNode, a killed controller. */
class HotStandbyFaultsIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @AfterEach
  void forgetFencing() {
    KillingFenceMethod.clear();
  }

  @Test
  void leaderSessionExpiryNeverLeavesTwoActives() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.startControllers();
      int first = ha.awaitActive(WAIT);
      CuratorFramework zooKeeper = ha.controller(first).zooKeeperClient();
      long expired = zooKeeper.getZookeeperClient().getZooKeeper().getSessionId();
      KillSession.kill(zooKeeper.getZookeeperClient().getZooKeeper());
      // ZooKeeper drops the session, and the lock, at once here. Either the other controller takes over (fencing
      // this NameNode, and the expired leader then steps down), or the expired leader, in its new session, takes its
      // leadership back first (nobody led since); never both.
      Await.until("the expired leader in a new session", WAIT, () -> zooKeeper.getZookeeperClient().isConnected()
          && zooKeeper.getZookeeperClient().getZooKeeper().getSessionId() != expired);
      Await.until("an active NameNode again after the session expiry, led by its controller alone", WAIT, () -> {
        int active = ha.activeNameNode();
        return active >= 0 && ha.controller(active).isActive() && !ha.controller(1 - active).isActive();
      });
      ha.fsIsUsable();
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /**
   * A ZooKeeper restart shorter than the session timeout: the sessions survive it, so nothing fails over. The sessions
   * here are 6 s, not the other tests' 2 s: a restart took up to 1.9 s to reconnect on a busy 2-core host, and one
   * longer than the session timeout ends sessions (a failover is then right, as under the stock ZKFC).
   */
  @Test
  void zooKeeperRestartCausesNoFailover() throws Exception {
    LogCapturer log = LogCapturer.captureLogs(LoggerFactory.getLogger("org.bulwark.hdfs.hotstandby"));
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, c -> { },
        c -> c.set("bulwark.hotstandby.zookeeper.session-timeout", "6s"))) {
      ha.startControllers();
      int active = ha.awaitActive(WAIT);
      ha.cluster.zooKeeper().restart();
      Await.until("both controllers back from NEUTRAL", WAIT, () -> ha.controllers().stream()
          .allMatch(c -> c.state() == ControllerState.ACTIVE || c.state() == ControllerState.STANDBY));
      // Watch one more session timeout: a spurious failover (a session the restart ended) would show up within it.
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(7);
      while (System.nanoTime() < until) {
        assertEquals(active, ha.activeNameNode(), () -> "the active NameNode changed after a ZooKeeper restart:\n"
            + decisions(log));
        Thread.sleep(20);
      }
      assertEquals(1, ha.controller(active).metrics().failovers(), () -> decisions(log));
      assertEquals(0, ha.controller(1 - active).metrics().failovers(), () -> decisions(log));
      ha.fsIsUsable();
      ha.splitBrain.assertNoSplitBrain();
    } finally {
      log.stopCapturing();
    }
  }

  /** What the controllers and their health monitors logged: a failing test's account of why. */
  private static String decisions(LogCapturer log) {
    return log.getOutput().lines().filter(l -> l.contains("ControllerLoop") || l.contains("HealthMonitor")
        || l.contains("LeaderElection")).collect(Collectors.joining("\n"));
  }

  /**
   * ZooKeeper down for three session timeouts: no controller can take the lock meanwhile, so the active NameNode stays
   * active all along (as under the stock ZKFC), and once ZooKeeper is back the leader carries its leadership over to
   * the new session Curator opened (it gave the old one up a session timeout into the outage): no failover. One still
   * works then. Before, the leader stepped down as Curator gave its session up, leaving no active NameNode until
   * ZooKeeper returned.
   */
  @Test
  void aZooKeeperOutageLongerThanTheSessionTimeoutKeepsTheActiveNameNode() throws Exception {
    // 4 s sessions: the leader must be back in a new session before ZooKeeper, restarted, expires the old one (a
    // session timeout after its start) and the standby takes the freed lock; with 2 s that left about a second.
    int sessionSeconds = 4;
    LogCapturer log = LogCapturer.captureLogs(LoggerFactory.getLogger("org.bulwark.hdfs.hotstandby"));
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, c -> { },
        c -> c.set("bulwark.hotstandby.zookeeper.session-timeout", sessionSeconds + "s"))) {
      ha.startControllers();
      int active = ha.awaitActive(WAIT);
      Await.until("the standby's controller stands by", WAIT,
          () -> ha.controller(1 - active).state() == ControllerState.STANDBY);
      ha.cluster.zooKeeper().stop();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3 * sessionSeconds);
      while (System.nanoTime() < until) {
        assertEquals(active, ha.activeNameNode(), () -> "the active NameNode changed while ZooKeeper was down:\n"
            + decisions(log));
        Thread.sleep(20);
      }
      ha.cluster.zooKeeper().restart();
      Await.until("both controllers back from NEUTRAL", WAIT, () -> ha.controllers().stream()
          .allMatch(c -> c.state() == ControllerState.ACTIVE || c.state() == ControllerState.STANDBY));
      // Past the expiry of the sessions given up (a session timeout after ZooKeeper's start): nothing changes.
      until = System.nanoTime() + TimeUnit.SECONDS.toNanos(sessionSeconds + 1);
      while (System.nanoTime() < until) {
        assertEquals(active, ha.activeNameNode(), () -> "the active NameNode changed after ZooKeeper returned:\n"
            + decisions(log));
        Thread.sleep(20);
      }
      assertEquals(1, ha.controller(active).metrics().failovers(), () -> "no failover after ZooKeeper returned:\n"
          + decisions(log));
      assertEquals(0, ha.controller(1 - active).metrics().failovers(), () -> decisions(log));
      ha.fsIsUsable();
      ha.killNameNode(active);
      assertEquals(1 - active, ha.awaitActiveOtherThan(active, WAIT), "a failover works after the outage");
      ha.fsIsUsable();
      ha.splitBrain.assertNoSplitBrain();
    } finally {
      log.stopCapturing();
    }
  }

  /**
   * The standby's controller checks the active NameNode too: with that on (the default) it has seen the
   * hung NameNode silent for the health-check timeout (1 s) by the time it leads, so it fences at once
   * instead of sending a graceful transitionToStandby that would wait its 500 ms timeout in vain.
   */
  @ParameterizedTest(name = "skip-graceful-when-silent={0}")
  @ValueSource(booleans = {true, false})
  void hungNameNodeIsFencedAndReplaced(boolean skipGracefulWhenSilent) throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2,
        conf -> conf.set("dfs.ha.fencing.methods", KillingFenceMethod.class.getName()),
        conf -> {
          conf.set("bulwark.hotstandby.fencing.graceful-timeout", "500ms");
          conf.setBoolean("bulwark.hotstandby.fencing.skip-graceful-when-silent", skipGracefulWhenSilent);
        })) {
      ha.startControllers();
      int hung = ha.awaitActive(WAIT);
      NamenodeProtocols rpc = ha.cluster.mini().getNameNodeRpc(hung);
      CountDownLatch release = new CountDownLatch(1);
      // Every HAServiceProtocol call of a NameNode synchronises on its RPC server: holding that
      // monitor makes health checks time out while the NameNode still thinks itself active.
      Thread hanger = MonitorHold.hold(rpc, release);
      // The hold ends only once the NameNode has stopped: the HA calls queued behind it (its own controller's
      // transitionToStandby among them) then find it stopped, as they would a killed process. Released first, that
      // transition could restart the standby services on a stopping NameNode, whose edit log tailer then meets the
      // closed edit log and exits the JVM (seen once in CI).
      KillingFenceMethod.register(servicePort(ha, hung), () -> {
            ha.splitBrain.markDown(hung);
            new Thread(() -> {
              try {
                ha.cluster.mini().shutdownNameNode(hung);
              } finally {
                release.countDown();
              }
            }, "kill-" + hung).start();
          });
      int next = ha.awaitActiveOtherThan(hung, WAIT);
      assertNotEquals(hung, next);
      assertEquals(1, ha.controller(next).metrics().methodFencings(), "the hung NameNode was fenced by the method");
      long fencing = ha.controller(next).metrics().lastFencingMillis();
      if (skipGracefulWhenSilent) {
        assertTrue(fencing < 500, "fenced without waiting the graceful timeout: " + fencing + " ms");
      } else {
        assertTrue(fencing >= 400, "the graceful transition to standby had to time out first: " + fencing + " ms");
      }
      hanger.join(10_000);
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /**
   * A transitionToActive longer than the health-check timeout (a large namespace, a busy host) makes the checks
   * sent meanwhile time out: a NameNode takes its HA calls one at a time. The leader must not take those for a
   * hang of the NameNode it has just made active, and give it up (seen with 100 client JVMs on 2 cores: a
   * controller abandoned its NameNode 0-30 ms before a check answered "active", then activated it again).
   */
  @Test
  void healthChecksQueuedBehindALongTransitionAreNotAHang() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2,
        conf -> conf.set("dfs.ha.fencing.methods", KillingFenceMethod.class.getName()), conf -> { })) {
      ha.startControllers();
      int old = ha.awaitActive(WAIT);
      int next = 1 - old;
      Await.until("nn" + (next + 1) + "'s controller stands by", WAIT,
          () -> ha.controller(next).state() == ControllerState.STANDBY);
      // A NameNode orders its HA calls on two monitors: its RPC server's, then its own. Holding its own keeps
      // transitionToActive waiting inside the RPC server, and the health checks behind it.
      NameNode nameNode = ha.cluster.mini().getNameNode(next);
      CountDownLatch transitionMayRun = new CountDownLatch(1);
      CountDownLatch oldMayGo = new CountDownLatch(1);
      Thread hanger = MonitorHold.hold(ha.cluster.mini().getNameNodeRpc(old), oldMayGo);
      KillingFenceMethod.register(servicePort(ha, old), () -> {
            ha.splitBrain.markDown(old);
            oldMayGo.countDown();
            new Thread(() -> ha.cluster.mini().shutdownNameNode(old), "kill-" + old).start();
            MonitorHold.hold(nameNode, transitionMayRun);
            new Thread(() -> answerLate(nameNode, transitionMayRun), "slow-transition").start();
          });
      assertEquals(next, ha.awaitActiveOtherThan(old, WAIT));
      Await.until("nn" + (next + 1) + "'s controller active", WAIT, () -> ha.controller(next).isActive());
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      while (System.nanoTime() < until) {
        assertTrue(ha.controller(next).isActive(), "the leader gave up the NameNode it had just made active");
        Thread.sleep(20);
      }
      assertEquals(1, ha.controller(next).metrics().failovers(), "activated once");
      assertTrue(ha.controller(next).metrics().lastTransitionMillis() >= 2000,
          "the transition outlasted the health checks: " + ha.controller(next).metrics().lastTransitionMillis() + " ms");
      hanger.join(10_000);
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /**
   * Lets {@code nameNode}'s transition run after 2.5 s (over twice the 1 s health-check timeout), then holds its
   * monitor for 300 ms right after the transition: the health check waiting behind the transition is answered
   * only after the controller has decided on what it last heard (that the checks timed out). The NameNode is
   * active as soon as the transition starts its active services, before it returns.
   */
  private static void answerLate(NameNode nameNode, CountDownLatch transitionMayRun) {
    sleepQuietly(2500);
    transitionMayRun.countDown();
    while (!nameNode.isActiveState()) {
      Thread.yield();
    }
    CountDownLatch answer = new CountDownLatch(1);
    MonitorHold.hold(nameNode, answer); // taken as the transition leaves the NameNode's monitor
    sleepQuietly(300);
    answer.countDown();
  }

  /** The port the controllers check and fence NameNode {@code nn} at (service RPC when configured). */
  private static int servicePort(HotStandbyCluster ha, int nn) {
    java.net.InetSocketAddress service = ha.cluster.nameNode(0, nn).getServiceRpcAddress();
    return service != null ? service.getPort() : ha.cluster.nameNode(0, nn).getNameNodeAddress().getPort();
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void killedControllerHandsOverAfterItsSession(@TempDir File dir) throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      Process forked = forkController(ha, dir, HotStandbyController.class);
      try {
        Await.until("the forked controller made nn1 active", WAIT, () -> ha.activeNameNode() == 0);
        ha.startController(1);
        Await.until("nn2's controller stands by", WAIT, () -> ha.controller(1).state() == ControllerState.STANDBY);
        forked.destroyForcibly();
        forked.waitFor();
        // nn1 keeps running, active and unsupervised, until the dead controller's session expires;
        // then nn2's controller fences it (gracefully: it answers) and takes over.
        assertEquals(1, ha.awaitActiveOtherThan(0, WAIT));
        assertTrue(ha.cluster.mini().getNameNode(0).isStandbyState(), "nn1 was fenced to standby");
        ha.splitBrain.assertNoSplitBrain();
      } finally {
        forked.destroyForcibly();
      }
    }
  }


  /**
   * The hole a breadcrumb closes: nn1's controller (its own JVM) halts right after {@code transitionToActive},
   * before it publishes anything; nn1 serves as active, named by no active record. nn2's controller takes the
   * lock once the dead session expires, fences nn1 because the breadcrumb names it, then activates nn2.
   */
  @Test
  void aControllerHaltedRightAfterTransitionToActiveIsFencedByTheNextLeader(@TempDir File dir) throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      Process forked = forkController(ha, dir, HaltingController.class, "TRANSITIONED");
      try {
        assertTrue(forked.waitFor(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), "the controller halted");
        assertEquals(137, forked.exitValue(), "halted by the injected fault, right after transitionToActive");
        assertTrue(ha.cluster.mini().getNameNode(0).isActiveState(), "nn1 was left active, unpublished");
        ha.startController(1);
        assertEquals(1, ha.awaitActiveOtherThan(0, WAIT));
        assertTrue(ha.cluster.mini().getNameNode(0).isStandbyState(), "nn1 was fenced to standby");
        assertEquals(1, ha.controller(1).metrics().gracefulFencings(), "nn2's leader fenced nn1 to standby before activating");
        ha.splitBrain.assertNoSplitBrain();
      } finally {
        forked.destroyForcibly();
      }
    }
  }

  /** nn1's controller in a JVM of its own (so it can die as a process does), run by {@code main} with {@code first}. */
  private static Process forkController(HotStandbyCluster ha, File dir, Class<?> main, String... first) throws Exception {
    File site = new File(dir, "controller-site.xml");
    try (OutputStream out = new FileOutputStream(site)) {
      ha.controllerConf(0).writeXml(out);
    }
    List<String> args = new ArrayList<>(List.of(first));
    args.addAll(List.of("-conf", site.getPath()));
    return ForkedJvm.start(main, new File(dir, "controller.log"), args.toArray(new String[0]));
  }
}
