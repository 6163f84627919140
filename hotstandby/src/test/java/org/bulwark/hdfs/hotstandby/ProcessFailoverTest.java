package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.util.List;

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
 * The killed NameNode's controller sees its process exit, so the next leader does not fence it; the
 * frozen one's process lives on, so the next leader runs the fencing methods.
 */
@Tag("compat")
class ProcessFailoverTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void killedThenHungActiveNameNodesAreReplacedByTheirStandby() throws Exception {
    // Under target/, not a temporary directory: the daemons' logs outlive a failure.
    File dir = new File("target/process-failover-" + System.currentTimeMillis());
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, c -> { })) {
      ha.startBulwarkControllers();
      Configuration client = ha.zooKeeperProviderConf();
      // A call in flight to the hung NameNode waits this long (120 s by default) before the provider fails over.
      client.setInt("ipc.client.rpc-timeout.ms", 2000);
      try (FileSystem fs = FileSystem.newInstance(java.net.URI.create("hdfs://" + ProcessHaCluster.NS), client)) {
        fs.mkdirs(new Path("/before"));

        int first = ha.active();
        ha.killNameNode(first);
        Await.until("the other NameNode is active", WAIT, () -> ha.active() == 1 - first);
        String afterKill = activation(ha, 1 - first, 1);
        assertEquals(1, DaemonLog.matching(ha.controller(first).log(), "has exited on this host").size(),
            "the killed NameNode's controller saw its process exit");
        assertTrue(afterKill.contains("(nothing to fence)"), afterKill);
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
        assertEquals(true, fs.exists(new Path("/before")) && fs.exists(new Path("/after-kill")));
      }
      ha.splitBrain.assertNoSplitBrain();
    }
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
