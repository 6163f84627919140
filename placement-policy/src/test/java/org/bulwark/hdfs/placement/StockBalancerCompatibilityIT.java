package org.bulwark.hdfs.placement;

import static org.bulwark.hdfs.placement.PolicyTestSupport.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hadoop's own balancer, configured with our policy as {@code hdfs balancer} on a cluster using it would
 * be, accepts our policies and, through their {@code isMovable}, makes only moves that keep every block
 * on its own racks.
 *
 * <p>It runs in this JVM: {@code Balancer.Cli} is package-private, so it is reached by reflection. (In
 * a JVM of its own, Hadoop 3.4.3's balancer dies at its second iteration with "Metrics source
 * Balancer-BP-... already exists", HDFS-16867; MiniDFSCluster's metrics mini-cluster mode hides that.)
 */
class StockBalancerCompatibilityIT {
  private static final Duration WAIT = Duration.ofSeconds(120);

  @ParameterizedTest
  @ValueSource(classes = {OneReplicaPerRackPlacementPolicy.class, HierarchicalPlacementPolicy.class})
  void balancingLeavesEveryBlockOnItsOwnRacks(Class<? extends BlockPlacementPolicy> policy) throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/dc1/r1:2,/dc1/r2:2,/dc2/r3:2,/dc2/r4:2")
        .capacity(64 * MB).placementPolicy(policy).build()) {
      // Every first replica on one DataNode: it ends far above the cluster's mean utilisation.
      DataNodeHandle hot = c.dataNodes().get(0);
      for (int i = 0; i < 12; i++) {
        c.writeFile(0, new Path("/skew/" + i), 2 * MB, WriteOrigin.fromDataNode(hot), 3);
      }
      c.awaitReplication(0, new Path("/skew"), WAIT);
      // The balancer works from the DataNodes' reported use: wait until the hot node's report counts
      // the 24 MiB of first replicas it holds.
      Await.until(hot + " reports its first replicas", WAIT, () -> used(c, hot) >= 24 * MB);
      long before = used(c, hot);
      Configuration conf = c.conf();
      conf.set("dfs.block.replicator.classname", policy.getName());
      Constructor<?> cli = Class.forName("org.apache.hadoop.hdfs.server.balancer.Balancer$Cli").getDeclaredConstructor();
      cli.setAccessible(true);
      int exit = ToolRunner.run(conf, (Tool) cli.newInstance(), new String[] {"-threshold", "5", "-idleiterations", "2"});
      // Balanced, or as balanced as moves that keep every block's racks allow (the balancer gives up
      // when only moves the policy refuses would help).
      assertTrue(exit == ExitStatus.SUCCESS.getExitCode() || exit == ExitStatus.NO_MOVE_PROGRESS.getExitCode(),
          "balancer exit " + exit);

      Await.until("excess replicas removed", WAIT, () -> BlockRacks.under(c.fs(), new Path("/skew")).stream()
          .allMatch(b -> b.racks().size() == 3));
      List<BlockRacks> after = BlockRacks.under(c.fs(), new Path("/skew"));
      for (BlockRacks b : after) {
        assertEquals(3, b.distinctRacks(), "balancer moves keep one replica per rack: " + b);
        assertEquals(2, b.distinctDatacenters(), b.toString());
      }
      assertTrue(used(c, hot) < before, "the balancer moved replicas off " + hot);
      for (int i = 0; i < 12; i++) {
        c.verifyFile(new Path("/skew/" + i), 2 * MB);
      }
    }
  }

  private static long used(BulwarkMiniCluster c, DataNodeHandle h) throws Exception {
    for (DatanodeInfo dn : c.fs().getDataNodeStats(DatanodeReportType.LIVE)) {
      if (dn.getHostName().equals(h.hostName())) {
        return dn.getDfsUsed();
      }
    }
    throw new AssertionError(h + " is not live");
  }
}
