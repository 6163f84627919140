package org.bulwark.hdfs.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The balancer moves replicas off a full DataNode: the history shows each move, from which DataNode to which, and when. */
class BlockMonitorBalancerTest {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long MB = 1L << 20;

  @TempDir
  File dir;

  @Test
  void balancerMovesAppearAsEndedAndNewReplicas() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2").capacity(64 * MB).build()) {
      DataNodeHandle hot = c.dataNodes().get(0);
      for (int i = 0; i < 8; i++) {
        c.writeFile(new Path("/skew/" + i), 2 * MB, WriteOrigin.fromDataNode(hot));
      }
      c.awaitReplication(0, new Path("/skew"), WAIT);
      Await.until(hot + " reports its replicas", WAIT, () -> c.utilisation().dataNodes().stream()
          .filter(d -> d.name().equals(hot.hostName())).mapToLong(d -> d.used()).sum() >= 16 * MB);
      Configuration conf = c.conf();
      conf.set("bulwark.monitor.data.dir", new File(dir, "store").getPath());
      conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
      conf.set("bulwark.monitor.poll.interval", "1h");
      try (BlockMonitor monitor = new BlockMonitor(conf)) {
        monitor.start();
        monitor.pollNow();
        String hotUuid = c.running(hot).getDatanodeUuid();
        assertEquals(16, monitor.store().dataNodeReplicas(hotUuid, 100).size(), "every first replica on the writer's node");
        long beforeBalancer = System.currentTimeMillis();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = ToolRunner.run(c.conf(), new BalancerLauncher(ps, ps),
            new String[] {"-policy", "availability", "-threshold", "5"});
        assertEquals(0, exit, out.toString(StandardCharsets.UTF_8));
        c.awaitReplication(0, new Path("/skew"), WAIT);
        monitor.pollNow();
        List<ReplicaSpan> held = monitor.store().dataNodeReplicas(hotUuid, 100);
        List<ReplicaSpan> movedOff = held.stream().filter(r -> !r.isOpen()).toList();
        assertTrue(!movedOff.isEmpty(), "the balancer moved replicas off " + hot + ": " + out);
        for (ReplicaSpan gone : movedOff) {
          assertTrue(gone.goneSince >= beforeBalancer, "ended after the balancer started");
          List<ReplicaSpan> block = monitor.store().blockHistory(gone.blockId).get(0).replicas;
          assertTrue(block.stream().anyMatch(r -> r.isOpen() && r.firstSeen >= beforeBalancer && !r.dataNode.equals(hotUuid)),
              "blk_" + gone.blockId + " got a replica elsewhere in the same poll: " + block);
          assertEquals(3, block.stream().filter(ReplicaSpan::isOpen).count(), "still three replicas");
        }
      }
    }
  }
}
