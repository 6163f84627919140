package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.SkewedCluster.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsVolumeImpl;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.bulwark.hdfs.balancer.plan.ExactOptimum;
import org.bulwark.hdfs.placement.OneReplicaPerRackPlacementPolicy;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The availability balancer against the stock one on seeded random layouts we did not design: 2-6 racks
 * of 1-4 DataNodes, 1-3 writers on DataNodes, files of replication 2 and 3, thresholds 5-10, written with
 * Hadoop's default placement policy or one replica per rack. Each layout is written once and both
 * balancers start from their own copy of its storage. Wherever the stock {@code datanode} policy balances
 * (exit 0), the availability policy must too: exit 0, every DataNode within the threshold after, no
 * block on fewer racks than before, at least 0.95 of the rack-adding moves of the first iteration's exact optimum
 * on its copy ({@link FirstIterationOptimum}, rounded down to whole moves), and where that optimum balances in one
 * iteration, at most 1.05 times its bytes and one block more.
 *
 * <p>The layouts are shared out between four test classes by their seed modulo 4, so that the module's test
 * JVMs can share them out (each layout takes half a minute of clusters starting, settling and balancing).
 *
 * <p>Slow because each layout starts three clusters (write, stock run, availability run) and waits out the balancers'
 * iterations (3 s apart) and the moves' settling.
 */
abstract class StockBalancerDifferential {
  private static final long FILE = MB;
  private static final long CAPACITY = 48 * MB;
  /** The exact reference's time per stage: the layouts hold a few hundred replicas. */
  private static final double OPTIMUM_SECONDS = 2;
  private static final int LAYOUTS = Integer.getInteger("bulwark.differential.layouts", 10);
  /** Layouts that once failed, run beside the first {@link #LAYOUTS}: 12 exited -2 on a view not yet updated. */
  private static final List<Integer> REGRESSIONS = List.of(12);

  /** Whether this class runs the layout of {@code seed}. */
  abstract boolean runs(int seed);

  /**
   * Seeds 1 to {@code bulwark.differential.layouts} and the regressions, or those {@code bulwark.differential.seeds}
   * lists; each class skips the other's (a filtered list could be empty, which a parameterized test refuses).
   */
  static Stream<Integer> seeds() {
    String only = System.getProperty("bulwark.differential.seeds", "");
    return only.isEmpty() ? Stream.concat(IntStream.rangeClosed(1, LAYOUTS).boxed(), REGRESSIONS.stream()).distinct()
        : Arrays.stream(only.split(",")).map(String::trim).map(Integer::valueOf);
  }

  /** One generated layout: topology, writers, replication per file, threshold, placement. */
  record Layout(int seed, String topology, int dataNodes, int[] writers, int[] replication, int threshold,
      boolean onePerRack) {
    static Layout generate(int seed) {
      Random random = new Random(seed);
      int racks = 2 + random.nextInt(5);
      StringBuilder topology = new StringBuilder();
      int dataNodes = 0;
      for (int r = 1; r <= racks; r++) {
        int size = 1 + random.nextInt(4);
        dataNodes += size;
        topology.append(r > 1 ? "," : "").append("/r").append(r).append(':').append(size);
      }
      int[] writers = new int[1 + random.nextInt(3)];
      for (int w = 0; w < writers.length; w++) {
        writers[w] = random.nextInt(dataNodes);
      }
      // writers fill to about 60 % at most; the cluster's average stays well below
      int[] replication = new int[Math.min(4 * dataNodes, 28 * writers.length)];
      for (int f = 0; f < replication.length; f++) {
        replication[f] = Math.min(dataNodes, random.nextBoolean() ? 2 : 3);
      }
      return new Layout(seed, topology.toString(), dataNodes, writers, replication, 5 + random.nextInt(6),
          random.nextBoolean());
    }

    @Override
    public String toString() {
      return "seed " + seed + ": " + topology + ", writers " + Arrays.toString(writers) + ", "
          + replication.length + " files, threshold " + threshold + (onePerRack ? ", one per rack" : ", default placement");
    }
  }

  /**
   * What one balancer did to its copy of the layout. {@code maxDeviation} is by the replicas the NameNode places
   * on each DataNode once it has settled; {@code atExit} is the NameNode's and DataNodes' state the moment the
   * balancer returned, before anything settled.
   */
  record Outcome(int exit, String console, double maxDeviation, StateAtExit atExit, List<String> racksLowered,
      long[] moves, JsonNode report, ExactOptimum.Result optimum) {
    /** The largest distance from the average the balancer itself saw last (its report), or -1 without a report. */
    double lastSeenMaxDeviation() {
      return report == null ? -1 : report.path("dn_util_max_dev_after").asDouble(-1);
    }
  }

  /**
   * The active NameNode's replica bookkeeping and the DataNodes' reported use the moment a balancer returned: what
   * a run that stops on the DataNodes' reports stopped on, kept for the printout.
   */
  record StateAtExit(long postponed, long excess, long pendingDeletion, int staleStorages, long dfsUsed,
      long capacityLessRemaining, long reservedForReplicas, long liveCapacityLessRemaining, long oldestHeartbeatMs,
      long replicaBytes) {
    static StateAtExit read(BulwarkMiniCluster c) throws IOException {
      long replicas = 0;
      LayoutDiff layout = LayoutDiff.read(c);
      for (DataNodeHandle dn : c.dataNodes()) {
        replicas += layout.bytesOn(dn.ipAddress());
      }
      long used = 0;
      long notRemaining = 0;
      long oldestHeartbeat = Long.MAX_VALUE;
      for (DatanodeInfo dn : c.fs(0).getDataNodeStats(DatanodeReportType.LIVE)) {
        used += dn.getDfsUsed();
        notRemaining += dn.getCapacity() - dn.getRemaining();
        oldestHeartbeat = Math.min(oldestHeartbeat, dn.getLastUpdate());
      }
      long reserved = 0;
      long liveNotRemaining = 0;
      for (DataNode dn : c.mini().getDataNodes()) {
        try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
          for (FsVolumeSpi v : volumes) {
            FsVolumeImpl volume = (FsVolumeImpl) v;
            reserved += volume.getReservedForReplicas();
            liveNotRemaining += volume.getCapacity() - volume.getAvailable();
          }
        }
      }
      FSNamesystem ns = c.activeNamesystem(0);
      return new StateAtExit(ns.getPostponedMisreplicatedBlocks(), ns.getExcessBlocks(), ns.getPendingDeletionBlocks(),
          ns.getNumStaleStorages(), used, notRemaining, reserved, liveNotRemaining,
          System.currentTimeMillis() - oldestHeartbeat, replicas);
    }

    @Override
    public String toString() {
      return String.format("%d postponed, %d excess, %d pending deletion, %d stale storages; DataNodes report %.2f MB"
          + " DFS used and %.2f MB not remaining (the DataNodes themselves now: %.2f MB not remaining, %.2f MB"
          + " reserved for replicas being written; oldest heartbeat %d ms ago), the NameNode places %.2f MB", postponed,
          excess, pendingDeletion, staleStorages, dfsUsed / (double) MB, capacityLessRemaining / (double) MB,
          liveCapacityLessRemaining / (double) MB, reservedForReplicas / (double) MB, oldestHeartbeatMs,
          replicaBytes / (double) MB);
    }
  }

  @ParameterizedTest(name = "layout {0}")
  @MethodSource("seeds")
  void availabilityBalancesWhereverTheStockBalancerDoes(int seed, @TempDir File tmp) throws Exception {
    assumeTrue(runs(seed), () -> "layout " + seed + " is the other class's");
    Layout layout = Layout.generate(seed);
    File template = new File(tmp, "template");
    long start = System.nanoTime();
    write(layout, template);
    File copy = new File(tmp, "copy");
    FileUtils.copyDirectory(template, copy);
    long written = System.nanoTime();
    Outcome stock = balance(layout, template, "datanode", tmp);
    long stockDone = System.nanoTime();
    Outcome ours = balance(layout, copy, "availability", tmp);
    System.out.printf("differential %s (written in %.1f s, stock run %.1f s, availability run %.1f s)%n"
        + "  datanode     exit %d, moves %d (%d adding a rack), max dev %.2f%n"
        + "  availability exit %d, moves %d (%d adding a rack, %d possible), max dev %.2f%n"
        + "  at the exits: datanode %s; availability %s%n", layout,
        (written - start) / 1e9, (stockDone - written) / 1e9, (System.nanoTime() - stockDone) / 1e9, stock.exit,
        stock.moves[0], stock.moves[1], stock.maxDeviation, ours.exit, ours.moves[0], ours.moves[1],
        ours.report == null ? -1 : ours.report.path("moves_adding_rack_possible").asLong(), ours.maxDeviation,
        stock.atExit, ours.atExit);
    ExactOptimum.Result best = ours.optimum;
    System.out.printf("  exact first iteration: %.1f MB left outside, %.1f MB moved, %d adding a rack%s;"
        + " availability share %.2f, bytes %.2fx; datanode share %.2f, bytes %.2fx%n", best.outsideBytes() / (double) MB,
        best.bytes() / (double) MB, best.movesAddingRack(), best.proven() ? "" : " (not proven)",
        shareOfOptimum(ours.moves, best), bytesVsOptimum(ours.moves, best), shareOfOptimum(stock.moves, best),
        bytesVsOptimum(stock.moves, best));
    if (stock.exit != 0) {
      return; // the claim is about layouts the stock balancer can balance
    }
    if (ours.exit == ExitStatus.NO_MOVE_PROGRESS.getExitCode() && ours.maxDeviation <= layout.threshold
        && ours.lastSeenMaxDeviation() > layout.threshold) {
      // Balanced by the NameNode's replicas, not by what the DataNodes reported while it ran. Seed 12, 2026-11-27:
      // the NameNode held the DataNodes at 3 MB less remaining than their DFS use gives through five idle iterations
      // (12 s). The stock balancer stops the same way on such reports (stock -3 on seed 12 in 2 of 20 replays).
      // Judged on the balancer's own last view: the reports may catch up while the test waits for the NameNode to settle
      // (CI, 2026-11-27: a run that stopped at 6.81 of 6 was read back within the threshold). The checks below hold.
      System.out.printf("  availability ran out of idle iterations on DataNode reports %.2f points off the average,"
          + " the NameNode's replicas %.2f; at its exit: %s%n", ours.lastSeenMaxDeviation(), ours.maxDeviation,
          ours.atExit);
    } else {
      assertEquals(0, ours.exit, layout + "\nat its exit: " + ours.atExit + "; replicas' max deviation after settling "
          + ours.maxDeviation + "\n" + ours.console);
    }
    assertTrue(ours.maxDeviation <= layout.threshold, layout + ": max deviation " + ours.maxDeviation + "\n" + ours.console);
    assertEquals(List.of(), ours.racksLowered, layout + ": blocks on fewer racks");
    // Held to the first iteration's exact optimum on this copy (CP-SAT, not the planner's own bound), counted from the
    // NameNode's replicas before and after: 0.95 of its rack-adding moves in whole moves (with 12, 11 will do), and
    // where it balances in one iteration, at most 1.05 times its bytes and one block more.
    long needed = (long) Math.floor(0.95 * best.movesAddingRack());
    assertTrue(ours.moves[1] >= needed, layout + ": " + ours.moves[1] + " of " + ours.moves[0] + " moves add a rack, the"
        + " exact first iteration adds " + best.movesAddingRack() + "\n" + ours.console);
    if (best.outsideBytes() == 0) {
      assertTrue(ours.moves[2] <= 1.05 * best.bytes() + FILE, layout + ": " + ours.moves[2] / (double) MB + " MB moved,"
          + " the exact first iteration balances with " + best.bytes() / (double) MB + " MB\n" + ours.console);
    }
  }

  /** A run's rack-adding moves over the optimum's (1 where the optimum has none). */
  static double shareOfOptimum(long[] moves, ExactOptimum.Result best) {
    return best.movesAddingRack() == 0 ? 1 : moves[1] / (double) best.movesAddingRack();
  }

  /** A run's bytes over the optimum's (1 where neither moves any). */
  static double bytesVsOptimum(long[] moves, ExactOptimum.Result best) {
    return best.bytes() == 0 ? (moves[2] == 0 ? 1 : Double.POSITIVE_INFINITY) : moves[2] / (double) best.bytes();
  }

  private static BulwarkMiniCluster.Builder cluster(Layout layout, File dir) {
    BulwarkMiniCluster.Builder b = BulwarkMiniCluster.builder().topology(layout.topology).capacity(CAPACITY).baseDir(dir);
    return layout.onePerRack ? b.placementPolicy(OneReplicaPerRackPlacementPolicy.class) : b;
  }

  /**
   * Writes the layout's files from its writers and stops the cluster, leaving its storage in {@code dir}. Each file's
   * replicas go where the policy would put them ({@link #placement}), drawn from the layout's seed and named as favored
   * nodes: with the NameNode's own random choice every run of a seed was a different layout, and a shortfall found on
   * one could not be looked at again.
   */
  private static void write(Layout layout, File dir) throws Exception {
    // A favored node busier than twice the average (the last file's pipeline still closing on the writer) would be
    // passed over for a random one: the writes do not weigh load, so the seed alone decides.
    BulwarkMiniCluster c = cluster(layout, dir)
        .configure(conf -> conf.setBoolean("dfs.namenode.redundancy.considerLoad", false)).build();
    try {
      List<DataNodeHandle> dns = c.dataNodes();
      Random random = new Random(layout.seed * 7919L + 17);
      for (int f = 0; f < layout.replication.length; f++) {
        DataNodeHandle writer = dns.get(layout.writers[f % layout.writers.length]);
        List<java.net.InetSocketAddress> favored = new ArrayList<>();
        for (DataNodeHandle h : placement(dns, writer, layout.replication[f], layout.onePerRack, random)) {
          favored.add(c.running(h).getXferAddress());
        }
        c.writeFile(0, new Path("/data/f" + f), FILE, WriteOrigin.fromDataNodeFavoring(writer, favored),
            layout.replication[f]);
      }
      new SkewedCluster(c, FILE).awaitNameNodesSettled();
    } finally {
      c.closeKeepingStorage();
    }
  }

  /**
   * Where a DataNode-local write's {@code replication} replicas go under the layout's policy, as Hadoop places them:
   * the default policy the writer's node, a node of another rack, a second node of that rack, then any node (at most
   * {@code (replication - 1) / racks + 2} on a rack); one per rack the writer's node, then a node of each rack not yet
   * used, then any node, the racks evenly.
   */
  static List<DataNodeHandle> placement(List<DataNodeHandle> dns, DataNodeHandle writer, int replication,
      boolean onePerRack, Random random) {
    List<DataNodeHandle> chosen = new ArrayList<>(List.of(writer));
    long racks = dns.stream().map(DataNodeHandle::rack).distinct().count();
    int maxPerRack = onePerRack ? (int) Math.ceil(replication / (double) racks) : (int) ((replication - 1) / racks + 2);
    while (chosen.size() < Math.min(replication, dns.size())) {
      List<DataNodeHandle> preferred = new ArrayList<>();
      List<DataNodeHandle> allowed = new ArrayList<>();
      for (DataNodeHandle h : dns) {
        long onRack = chosen.stream().filter(x -> x.rack().equals(h.rack())).count();
        if (chosen.contains(h) || onRack >= maxPerRack) {
          continue;
        }
        allowed.add(h);
        boolean wanted = onePerRack ? onRack == 0
            : chosen.size() == 1 ? !h.rack().equals(writer.rack())
            : chosen.size() == 2 ? h.rack().equals(chosen.get(1).rack())
            : true;
        if (wanted) {
          preferred.add(h);
        }
      }
      List<DataNodeHandle> from = !preferred.isEmpty() ? preferred : !allowed.isEmpty() ? allowed
          : dns.stream().filter(h -> !chosen.contains(h)).toList();
      chosen.add(from.get(random.nextInt(from.size())));
    }
    return chosen;
  }

  private static Outcome balance(Layout layout, File dir, String policy, File tmp) throws Exception {
    try (BulwarkMiniCluster c = cluster(layout, dir).reuseStorage().build()) {
      SkewedCluster settle = new SkewedCluster(c, FILE);
      settle.awaitNameNodesSettled();
      LayoutDiff before = LayoutDiff.read(c);
      // The reference: the first iteration's exact optimum on this copy, found before the balancer starts.
      ExactOptimum.Result optimum = policy.equals("availability")
          ? FirstIterationOptimum.of(c, layout.threshold, OPTIMUM_SECONDS) : null;
      File report = new File(tmp, policy + ".json");
      List<String> args = new ArrayList<>(List.of("-policy", policy, "-threshold", String.valueOf(layout.threshold)));
      if (policy.equals("availability")) {
        args.addAll(List.of("-report", report.getPath()));
      }
      long start = System.nanoTime();
      BalancerRuns run = BalancerRuns.run(c.conf(), args.toArray(new String[0]));
      System.out.printf("  %s balancer itself %.1f s%n", policy, (System.nanoTime() - start) / 1e9);
      StateAtExit atExit = StateAtExit.read(c);
      settle.awaitNameNodesSettled();
      LayoutDiff after = LayoutDiff.read(c);
      for (int f = 0; f < layout.replication.length; f++) {
        c.verifyFile(0, new Path("/data/f" + f), FILE);
      }
      JsonNode json = report.isFile() ? new ObjectMapper().readTree(report) : null;
      return new Outcome(run.exit, run.console, maxDeviation(c.dataNodes(), after), atExit,
          before.racksLowered(after), before.movesTo(after), json, optimum);
    }
  }

  /**
   * The largest distance of a DataNode's utilisation from the average, by the replicas the NameNode
   * places on each (what the DataNodes report lags it by a heartbeat and adds checksum files, under 1 %).
   */
  private static double maxDeviation(List<DataNodeHandle> dataNodes, LayoutDiff layout) {
    double[] percent = dataNodes.stream().mapToDouble(dn -> layout.bytesOn(dn.ipAddress()) * 100.0 / CAPACITY).toArray();
    double average = Arrays.stream(percent).average().orElse(0);
    return Arrays.stream(percent).map(p -> Math.abs(p - average)).max().orElse(0);
  }
}
