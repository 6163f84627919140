package org.bulwark.hdfs.placement.rescan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.placement.HierarchicalPlacementPolicy;
import org.bulwark.hdfs.placement.PlacementKeys;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BlockSpread;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.StoppedDataNodes;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Blocks written while a datacenter was away are spread over it once it is back, with no failover: the
 * active NameNode re-checks every block's placement when the plugin sees the datacenter return. In the
 * compatibility suite: the plugin calls into the NameNode's block manager and takes its lock, which differ
 * between Hadoop lines.
 */
@Tag("compat")
class TopologyGrowthRescanIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long MB = 1L << 20;

  @Test
  void blocksWrittenWithoutADatacenterAreSpreadOverItWhenItReturns() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/dc1/r1:2,/dc1/r2:2,/dc2/r3:2,/dc2/r4:2")
        .placementPolicy(HierarchicalPlacementPolicy.class).configure(conf -> {
          conf.set("dfs.namenode.plugins", TopologyGrowthRescan.class.getName());
          conf.set(PlacementKeys.RESCAN_CHECK_INTERVAL.getName(), "200ms");
          conf.set(PlacementKeys.RESCAN_SETTLE.getName(), "1s");
          conf.set(PlacementKeys.RESCAN_MIN_INTERVAL.getName(), "0");
        }).build()) {
      StoppedDataNodes dc2 = c.stopDatacenter("/dc2");
      c.declareDead(dc2);
      Await.until("4 live DataNodes", WAIT, () -> c.liveDataNodes(0) == 4);
      DataNodeHandle writer = c.dataNodesInDatacenter("/dc1").get(0);
      for (int i = 0; i < 10; i++) {
        c.writeFile(0, new Path("/w/" + i), MB, WriteOrigin.fromDataNode(writer), 3);
      }
      c.awaitFullyReplicated(0, WAIT);
      BlockSpread during = c.blockSpread(0, new Path("/w"));
      assertEquals(10L, during.blocksByDatacenterCount().getOrDefault(1, 0L), "written into dc1 alone: " + during);

      c.restart(dc2);
      Await.until("every block in both datacenters", WAIT,
          () -> c.blockSpread(0, new Path("/w")).blocksByDatacenterCount().getOrDefault(1, 0L) == 0);
      c.awaitFullyReplicated(0, WAIT);
      BlockSpread after = c.blockSpread(0, new Path("/w"));
      assertEquals(10L, after.blocksByDatacenterCount().getOrDefault(2, 0L), after.toString());
      for (int i = 0; i < 10; i++) {
        assertEquals(MB, c.verifyFile(new Path("/w/" + i), MB));
      }
    }
  }

  @Test
  void startedForAnythingButANameNodeItRefusesNamingItsKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TopologyGrowthRescan().start(new Object()));
    assertTrue(e.getMessage().contains("dfs.namenode.plugins"), e.getMessage());
  }
}
