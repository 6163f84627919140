package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The layout the failover benchmark measures in process mode, as a test: every NameNode and every
 * controller a JVM of its own. The active NameNode's process is killed with kill -9, then the next
 * active one is frozen with kill -STOP (hung); each time the other NameNode becomes active, a client
 * on {@link ZooKeeperFailoverProxyProvider} carries on, and no two NameNodes are ever active together.
 * The killed NameNode's controller sees its process exit (a best effort), so the next leader does not fence
 * it, and fences it when the exit was not seen; the frozen one's process lives on, so the next leader runs the
 * fencing methods. And with each NameNode on a
 * host of its own ({@link HostNetwork}), the active one's host taken off the network: nothing closes,
 * nothing answers, the next leader fences it; the cut-off controller, which cannot tell that from ZooKeeper
 * being down, leaves its NameNode be until the host is back, then finds another controller has led since and
 * steps down, and its NameNode, whose edits the JournalNodes now refuse, ends itself.
 *
 * <p>Slow because every NameNode and controller is a JVM of its own, as in production, and each failure kind waits
 * for the other NameNode.
 */
@Tag("compat")
class ProcessFailoverIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final long CUT_SESSION_TIMEOUT_MILLIS = 4000;

  @Test
  void killedThenHungActiveNameNodesAreReplacedByTheirStandby() throws Exception {
    // Under target/, not a temporary directory: the daemons' logs outlive a failure.
    File dir = new File("target/process-failover-" + System.currentTimeMillis());
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, ProcessHaCluster::sessionsOutlastingPauses)) {
      ha.startBulwarkControllers();
      try (FileSystem fs = client(ha)) {
        fs.mkdirs(new Path("/before"));

        int first = ha.active();
        ha.killNameNode(first);
        Await.until("the other NameNode is active", WAIT, () -> ha.active() == 1 - first);
        String afterKill = activation(ha, 1 - first, 1);
        // Seeing the exit is a best effort (the killed process must be seen exiting within 100 ms of its controller
        // giving it up; on this host it is, in 1-2 ms, but a loaded or sandboxed host may miss it). What must hold
        // either way: the next leader skips the fencing methods only for a NameNode whose exit was witnessed.
        List<String> witnessed = DaemonLog.matching(ha.controller(first).log(), "has exited on this host");
        String killedSide = String.join("\n", DaemonLog.matching(ha.controller(first).log(), "health.HealthMonitor",
            "fencing.LocalExitWitness", "gives up", "has exited"));
        assertTrue(witnessed.size() <= 1, killedSide);
        assertTrue(witnessed.isEmpty() ? afterKill.contains("(fenced [" + ProcessHaCluster.id(first) + "])")
            : afterKill.contains("(nothing to fence)"), () -> afterKill + "\nthe killed NameNode's controller:\n"
            + killedSide);
        System.out.println("ProcessFailoverIT: the kill -9 was " + (witnessed.isEmpty() ? "not " : "") + "witnessed");
        fs.mkdirs(new Path("/after-kill"));
        ha.startNameNode(first);
        ha.awaitState(first, HAServiceState.STANDBY);

        int second = ha.active();
        assertEquals(1 - first, second);
        ha.freezeNameNode(second);
        Await.until("the frozen NameNode's standby is active", WAIT, () -> ha.active() == first);
        String afterHang = activation(ha, first, 2);
        assertTrue(afterHang.contains("(fenced [" + ProcessHaCluster.id(second) + "])"), afterHang);
        assertEquals(0, DaemonLog.matching(ha.controller(second).log(), "has exited on this host").size(),
            "a frozen process has not exited");
        fs.mkdirs(new Path("/after-hang"));
        for (String written : new String[] {"/before", "/after-kill"}) {
          assertTrue(fs.exists(new Path(written)), () -> written + " is gone after the hang:\n" + namespaceStory(ha, fs));
        }
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  @Test
  void anActiveNameNodesHostCutOffTheNetworkIsFencedAndReplaced() throws Exception {
    assumeTrue(HostNetwork.available(), "needs root and iproute2 to make network namespaces");
    File dir = new File("target/process-failover-unreachable-" + System.currentTimeMillis());
    // Sessions of 4 s: this test waits for the cut controller's to expire, and for no other.
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, -1, true, true,
        c -> c.set(HotStandbyKeys.ZK_SESSION_TIMEOUT.getName(), CUT_SESSION_TIMEOUT_MILLIS + "ms"))) {
      ha.startBulwarkControllers();
      try (FileSystem fs = client(ha)) {
        fs.mkdirs(new Path("/before"));
        int cut = ha.active();
        ha.cutHost(cut);
        // Only the other NameNode is asked: the cut one's questions would wait out their timeouts.
        Await.until("the other NameNode is active", WAIT, () -> ha.state(1 - cut) == HAServiceState.ACTIVE);
        long cutAt = System.nanoTime();
        String line = activation(ha, 1 - cut, 1);
        assertTrue(line.contains("(fenced [" + ProcessHaCluster.id(cut) + "])"), line);
        // Cut off, its controller cannot tell ZooKeeper down for everybody from itself cut off, and does as in a
        // ZooKeeper outage (as the stock ZKFC does): nothing, for three session timeouts and on.
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);
        Thread.sleep(Math.max(0, 3 * CUT_SESSION_TIMEOUT_MILLIS - waited));
        assertEquals(List.of(), DaemonLog.matching(ha.controller(cut).log(), "stepping down"));
        // Back on the network, it finds that another controller has led since, and steps down; going to standby
        // closes the edit log, which the JournalNodes refuse (they have promised the new active's epoch since), and
        // the NameNode ends itself. (The split-brain checker counted it out at the cut, as a fencing method that
        // powers the host off would have: until it is made standby it still answers active, writing nothing.)
        ha.healHost(cut);
        Await.until("the cut host's controller stepped down", WAIT, () -> !DaemonLog.matching(ha.controller(cut).log(),
            "another controller has led since; stepping down").isEmpty());
        Await.until("the cut host's NameNode ended itself", WAIT, () -> !ha.nameNode(cut).isAlive());
        fs.mkdirs(new Path("/after-cut"));
        assertTrue(fs.exists(new Path("/before")));
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /** A client of ns1 on {@link ZooKeeperFailoverProxyProvider}. */
  private static FileSystem client(ProcessHaCluster ha) throws java.io.IOException {
    Configuration client = ha.zooKeeperProviderConf();
    // A call in flight to a NameNode that stopped answering waits this long (120 s by default) before the
    // provider fails over.
    client.setInt("ipc.client.rpc-timeout.ms", 2000);
    return FileSystem.newInstance(java.net.URI.create("hdfs://" + ProcessHaCluster.NS), client);
  }

  /**
   * What a failure of the namespace checks needs: what the client lists, each NameNode's state, and how each
   * NameNode process took over the edit log (recovery, catch-up, segments), from its own log.
   */
  private static String namespaceStory(ProcessHaCluster ha, FileSystem fs) {
    StringBuilder story = new StringBuilder();
    try {
      story.append("the client lists /:");
      for (org.apache.hadoop.fs.FileStatus s : fs.listStatus(new Path("/"))) {
        story.append(' ').append(s.getPath().toUri().getPath());
      }
    } catch (java.io.IOException | RuntimeException e) {
      story.append(" (failed: ").append(e).append(')');
    }
    for (int i = 0; i < 2; i++) {
      story.append('\n').append(ProcessHaCluster.id(i)).append(": ").append(ha.state(i)).append(", ")
          .append(ha.nameNode(i).log()).append('\n');
      story.append(String.join("\n", DaemonLog.matching(ha.nameNode(i).log(), "recovery", "Catching up",
          "take over writing", "Starting log segment", "Selected loggers", "Stopping services", "Starting services",
          "Exception")));
    }
    return story.toString();
  }

  /** The {@code n}th activation the controller of NameNode {@code nn} logged, once it has. */
  private static String activation(ProcessHaCluster ha, int nn, int n) throws Exception {
    List<String> lines = new java.util.ArrayList<>();
    Await.until(ProcessHaCluster.id(nn) + "'s controller logged activation " + n, WAIT, () -> {
      lines.clear();
      lines.addAll(DaemonLog.matching(ha.controller(nn).log(), " is active, epoch "));
      return lines.size() >= n;
    });
    return lines.get(n - 1);
  }
}
