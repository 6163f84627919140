package org.bulwark.hdfs.hotstandby.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/** The decision thread against a real ZooKeeper (Curator's {@link TestingServer}), with no NameNode behind it. */
class ControllerLoopIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ZNodes PATHS = new ZNodes("/bulwark-ha", "ns1");

  /** nn1's controller, its own ZooKeeper session and election, whose activation throws an Error right after the lock. */
  private record FailingController(CuratorFramework client, LeaderElection election, ControllerLoop loop, Error thrown) {
    /** Starts it connected and its NameNode healthy: it stands, takes the lock and meets the Error. */
    void start() {
      loop.onConnectionState(ConnectionState.CONNECTED);
      loop.start();
      loop.onHealth(new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.STANDBY, null));
    }
  }

  private static FailingController failingAfterTheLock(TestingServer server) throws Exception {
    CuratorFramework client = client(server);
    ControllerLoop[] holder = new ControllerLoop[1];
    LeaderElection election = new LeaderElection(client, PATHS, "nn1", () -> {
      if (holder[0] != null) {
        holder[0].onElectionChange();
      }
    });
    election.start();
    Configuration conf = new Configuration(false);
    LocalNameNode nn = new LocalNameNode(conf, "ns1", "nn1", new InetSocketAddress("127.0.0.1", 1), "127.0.0.1:1", 1000);
    ControllerLoop loop = new ControllerLoop(new ControllerSettings(0, Map.of("nn1", 0), false, 0, 0, 1000, 4000, 0), nn,
        election, new PreviousActiveFencer(conf, "ns1", 1000, PreviousActiveFencer.Silence.UNKNOWN), OtherNameNodes.NONE,
        new ControllerMetrics("ns1", "nn1"));
    holder[0] = loop;
    Error thrown = new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource "
        + "limits reached");
    loop.onActivationStep(step -> {
      if (step == Activation.Step.LOCKED) {
        throw thrown;
      }
    });
    return new FailingController(client, election, loop, thrown);
  }

  /**
   * An Error on the decision thread (here an OutOfMemoryError right after it took the lock) must not leave the lock
   * with a session nobody decides for: the loop stops and hands the Error to its owner, which ends the session (as
   * {@code HotStandbyController} does, before halting), so the lock goes at once. Before, the thread died unheard of
   * while the session, and the lock, lived on.
   */
  @Test
  void anErrorOnTheDecisionThreadIsHandedOnSoTheLockGoes() throws Exception {
    try (TestingServer server = new TestingServer(true);
        CuratorFramework watcher = client(server)) {
      FailingController c = failingAfterTheLock(server);
      AtomicReference<Throwable> told = new AtomicReference<>();
      c.loop().onFatalError(error -> {
        told.set(error);
        c.election().close();
        c.client().close();
      });
      c.start();
      Await.until("the Error handed on", WAIT, () -> told.get() != null);
      assertSame(c.thrown(), told.get());
      Await.until("the lock gone with the session", WAIT, () -> watcher.checkExists().forPath(PATHS.lock()) == null);
      awaitTheDecisionThreadEnded();
      c.loop().close();
    }
  }

  /**
   * Without a fatal handler (an embedder's controller loop) nothing ends the session, yet the lock and the candidacy
   * go: the failing thread releases them itself before it ends. Before, they stayed as long as the session, while
   * nothing decided for it.
   */
  @Test
  void anErrorWithNoHandlerStillReleasesTheLockAndTheCandidacy() throws Exception {
    try (TestingServer server = new TestingServer(true);
        CuratorFramework watcher = client(server)) {
      FailingController c = failingAfterTheLock(server);
      long session = c.client().getZookeeperClient().getZooKeeper().getSessionId();
      c.start();
      awaitTheDecisionThreadEnded();
      assertEquals("1", new String(watcher.getData().forPath(PATHS.epoch()), StandardCharsets.UTF_8),
          "the lock was taken");
      Await.until("the lock released", WAIT, () -> watcher.checkExists().forPath(PATHS.lock()) == null);
      Await.until("the candidacy withdrawn", WAIT, () -> watcher.checkExists().forPath(PATHS.candidate("nn1")) == null);
      assertTrue(c.client().getZookeeperClient().isConnected()
          && c.client().getZookeeperClient().getZooKeeper().getSessionId() == session, "the session lives on");
      c.loop().close();
      c.election().close();
      c.client().close();
    }
  }

  private static void awaitTheDecisionThreadEnded() throws Exception {
    Await.until("the decision thread ended", WAIT, () -> Thread.getAllStackTraces().keySet().stream()
        .noneMatch(t -> t.getName().equals("hotstandby-ns1-nn1")));
  }

  private static CuratorFramework client(TestingServer server) throws InterruptedException {
    CuratorFramework c = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
        .sessionTimeoutMs(4000).connectionTimeoutMs(4000).retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
    c.start();
    if (!c.blockUntilConnected(10, TimeUnit.SECONDS)) {
      throw new AssertionError("no ZooKeeper");
    }
    return c;
  }
}
