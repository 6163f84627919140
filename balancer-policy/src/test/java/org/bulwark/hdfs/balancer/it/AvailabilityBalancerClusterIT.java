package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.SkewedCluster.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.placement.OneReplicaPerRackPlacementPolicy;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hdfs balancer -policy availability} on a federated 10-DataNode, 4-rack cluster.
 *
 * <p>Slow because balancing takes several iterations 3 s apart, and the failing-moves case waits out each move the
 * DataNodes refuse.
 */
@Tag("compat")
class AvailabilityBalancerClusterIT {
  @TempDir
  File tmp;

  @Test
  void balancesAFederatedClusterMostlyByMovesThatAddARack() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:3,/r2:3,/r3:2,/r4:2")
        .nameservices(2).capacity(128 * MB).build()) {
      List<DataNodeHandle> dns = c.dataNodes();
      SkewedCluster data = new SkewedCluster(c, 2 * MB);
      double before = data.write(Arrays.asList(dns.get(0), dns.get(3), dns.get(6), dns.get(8)), 10, 200);
      assertTrue(before >= 10, "skewed layout: std-dev " + before);
      Map<Integer, Integer> racksBefore = data.blocksByRacks();

      File report = new File(tmp, "report.json");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int exit = ToolRunner.run(c.conf(), new BalancerLauncher(new PrintStream(out, true, "UTF-8"), System.err),
          new String[] {"-policy", "availability", "-threshold", "10", "-report", report.getPath()});
      String console = out.toString("UTF-8");
      assertEquals(0, exit, console);
      assertTrue(console.contains("The cluster is balanced. Exiting..."), console);

      data.assertSettledWithinThreshold(10, console);
      data.verifyAll();
      Map<Integer, Integer> racksAfter = data.blocksByRacks();
      assertEquals(racksBefore.values().stream().mapToInt(i -> i).sum(),
          racksAfter.values().stream().mapToInt(i -> i).sum());
      assertEquals(0, racksAfter.getOrDefault(1, 0), "no block lost a rack: " + racksAfter);
      assertTrue(racksAfter.getOrDefault(3, 0) > racksBefore.getOrDefault(3, 0), racksBefore + " -> " + racksAfter);

      // the run's figures on JMX, as an operator would watch them
      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      Set<ObjectName> beans = jmx.queryNames(new ObjectName("Hadoop:name=AvailabilityBalancer,*"), null);
      assertEquals(1, beans.size(), beans.toString());
      ObjectName bean = beans.iterator().next();
      java.util.regex.Matcher moves = java.util.regex.Pattern.compile("block moves\\s+(\\d+): (\\d+) adding").matcher(console);
      assertTrue(moves.find(), console);
      assertEquals(Long.parseLong(moves.group(1)), ((Number) jmx.getAttribute(bean, "BlocksMoved")).longValue());
      assertEquals(Long.parseLong(moves.group(2)), ((Number) jmx.getAttribute(bean, "BlocksMovedAddingRack")).longValue());
      assertEquals(0, ((Number) jmx.getAttribute(bean, "IterationRunning")).intValue());
      assertEquals(0L, ((Number) jmx.getAttribute(bean, "BytesLeftToMove")).longValue());

      String json = new String(Files.readAllBytes(report.toPath()), StandardCharsets.UTF_8);
      System.out.println(console + json);
      for (String field : new String[] {"policy", "threshold", "iterations", "duration_s", "bytes_moved",
          "bytes_min_to_move", "moves", "moves_adding_rack", "moves_keeping_rack", "dn_util_stddev_before",
          "dn_util_stddev_after", "dn_util_max_dev_after", "rack_util_before", "rack_util_after",
          "blocks_by_rack_count_before", "blocks_by_rack_count_after", "bytes_failed", "bytes_refused", "mb_per_s",
          "dn_over_threshold_after", "moves_adding_rack_possible"}) {
        assertTrue(json.contains("\"" + field + "\""), field + " in " + json);
      }
      assertTrue(json.contains("\"dn_over_threshold_after\": 0"), "balanced: no DataNode above the threshold " + json);
    }
  }

  @Test
  void withBulwarksPlacementPolicyEveryMoveKeepsOneReplicaPerRack() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2,/r4:2")
        .capacity(96 * MB).placementPolicy(OneReplicaPerRackPlacementPolicy.class).build()) {
      List<DataNodeHandle> dns = c.dataNodes();
      SkewedCluster data = new SkewedCluster(c, 2 * MB);
      data.write(Arrays.asList(dns.get(0), dns.get(2)), 8, 80);
      Configuration conf = c.conf();
      conf.set("dfs.block.replicator.classname", OneReplicaPerRackPlacementPolicy.class.getName());
      BalancerRuns r = BalancerRuns.run(conf, "-policy", "availability", "-threshold", "5");
      assertEquals(0, r.exit, r.console);
      java.util.regex.Matcher moves = java.util.regex.Pattern.compile("block moves\\s+(\\d+)").matcher(r.console);
      assertTrue(moves.find() && Long.parseLong(moves.group(1)) > 0, "the balancer moved blocks: " + r.console);
      data.awaitMovesSettled();
      Map<Integer, Integer> racks = data.blocksByRacks();
      assertEquals(Integer.valueOf(data.fileCount() * 2), racks.get(3), "every block still on 3 racks: " + racks);
      data.verifyAll();
    }
  }

  /**
   * The DataNodes take one balancing copy at a time ({@code dfs.datanode.balance.max.concurrent.moves=1}
   * on their side) while the balancer sends four at once: copies beyond the first fail at the DataNodes
   * with "threads quota is exceeded", and the dispatcher delays those nodes. The run must wait them out,
   * move the rest, and end balanced with exit 0, the failed bytes in its report.
   */
  @Test
  void movesThatFailAtTheDataNodesAreWaitedOutAndTheRunEndsBalanced() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2").capacity(96 * MB)
        .configure(conf -> conf.setInt("dfs.datanode.balance.max.concurrent.moves", 1)).build()) {
      List<DataNodeHandle> dns = c.dataNodes();
      SkewedCluster data = new SkewedCluster(c, 2 * MB);
      data.write(Arrays.asList(dns.get(0), dns.get(2)), 8, 80);
      Configuration conf = c.conf();
      conf.setInt("dfs.datanode.balance.max.concurrent.moves", 4);
      File report = new File(tmp, "failures.json");
      BalancerRuns r = BalancerRuns.run(conf, "-policy", "availability", "-threshold", "5", "-report", report.getPath());
      assertEquals(0, r.exit, r.console);
      String json = new String(Files.readAllBytes(report.toPath()), StandardCharsets.UTF_8);
      java.util.regex.Matcher failed = java.util.regex.Pattern.compile("\"bytes_failed\": (\\d+)").matcher(json);
      assertTrue(failed.find() && Long.parseLong(failed.group(1)) > 0, "some copies failed at the DataNodes: " + json);
      java.util.regex.Matcher moved = java.util.regex.Pattern.compile("\"moves\": (\\d+)").matcher(json);
      assertTrue(moved.find() && Long.parseLong(moved.group(1)) > 0, json);
      assertTrue(json.contains("\"dn_over_threshold_after\": 0"), json);
      data.awaitMovesSettled();
      data.verifyAll();
    }
  }
}
