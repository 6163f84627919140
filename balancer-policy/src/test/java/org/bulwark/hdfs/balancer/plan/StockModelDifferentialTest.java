package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The planner against a model of the stock balancer ({@link StockBalancerModel}) on thousands of small
 * seeded layouts shaped as {@code StockBalancerDifferential}'s (2-6 racks of 1-4 DataNodes of 48 blocks,
 * 1-3 writers, replication 2 and 3, thresholds 5-10, default or one-per-rack placement), where a last gap
 * smaller than a block and a few movable blocks shared by two sources are common. Wherever the model
 * balances within five iterations, the planner must too, without lowering any block's rack count.
 * The cluster test runs twenty such layouts on MiniDFSCluster against the real stock balancer; this one
 * covers the many more a cluster run could not afford.
 */
class StockModelDifferentialTest {
  private static final long MB = 1L << 20;
  private static final int LAYOUTS = Integer.getInteger("bulwark.model.layouts", 3000);
  private static final int MAX_ITERATIONS = 5;

  record Generated(SimulatedCluster cluster, double threshold, String description) {
  }

  static Generated generate(int seed) {
    Random random = new Random(seed);
    int racks = 2 + random.nextInt(5);
    int[] sizes = new int[racks];
    int dataNodes = 0;
    for (int r = 0; r < racks; r++) {
      sizes[r] = 1 + random.nextInt(4);
      dataNodes += sizes[r];
    }
    SimulatedCluster cluster = new SimulatedCluster(sizes, 48 * MB, MB);
    int[] writers = new int[1 + random.nextInt(3)];
    for (int w = 0; w < writers.length; w++) {
      writers[w] = random.nextInt(dataNodes);
    }
    int files = Math.min(4 * dataNodes, 28 * writers.length);
    boolean onePerRack = random.nextBoolean();
    double threshold = 5 + random.nextInt(6);
    for (int f = 0; f < files; f++) {
      int rf = Math.min(dataNodes, random.nextBoolean() ? 2 : 3);
      int writer = writers[f % writers.length];
      if (onePerRack) {
        cluster.writeOnePerRack(writer, rf, random);
      } else {
        cluster.writeDefault(writer, rf, random);
      }
    }
    return new Generated(cluster, threshold, "seed " + seed + ": racks " + Arrays.toString(sizes) + ", writers "
        + Arrays.toString(writers) + ", " + files + " files, threshold " + threshold
        + (onePerRack ? ", one per rack" : ", default placement"));
  }

  /** Whether the cluster ends with nothing left to move (no move lowers a rack count); {@code moves} collects them. */
  static boolean balancedByPlanner(SimulatedCluster cluster, double threshold, Random random, List<PlannedMove> moves) {
    MovePlanner planner = new MovePlanner(cluster.rackOf, MoveCheck.RACKS_ONLY);
    for (int i = 0; i < MAX_ITERATIONS; i++) {
      Classification c = cluster.classify(threshold);
      if (c.bytesLeftToMove() == 0) {
        return true;
      }
      Plan plan = planner.balance(c, cluster.candidates(c, 1000, random));
      if (plan.isEmpty()) {
        return false;
      }
      RackSpread spread = new RackSpread(cluster.rackOf);
      for (PlannedMove m : plan.moves()) {
        assertTrue(spread.delta(m.block().holders(), m.source(), m.target()) >= 0, "lowers a rack count: " + m);
      }
      moves.addAll(plan.moves());
      cluster.apply(plan);
    }
    return cluster.classify(threshold).bytesLeftToMove() == 0;
  }

  static boolean balancedByStock(SimulatedCluster cluster, double threshold, Random random) {
    StockBalancerModel stock = new StockBalancerModel(cluster);
    for (int i = 0; i < MAX_ITERATIONS; i++) {
      Classification c = cluster.classify(threshold);
      if (c.bytesLeftToMove() == 0) {
        return true;
      }
      if (stock.iterate(c, random).isEmpty()) {
        return false;
      }
    }
    return cluster.classify(threshold).bytesLeftToMove() == 0;
  }

  @Test
  void plannerBalancesWhereverTheStockModelDoes() {
    List<String> stalls = new ArrayList<>();
    int stockBalanced = 0;
    for (int seed = 1; seed <= LAYOUTS; seed++) {
      Generated g = generate(seed);
      if (!balancedByStock(g.cluster().copy(), g.threshold(), new Random(seed))) {
        continue;
      }
      stockBalanced++;
      List<PlannedMove> moves = new ArrayList<>();
      SimulatedCluster ours = g.cluster().copy();
      if (!balancedByPlanner(ours, g.threshold(), new Random(seed), moves)) {
        stalls.add(String.format("%s: max deviation %.2f after %d moves", g.description(), ours.maxDeviation(),
            moves.size()));
      }
    }
    assertTrue(stockBalanced > LAYOUTS / 2, "most layouts are balanceable by the stock model: " + stockBalanced);
    assertEquals(List.of(), stalls.subList(0, Math.min(10, stalls.size())),
        stalls.size() + " of " + stockBalanced + " layouts the stock model balances");
  }
}
