package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Whole balancer runs in the model, where {@code dfs.balancer.max-size-to-move} (24 MB, three blocks) and the fetch
 * window of {@code getBlocks} (twice what a node may give) split the work over iterations: classify, fetch, plan, move,
 * until every DataNode is inside the threshold or an iteration plans nothing. Judged against the exact optimum of the
 * complete move set on the starting layout ({@link ExactBalanceReference} over every block of every node above the
 * average, no per-iteration limit), which the planner never sees. The goal: the run ends no further outside the
 * threshold than that optimum, within 1.1 times its bytes, with at least 0.95 of its rack-adding moves; the test prints
 * how many runs meet it and fails where the planner falls below what it reached when the test was written. The
 * optima are recorded ({@link RecordedOptima}, 10 s per stage); an integration test because each one not recorded is
 * three integer programs over every block.
 */
class WholeRunPlanningIT {
  static final int LAYOUTS = Integer.getInteger("bulwark.wholerun.layouts", 30);
  static final int MAX_ITERATIONS = 30;
  static final int IDLE_ITERATIONS = 5;

  record Run(long seed, String layout, int iterations, double outside, double bestOutside, double moved,
      double leastMoved, int adding, int mostAdding, boolean proven) {
    double bytesVsOptimum() {
      return leastMoved == 0 ? (moved == 0 ? 1 : Double.POSITIVE_INFINITY) : moved / leastMoved;
    }

    double shareOfOptimum() {
      return mostAdding == 0 ? 1 : Math.min(1, (double) adding / mostAdding);
    }

    boolean balancedAsWell() {
      return outside <= bestOutside + 0.01;
    }

    boolean meets() {
      return balancedAsWell() && bytesVsOptimum() <= 1.1 && shareOfOptimum() >= 0.95;
    }
  }

  /** One run from the seed's layout, or null where the layout needs no balancing. */
  static Run run(long seed) {
    ModelLayout layout = ModelLayout.generate(seed);
    if (layout.classify().bytesLeftToMove() == 0) {
      return null;
    }
    MovePlanner planner = new MovePlanner(layout.rackOf, layout.datacenterCheck());
    Random random = new Random(seed);
    List<PlannedMove> made = new ArrayList<>();
    int iterations = 0;
    int idle = 0;
    // As NameNodeConnector.shouldContinue: the run ends after five iterations in a row that move nothing (each fetches
    // another window of blocks).
    while (iterations < MAX_ITERATIONS && idle < IDLE_ITERATIONS) {
      Classification c = layout.classify();
      if (c.bytesLeftToMove() == 0) {
        break;
      }
      Plan plan = planner.balance(c, layout.candidates(c, random));
      iterations++;
      idle = plan.moves().isEmpty() ? idle + 1 : 0;
      layout.apply(plan.moves());
      made.addAll(plan.moves());
    }
    ModelLayout start = ModelLayout.generate(seed);
    ExactBalanceReference.Optimum best = ExactBalanceReference.solve(start, start.threshold, Long.MAX_VALUE / 4,
        start.everyBlockOfSources(), start.datacenterCheck());
    long bytes = made.stream().mapToLong(m -> m.block().size()).sum();
    int adding = (int) made.stream().filter(PlannedMove::addsRack).count();
    return new Run(seed, start.description, iterations - idle, ExactBalanceReference.outsideMb(start, start.threshold, made),
        best.outsideMb(), bytes / (double) ModelLayout.MB, best.movedMb(), adding, best.adding(), best.proven());
  }

  @Test
  void aWholeRunStaysNearTheOptimumOfTheCompleteMoveSet() {
    List<Run> runs = new ArrayList<>();
    for (long seed = 1; runs.size() < LAYOUTS && seed < 40L * LAYOUTS; seed++) {
      if (ModelLayout.generate(seed).maxSizeToMove >= 1L << 30) {
        continue;
      }
      Run r = run(seed);
      if (r != null) {
        runs.add(r);
      }
    }
    List<Run> short_ = runs.stream().filter(r -> !r.meets()).toList();
    double outside = runs.stream().mapToDouble(Run::outside).sum();
    double bestOutside = runs.stream().mapToDouble(Run::bestOutside).sum();
    double moved = runs.stream().mapToDouble(Run::moved).sum();
    double least = runs.stream().mapToDouble(Run::leastMoved).sum();
    long adding = runs.stream().mapToInt(Run::adding).sum();
    long most = runs.stream().mapToInt(Run::mostAdding).sum();
    long balancedAsWell = runs.stream().filter(Run::balancedAsWell).count();
    long fewBytes = runs.stream().filter(r -> r.bytesVsOptimum() <= 1.1).count();
    long racksAdded = runs.stream().filter(r -> r.shareOfOptimum() >= 0.95).count();
    System.out.printf("whole runs: %d layouts with max-size-to-move, %d short of the goals, %d optima unproven,"
        + " iterations %d-%d%n", runs.size(), short_.size(), runs.stream().filter(r -> !r.proven()).count(),
        runs.stream().mapToInt(Run::iterations).min().orElse(0), runs.stream().mapToInt(Run::iterations).max().orElse(0));
    System.out.printf("whole-run totals: outside %.1f MB (optimum %.1f), moved %.1f MB (least %.1f), rack-adding %d"
        + " (most %d); runs as balanced as the optimum %d, bytes <= 1.1x %d, share >= 0.95 %d%n", outside, bestOutside,
        moved, least, adding, most, balancedAsWell, fewBytes, racksAdded);
    short_.forEach(r -> System.out.println("  " + r));
    assertTrue(runs.size() >= LAYOUTS / 2, runs.size() + " layouts judged");
    // Where the planner stood when this test was written (30 layouts): outside 1.018x the optimum's, bytes 1.126x
    // (the goal is 1.1x), rack-adding moves 1.00x; 27 runs as balanced as the optimum, 19 within 1.1x its bytes, 23
    // within 0.95 of its rack-adding moves. The guards hold it there, with room for the solver's unproven optima.
    assertTrue(outside <= bestOutside * 1.03 + 1, "outside " + outside + " MB, optimum " + bestOutside);
    assertTrue(moved <= least * 1.15, "moved " + moved + " MB, least " + least);
    assertTrue(adding >= most * 0.95, "rack-adding " + adding + ", most " + most);
    assertTrue(balancedAsWell >= runs.size() * 0.85, balancedAsWell + " of " + runs.size() + " as balanced");
    assertTrue(fewBytes >= runs.size() * 0.55, fewBytes + " of " + runs.size() + " within 1.1x the bytes");
  }
}
