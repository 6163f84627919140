package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The planner on many seeded random layouts (2-6 racks of 1-4 DataNodes, 1-3 writers, replication 2 and
 * 3, thresholds 5-10, blocks laid out by Hadoop's default policy or one per rack), iterated as the
 * balancer iterates: it never lowers a block's rack count, and the share of rack-adding moves reaches
 * 0.95 of what the planner reports possible.
 */
class RandomLayoutPlanningTest {
  private static final long MB = 1L << 20;

  record Outcome(int seed, String layout, int moves, int adding, int possible, int iterations, double maxDevAfter,
      double threshold) {
    double share() {
      return moves == 0 ? 1 : (double) adding / moves;
    }

    double needed() {
      return moves == 0 ? 0 : 0.95 * Math.min(1.0, (double) possible / moves);
    }
  }

  static Outcome run(int seed) {
    Random random = new Random(seed);
    int racks = 2 + random.nextInt(5);
    int[] sizes = new int[racks];
    for (int r = 0; r < racks; r++) {
      sizes[r] = 1 + random.nextInt(4);
    }
    SimulatedCluster cluster = new SimulatedCluster(sizes, 2048 * MB, 8 * MB);
    int writers = 1 + random.nextInt(3);
    int[] writerNodes = new int[writers];
    for (int w = 0; w < writers; w++) {
      writerNodes[w] = random.nextInt(cluster.nodes());
    }
    boolean onePerRack = random.nextBoolean();
    double threshold = 5 + random.nextInt(6);
    int blocks = 60 + random.nextInt(120);
    for (int b = 0; b < blocks; b++) {
      int rf = random.nextBoolean() ? 2 : 3;
      int writer = writerNodes[b % writers];
      if (onePerRack) {
        cluster.writeOnePerRack(writer, Math.min(rf, cluster.nodes()), random);
      } else {
        cluster.writeDefault(writer, Math.min(rf, cluster.nodes()), random);
      }
    }
    String layout = java.util.Arrays.toString(sizes) + (onePerRack ? " one-per-rack" : " default") + ", writers "
        + writers + ", threshold " + threshold;
    MovePlanner planner = new MovePlanner(cluster.rackOf, MoveCheck.RACKS_ONLY);
    RackSpread spread = new RackSpread(cluster.rackOf);
    int moves = 0;
    int adding = 0;
    int possible = 0;
    int iterations = 0;
    for (int i = 0; i < 5; i++) {
      Classification c = cluster.classify(threshold);
      if (c.bytesLeftToMove() == 0) {
        break;
      }
      Plan plan = planner.balance(c, cluster.candidates(c, 2, random));
      if (plan.isEmpty()) {
        break;
      }
      iterations++;
      for (PlannedMove m : plan.moves()) {
        assertTrue(spread.delta(m.block().holders(), m.source(), m.target()) >= 0, "seed " + seed + ": " + m);
      }
      moves += plan.moves().size();
      adding += plan.movesAddingRack();
      possible += plan.movesAddingRackPossible();
      cluster.apply(plan);
    }
    return new Outcome(seed, layout, moves, adding, possible, iterations, cluster.maxDeviation(), threshold);
  }

  @Test
  void rackAddingShareReachesWhatIsPossibleOnRandomLayouts() {
    List<String> short_ = new ArrayList<>();
    int withMoves = 0;
    for (int seed = 1; seed <= 500; seed++) {
      Outcome o = run(seed);
      withMoves += o.moves() > 0 ? 1 : 0;
      if (o.share() < o.needed() - 1e-9) {
        short_.add(String.format("seed %d (%s): %d moves, %d adding, %d possible", seed, o.layout(), o.moves(),
            o.adding(), o.possible()));
      }
    }
    assertTrue(withMoves > 200, "most layouts need balancing: " + withMoves);
    assertEquals(List.of(), short_.subList(0, Math.min(10, short_.size())), short_.size() + " of 500 layouts short");
  }
}
