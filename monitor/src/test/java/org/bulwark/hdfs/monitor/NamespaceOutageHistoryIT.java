package org.bulwark.hdfs.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.monitor.collect.NamespaceUris;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.StoppedDataNodes;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace the monitor cannot read truthfully records nothing, and the others go on: a NameNode
 * restarted before its DataNodes (safe mode, every block without locations) must not end every replica's
 * history and report every block missing, and one federated namespace down must not stop the others'.
 */
class NamespaceOutageHistoryIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir
  File dir;

  @Test
  void aNameNodeInSafeModeAfterARestartPausesItsHistory() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:1,/r3:1").replication(2)
        .configure(conf -> {
          // As a production NameNode: safe mode until 99.9 % of the blocks are reported (the kit's fast
          // settings leave it at once).
          conf.setFloat("dfs.namenode.safemode.threshold-pct", 0.999f);
          // And not before every DataNode has reported: a block whose second holder is late would be
          // copied to the third DataNode at once, and the poll would see a replica the test did not make.
          conf.setInt("dfs.namenode.safemode.min.datanodes", 3);
          conf.setInt("dfs.namenode.safemode.extension", 3000);
          // Nor after it: a holder registered but its block report not yet processed when safe mode ended (seen
          // once on a loaded host) had the block copied to the third DataNode. No copy is this test's to see.
          conf.setInt("dfs.namenode.redundancy.interval.seconds", 3600);
        }).build()) {
      c.writeFile(new Path("/data/a"), 1 << 20, WriteOrigin.offCluster());
      c.writeFile(new Path("/data/b"), 1 << 20, WriteOrigin.offCluster());
      c.awaitReplication(0, new Path("/data"), WAIT);
      try (BlockMonitor monitor = new BlockMonitor(TestMonitors.conf(c.conf(), dir))) {
        monitor.start();
        monitor.pollNow();
        List<String> before = replicas(monitor);
        assertEquals(4, before.size());
        assertTrue(before.stream().allMatch(r -> r.endsWith("open")), before.toString());

        // A restart before the DataNodes: the NameNode lists both blocks without a location.
        StoppedDataNodes stopped = c.stop(c.dataNodes());
        c.mini().restartNameNode(0, false);
        // The first call on a connection the restart closed may fail; no poll may succeed meanwhile.
        Await.until("a poll finds the NameNode in safe mode", WAIT, () -> {
          try {
            monitor.pollNow();
          } catch (IOException e) {
            return e.getMessage().contains("safe mode");
          }
          throw new AssertionError("a poll recorded a namespace whose NameNode is in safe mode");
        });
        assertTrue(monitor.status().lastError().contains("safe mode"), monitor.status().lastError());
        assertTrue(monitor.store().forensics(10).isEmpty(), "no block reported missing");
        assertEquals(before, replicas(monitor), "every replica's interval still open, as it was");

        c.restart(stopped);
        Await.until("the NameNode leaves safe mode", WAIT, () -> !c.fs().isInSafeMode());
        Await.until("a poll after safe mode", WAIT, () -> {
          monitor.pollNow();
          return true;
        });
        assertTrue(monitor.store().forensics(10).isEmpty());
        assertEquals(before, replicas(monitor), "one unbroken interval per replica across the restart");
      }
    }
  }

  @Test
  void aFederatedNamespaceWhoseNameNodeIsDownLeavesTheOthersRecorded() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:1").replication(2).nameservices(2).build()) {
      Configuration conf = TestMonitors.conf(c.conf(), dir);
      conf.setInt("ipc.client.connect.max.retries", 0);
      conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
      // The namespace polled first goes down: before, its failure ended the poll of every namespace.
      URI firstPolled = NamespaceUris.of(conf).get(0);
      int down = c.uri(0).getPort() == firstPolled.getPort() ? 0 : 1;
      int up = 1 - down;
      c.writeFile(down, new Path("/down/f"), 1 << 20, WriteOrigin.offCluster());
      c.writeFile(up, new Path("/up/f"), 1 << 20, WriteOrigin.offCluster());
      c.awaitReplication(down, new Path("/down"), WAIT);
      c.awaitReplication(up, new Path("/up"), WAIT);
      try (BlockMonitor monitor = new BlockMonitor(conf)) {
        monitor.start();
        monitor.pollNow();
        assertEquals(2, openReplicas(monitor, "/up/f"));

        c.mini().shutdownNameNode(c.nameNodeIndex(down, 0));
        c.fs(up).delete(new Path("/up/f"), false);
        IOException partial = assertThrows(IOException.class, monitor::pollNow);
        assertTrue(partial.getMessage().contains(firstPolled.toString()), "names the namespace left out: " + partial.getMessage());
        assertTrue(partial.getMessage().contains("only partly recorded"), partial.getMessage());
        assertEquals(0, openReplicas(monitor, "/up/f"), "the namespace that answered recorded its delete");
        assertEquals(2, openReplicas(monitor, "/down/f"), "the one that did not is left as it was");
        assertEquals(2, monitor.store().currentDataNodes().size(), "DataNode states from the namespace that answered");
      }
    }
  }

  /** Every replica interval of /data's files: block, storage, since when, open or when it ended. */
  private static List<String> replicas(BlockMonitor monitor) throws IOException {
    List<String> out = new ArrayList<>();
    for (String path : new String[] {"/data/a", "/data/b"}) {
      for (BlockHistory h : monitor.store().fileHistory(path)) {
        for (ReplicaSpan r : h.replicas) {
          out.add(r.blockId + " " + r.storage + " " + r.firstSeen + " " + (r.isOpen() ? "open" : r.goneSince));
        }
      }
    }
    out.sort(null);
    return out;
  }

  private static long openReplicas(BlockMonitor monitor, String path) throws IOException {
    return monitor.store().fileHistory(path).stream().flatMap(h -> h.replicas.stream()).filter(ReplicaSpan::isOpen).count();
  }
}
