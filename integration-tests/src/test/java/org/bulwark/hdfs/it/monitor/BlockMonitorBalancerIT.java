package org.bulwark.hdfs.it.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The balancer moves replicas off a full DataNode: the history shows each move, from which DataNode to which, and when. */
class BlockMonitorBalancerIT {
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
        // Polls until the NameNode has settled every move: a poll may land between a move's new replica
        // being reported and the source's being deleted, or while an excess replica is still listed.
        String[] last = new String[1];
        try {
          Await.until("every replica moved off " + hot + " shows as ended there and new elsewhere", WAIT, () -> {
            monitor.pollNow();
            List<ReplicaSpan> movedOff = monitor.store().dataNodeReplicas(hotUuid, 100).stream()
                .filter(r -> !r.isOpen()).toList();
            last[0] = "moved off: " + movedOff.size();
            int skewMoved = 0;
            for (ReplicaSpan gone : movedOff) {
              BlockHistory history = monitor.store().blockHistory(gone.blockId).get(0);
              if (history.files.stream().noneMatch(f -> f.path.startsWith("/skew/"))) {
                // the balancer's own lock file (/system/balancer.id), written while it runs and then deleted
                continue;
              }
              assertTrue(gone.goneSince >= beforeBalancer, "ended after the balancer started");
              List<ReplicaSpan> block = history.replicas;
              last[0] = "blk_" + gone.blockId + ": " + describe(block);
              boolean elsewhere = block.stream()
                  .anyMatch(r -> r.isOpen() && r.firstSeen >= beforeBalancer && !r.dataNode.equals(hotUuid));
              if (!elsewhere || block.stream().filter(ReplicaSpan::isOpen).count() != 3) {
                return false;
              }
              skewMoved++;
            }
            return skewMoved > 0;
          });
        } catch (TimeoutException e) {
          throw new AssertionError("the balancer's moves off " + hot + " as the monitor saw them (" + last[0] + "): " + out, e);
        }
      }
    }
  }

  private static String describe(List<ReplicaSpan> replicas) {
    StringBuilder b = new StringBuilder();
    for (ReplicaSpan r : replicas) {
      b.append(r.host).append(' ').append(r.firstSeen).append('-').append(r.isOpen() ? "open" : String.valueOf(r.goneSince))
          .append("; ");
    }
    return b.toString();
  }
}
