package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.AvailableSpaceBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.AvailableSpaceRackFaultTolerantBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyRackFaultTolerant;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.StripeSpreadRules;
import org.bulwark.hdfs.testkit.BenchChart;
import org.bulwark.hdfs.testkit.BenchReport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Benchmark {@code placement} ({@code mvn -B -T 1 -Pbench -Dbench=placement verify}): our two policies against
 * Hadoop's default and rack-fault-tolerant policies, in one run, without a cluster.
 *
 * <p>Peers: Hadoop's default, rack-fault-tolerant, {@code AvailableSpaceBlockPlacementPolicy} and
 * {@code AvailableSpaceRackFaultTolerantBlockPlacementPolicy} (stock settings). Part 1, throughput:
 * {@code chooseTarget} for RF 3 on 1,000 simulated DataNodes (2 datacenters, 50 racks of 20), the writer
 * on a random DataNode or off-cluster; policies interleaved in every run so that a noisy machine affects
 * them alike. Part 2, fill: 100,000 blocks placed by each policy from the same uneven start (racks of
 * 3/3/2/2 DataNodes at 50/20/40/10 % full), DataNode use applied every 100 blocks as heartbeats would;
 * the std-dev of rack and of DataNode utilisation afterwards. Part 3, erasure coding: 1,000 RS-3-2 and
 * RS-6-3 block groups on three unequal datacenters (4 racks, 1 rack, 1 rack of 3 DataNodes) by the stock
 * rack-fault-tolerant policy and ours; whether every group survives a datacenter's loss.
 */
@Tag("bench-all")
@Tag("bench-placement")
class PlacementBenchmark {
  private static final int RUNS = 3;
  private static final long MEASURE_NANOS = 1_500_000_000L;
  private static final long BLOCK = 128L << 20;
  private static final List<Class<? extends BlockPlacementPolicyDefault>> POLICIES = List.of(
      BlockPlacementPolicyDefault.class, BlockPlacementPolicyRackFaultTolerant.class,
      AvailableSpaceBlockPlacementPolicy.class, AvailableSpaceRackFaultTolerantBlockPlacementPolicy.class,
      OneReplicaPerRackPlacementPolicy.class, HierarchicalPlacementPolicy.class);
  private static final BlockStoragePolicy HOT = BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy();

  /** Figures of one policy and writer kind, over all runs. */
  private static final class Throughput {
    final List<Double> opsPerSec = new ArrayList<>();
    long blocks;
    long racks;
    long dcs;

    double median() {
      double[] v = opsPerSec.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      return v[v.length / 2];
    }
  }

  @Test
  void placement() throws Exception {
    BenchReport report = BenchReport.start("placement", RUNS);
    Map<String, Throughput> results = new LinkedHashMap<>();
    Map<String, List<double[]>> rackFill = new LinkedHashMap<>();

    Configuration conf = conf();
    SimulatedTopology big = new SimulatedTopology(conf);
    for (int r = 0; r < 50; r++) {
      big.addRack(String.format("/dc%d/rack%02d", r < 25 ? 1 : 2, r), 20, 100L << 40, 0);
    }
    Map<Class<?>, BlockPlacementPolicy> policies = new HashMap<>();
    for (Class<? extends BlockPlacementPolicyDefault> type : POLICIES) {
      policies.put(type, big.policy(type, conf));
    }
    for (int run = 0; run < RUNS; run++) {
      for (int k = 0; k < POLICIES.size(); k++) {
        Class<? extends BlockPlacementPolicyDefault> type = POLICIES.get((k + run) % POLICIES.size());
        for (String writer : List.of("datanode", "off-cluster")) {
          measure(policies.get(type), big, writer, run == 0, results.computeIfAbsent(type.getName() + "|" + writer, x -> new Throughput()));
        }
      }
      for (Class<? extends BlockPlacementPolicyDefault> type : POLICIES) {
        rackFill.computeIfAbsent(type.getName(), x -> new ArrayList<>()).add(fill(type, run));
      }
    }

    ArrayNode policyNodes = report.root().putArray("policies");
    List<List<String>> throughput = new ArrayList<>();
    BenchChart chart = new BenchChart("chooseTarget for RF 3 on 1,000 DataNodes (median of " + RUNS + " runs)",
        "operations per second");
    for (Class<? extends BlockPlacementPolicyDefault> type : POLICIES) {
      for (String writer : List.of("datanode", "off-cluster")) {
        Throughput t = results.get(type.getName() + "|" + writer);
        double def = results.get(BlockPlacementPolicyDefault.class.getName() + "|" + writer).median();
        ObjectNode n = policyNodes.addObject();
        n.put("name", type.getName());
        n.put("writer", writer);
        n.put("ops_per_sec", Math.round(t.median()));
        n.put("ratio_to_default", round(t.median() / def, 3));
        n.put("distinct_racks_mean", round((double) t.racks / t.blocks, 4));
        n.put("distinct_dcs_mean", round((double) t.dcs / t.blocks, 4));
        n.put("blocks_measured", t.blocks);
        throughput.add(List.of(type.getSimpleName(), writer, String.format("%.0f", t.median()),
            String.format("%.2f", t.median() / def), String.format("%.3f", (double) t.racks / t.blocks),
            String.format("%.3f", (double) t.dcs / t.blocks)));
        chart.bar(writer + " writer", type.getSimpleName(), t.median());
      }
    }
    report.table("Throughput: chooseTarget, RF 3, 1,000 DataNodes (2 datacenters, 50 racks of 20)",
        List.of("policy", "writer", "ops/s", "x default", "racks per block", "datacenters per block"), throughput);
    report.chart(chart);
    ArrayNode fillNodes = report.root().putArray("rack_fill");
    report.root().put("rack_fill_blocks", 100_000);
    report.root().put("rack_util_stddev_before", round(stdDev(new double[] {50, 20, 40, 10}), 3));
    List<List<String>> fill = new ArrayList<>();
    for (Map.Entry<String, List<double[]>> e : rackFill.entrySet()) {
      double rack = e.getValue().stream().mapToDouble(v -> v[0]).average().orElse(Double.NaN);
      double node = e.getValue().stream().mapToDouble(v -> v[1]).average().orElse(Double.NaN);
      ObjectNode n = fillNodes.addObject();
      n.put("name", e.getKey());
      n.put("rack_util_stddev_after", round(rack, 3));
      n.put("node_util_stddev_after", round(node, 3));
      fill.add(List.of(e.getKey().substring(e.getKey().lastIndexOf('.') + 1), String.format("%.3f", rack),
          String.format("%.3f", node)));
    }
    report.table(String.format("Fill: utilisation std-dev after 100,000 blocks from racks at 50/20/40/10 %% (%.2f"
        + " points before)", stdDev(new double[] {50, 20, 40, 10})), List.of("policy", "racks (points)",
        "DataNodes (points)"), fill);
    ArrayNode ec = report.root().putArray("ec_placement");
    List<List<String>> groups = new ArrayList<>();
    for (Class<? extends BlockPlacementPolicyDefault> type : List.of(BlockPlacementPolicyRackFaultTolerant.class,
        HierarchicalErasureCodedPlacementPolicy.class)) {
      for (int[] schema : new int[][] {{3, 2}, {6, 3}}) {
        int[] spread = placeGroups(type, schema[0] + schema[1], schema[1]);
        ObjectNode n = ec.addObject();
        n.put("name", "RS-" + schema[0] + "-" + schema[1] + " on " + EC_LAYOUT);
        n.put("policy", type.getName());
        n.put("distinct_dcs_min", spread[0]);
        n.put("most_cells_in_one_dc_max", spread[1]);
        n.put("groups_surviving_dc_loss", spread[2]);
        n.put("survives_dc_loss", spread[2] == 1000);
        groups.add(List.of(type.getSimpleName(), "RS-" + schema[0] + "-" + schema[1], String.valueOf(spread[0]),
            String.valueOf(spread[1]), spread[2] + " of 1000"));
      }
    }
    report.table("Erasure coding: 1,000 block groups each on " + EC_LAYOUT, List.of("policy", "schema",
        "datacenters (fewest)", "cells in one datacenter (most)", "groups surviving a datacenter's loss"), groups);
    System.out.println("written to " + report.write());
  }

  private static Configuration conf() {
    Configuration conf = new HdfsConfiguration();
    // No cluster statistics in a simulation: load is not considered, for every policy alike.
    conf.setBoolean("dfs.namenode.redundancy.considerLoad", false);
    return conf;
  }

  private static void measure(BlockPlacementPolicy policy, SimulatedTopology t, String writerKind, boolean warmUp,
      Throughput into) {
    Random random = new Random(42);
    int n = t.nodes.size();
    if (warmUp) {
      for (int i = 0; i < 50_000; i++) {
        choose(policy, "datanode".equals(writerKind) ? t.nodes.get(random.nextInt(n)) : null);
      }
    }
    long ops = 0;
    long racks = 0;
    long dcs = 0;
    long start = System.nanoTime();
    long end = start + MEASURE_NANOS;
    long now;
    do {
      for (int i = 0; i < 1000; i++) {
        DatanodeStorageInfo[] targets = choose(policy, "datanode".equals(writerKind) ? t.nodes.get(random.nextInt(n)) : null);
        Set<String> r = new HashSet<>(4);
        Set<String> d = new HashSet<>(4);
        for (DatanodeStorageInfo s : targets) {
          String rack = s.getDatanodeDescriptor().getNetworkLocation();
          r.add(rack);
          d.add(RackFill.datacenterOf(rack));
        }
        racks += r.size();
        dcs += d.size();
      }
      ops += 1000;
      now = System.nanoTime();
    } while (now < end);
    into.opsPerSec.add(ops * 1e9 / (now - start));
    into.blocks += ops;
    into.racks += racks;
    into.dcs += dcs;
  }

  private static DatanodeStorageInfo[] choose(BlockPlacementPolicy policy, Node writer) {
    return policy.chooseTarget("/bench/f", 3, writer, new ArrayList<>(), false, null, BLOCK, HOT, null);
  }

  private static final String EC_LAYOUT = "/dc1: 4 racks, /dc2: 1 rack, /dc3: 1 rack, 3 DataNodes each";

  /**
   * Places 1,000 block groups of {@code width} cells on {@link #EC_LAYOUT}; returns the fewest
   * datacenters a group spans, the most cells one datacenter holds, and the groups surviving the loss
   * of any one datacenter (no datacenter holding more than {@code parity} cells).
   */
  private static int[] placeGroups(Class<? extends BlockPlacementPolicyDefault> type, int width, int parity) {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 1; r <= 4; r++) {
      t.addRack("/dc1/r" + r, 3, 100L << 40, 0);
    }
    t.addRack("/dc2/r5", 3, 100L << 40, 0).addRack("/dc3/r6", 3, 100L << 40, 0);
    BlockPlacementPolicy policy = t.policy(type, conf);
    Random random = new Random(3);
    int dcsMin = Integer.MAX_VALUE;
    int mostMax = 0;
    int surviving = 0;
    for (int g = 0; g < 1000; g++) {
      Node writer = g % 2 == 0 ? null : t.nodes.get(random.nextInt(t.nodes.size()));
      List<String> dcs = new ArrayList<>();
      for (DatanodeStorageInfo s : policy.chooseTarget("/ec/f", width, writer, new ArrayList<>(), false, null, BLOCK, HOT, null)) {
        dcs.add(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation()));
      }
      int most = dcs.size() == width ? StripeSpreadRules.mostInOneDatacenter(dcs) : width;
      dcsMin = Math.min(dcsMin, new HashSet<>(dcs).size());
      mostMax = Math.max(mostMax, most);
      surviving += most <= parity ? 1 : 0;
    }
    return new int[] {dcsMin, mostMax, surviving};
  }

  /**
   * Places 100,000 1-MiB blocks on the seed's uneven racks; returns the std-dev of rack and of DataNode
   * utilisation after, in points.
   */
  private static double[] fill(Class<? extends BlockPlacementPolicyDefault> type, int run) {
    Configuration conf = conf();
    // The simulation has no clock: DataNode use changes only at the simulated heartbeats below.
    conf.set(PlacementKeys.RACK_FILL_REFRESH.getName(), "0");
    long capacity = 100L << 30;
    long block = 1L << 20;
    String[] racks = {"/r1", "/r2", "/r3", "/r4"};
    int[] sizes = {3, 3, 2, 2};
    double[] startFill = {0.5, 0.2, 0.4, 0.1};
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 0; r < racks.length; r++) {
      t.addRack(racks[r], sizes[r], capacity, (long) (capacity * startFill[r]));
    }
    BlockPlacementPolicy policy = t.policy(type, conf);
    int n = t.nodes.size();
    long[] used = new long[n];
    for (int i = 0; i < n; i++) {
      used[i] = t.nodes.get(i).getDfsUsed();
    }
    Map<DatanodeDescriptor, Integer> index = new HashMap<>();
    for (int i = 0; i < n; i++) {
      index.put(t.nodes.get(i), i);
    }
    Random random = new Random(1000 + run);
    for (int b = 0; b < 100_000; b++) {
      Node writer = b % 3 == 2 ? null : t.nodes.get(random.nextInt(n));
      for (DatanodeStorageInfo s : policy.chooseTarget("/fill/f", 3, writer, new ArrayList<>(), false, null, block, HOT, null)) {
        used[index.get(s.getDatanodeDescriptor())] += block;
      }
      if (b % 100 == 99) {
        for (int i = 0; i < n; i++) {
          t.setUsed(i, capacity, used[i]);
        }
      }
    }
    double[] pct = new double[racks.length];
    double[] nodePct = new double[n];
    int node = 0;
    for (int r = 0; r < racks.length; r++) {
      long sum = 0;
      for (int k = 0; k < sizes[r]; k++) {
        nodePct[node] = 100.0 * used[node] / capacity;
        sum += used[node++];
      }
      pct[r] = 100.0 * sum / (capacity * sizes[r]);
    }
    System.out.printf("  %s run %d: racks %s %%, DataNodes %s %%%n", type.getSimpleName(), run,
        Arrays.toString(Arrays.stream(pct).map(p -> Math.round(p * 10) / 10.0).toArray()),
        Arrays.toString(Arrays.stream(nodePct).map(p -> Math.round(p * 10) / 10.0).toArray()));
    return new double[] {stdDev(pct), stdDev(nodePct)};
  }

  private static double stdDev(double[] v) {
    double mean = Arrays.stream(v).average().orElse(0);
    return Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / v.length);
  }

  private static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
