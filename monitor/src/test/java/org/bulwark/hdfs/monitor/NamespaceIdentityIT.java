package org.bulwark.hdfs.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.time.Duration;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace is one history whatever URI reaches it: the same NameNode polled as hdfs://127.0.0.1:port and
 * then as hdfs://localhost:port (as when HA is enabled and the URI becomes the nameservice's) keeps its
 * replicas' intervals, rather than opening a second, parallel history whose first copy stays open forever.
 */
class NamespaceIdentityIT {
  @TempDir
  File dir;

  @Test
  void theSameBlockPoolUnderAnotherUriKeepsItsHistory() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:1").replication(2).build()) {
      c.writeFile(new Path("/data/f"), 1 << 20, WriteOrigin.offCluster());
      c.awaitReplication(0, new Path("/data"), Duration.ofSeconds(60));
      int port = c.uri(0).getPort();
      try (BlockMonitor monitor = new BlockMonitor(at(c, "hdfs://127.0.0.1:" + port))) {
        monitor.start();
        monitor.pollNow();
      }
      try (BlockMonitor monitor = new BlockMonitor(at(c, "hdfs://localhost:" + port))) {
        monitor.start();
        monitor.pollNow();
        List<BlockHistory> h = monitor.store().fileHistory("/data/f");
        assertEquals(1, h.size(), "one history of the block: " + h.size());
        assertEquals("hdfs://localhost:" + port, h.get(0).namespace);
        assertEquals(2, h.get(0).replicas.size(), "its two replicas' intervals, not two more");
        assertEquals(2, h.get(0).replicas.stream().filter(ReplicaSpan::isOpen).count());
      }
    }
  }

  /** The monitor's configuration, on one store, polling the cluster's NameNode at {@code uri}. */
  private Configuration at(BulwarkMiniCluster c, String uri) {
    Configuration conf = TestMonitors.conf(c.conf(), dir);
    conf.set("dfs.nameservices", "");
    conf.set("fs.defaultFS", uri);
    return conf;
  }
}
