package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The planner's first iteration on seeded small layouts ({@link ModelLayout}, every other one with equal-sized blocks),
 * against the exact optimum an integer program finds over the same candidate blocks ({@link ExactBalanceReference}).
 * The goal per layout: no more left outside the threshold than the optimum, at most 1.05 times its bytes, at least
 * 0.95 of its rack-adding moves. The test prints how many layouts meet it and fails where the planner falls below
 * what it reached when this test was written (totals and per-layout counts). The optima are recorded
 * ({@link RecordedOptima}: solved once with 10 s per stage); an integration test because a program not recorded takes
 * seconds to solve.
 */
class ExactReferencePlanningIT {
  static final int LAYOUTS = Integer.getInteger("bulwark.exact.layouts", 100);

  record Judged(long seed, String layout, double outside, double bestOutside, double moved, double leastMoved,
      int adding, int mostAdding, boolean proven) {
    double bytesVsOptimum() {
      return leastMoved == 0 ? (moved == 0 ? 1 : Double.POSITIVE_INFINITY) : moved / leastMoved;
    }

    double shareOfOptimum() {
      return mostAdding == 0 ? 1 : (double) adding / mostAdding;
    }

    boolean meets() {
      return outside <= bestOutside + 0.01 && bytesVsOptimum() <= 1.05 && shareOfOptimum() >= 0.95;
    }
  }

  static Judged judge(long seed) {
    ModelLayout layout = ModelLayout.generate(seed);
    Classification c = layout.classify();
    if (c.bytesLeftToMove() == 0) {
      return null;
    }
    Map<Integer, List<BlockCandidate>> candidates = layout.candidates(c, new Random(seed));
    MoveCheck check = layout.datacenterCheck();
    Plan plan = new MovePlanner(layout.rackOf, check).balance(c, candidates);
    ExactBalanceReference.Optimum best = ExactBalanceReference.solve(layout, layout.threshold, layout.maxSizeToMove,
        candidates, check);
    return new Judged(seed, layout.description, ExactBalanceReference.outsideMb(layout, layout.threshold, plan.moves()),
        best.outsideMb(), plan.bytes() / (double) ModelLayout.MB, best.movedMb(), plan.movesAddingRack(),
        best.adding(), best.proven());
  }

  /**
   * The recorded optima are what the integer program solves to today: a change to the program that left
   * {@code FORMULATION} as it was would otherwise go on judging the planner by the old program's optima.
   */
  @Test
  void recordedOptimaAreWhatTheProgramSolvesTo() {
    int compared = 0;
    for (long seed = 1; seed <= LAYOUTS && compared < 5; seed++) {
      ModelLayout layout = ModelLayout.generate(seed);
      Classification c = layout.classify();
      if (c.bytesLeftToMove() == 0) {
        continue;
      }
      Map<Integer, List<BlockCandidate>> candidates = layout.candidates(c, new Random(seed));
      MoveCheck check = layout.datacenterCheck();
      ExactBalanceReference.Optimum recorded = ExactBalanceReference.solve(layout, layout.threshold,
          layout.maxSizeToMove, candidates, check);
      if (!recorded.proven()) {
        continue;
      }
      ExactBalanceReference.Optimum live = ExactBalanceReference.solve(layout, layout.threshold,
          layout.maxSizeToMove, candidates, check, 10, false);
      if (live.proven()) {
        assertEquals(recorded, live, "seed " + seed + ": recorded optimum against the program's");
        compared++;
      }
    }
    assertTrue(compared >= 3, "recorded optima compared with live ones: " + compared);
  }

  @Test
  void theFirstIterationMeetsTheExactOptimum() {
    List<Judged> judged = new ArrayList<>();
    List<Judged> short_ = new ArrayList<>();
    for (long seed = 1; seed <= LAYOUTS; seed++) {
      Judged j = judge(seed);
      if (j == null) {
        continue;
      }
      judged.add(j);
      if (!j.meets()) {
        short_.add(j);
      }
    }
    double worstShare = judged.stream().mapToDouble(Judged::shareOfOptimum).min().orElse(1);
    double worstBytes = judged.stream().mapToDouble(Judged::bytesVsOptimum).max().orElse(1);
    long unproven = judged.stream().filter(j -> !j.proven()).count();
    System.out.printf("exact reference: %d unbalanced layouts of %d, %d short of the goals, worst share of optimum %.3f,"
        + " worst bytes vs optimum %.3f, %d optima unproven%n", judged.size(), LAYOUTS, short_.size(), worstShare,
        worstBytes, unproven);
    System.out.printf("exact reference totals: outside %.1f MB (optimum %.1f), moved %.1f MB (least %.1f), rack-adding %d"
        + " (most %d); layouts inside the optimum's outside %d, bytes <= 1.05x %d, share >= 0.95 %d%n",
        judged.stream().mapToDouble(Judged::outside).sum(), judged.stream().mapToDouble(Judged::bestOutside).sum(),
        judged.stream().mapToDouble(Judged::moved).sum(), judged.stream().mapToDouble(Judged::leastMoved).sum(),
        judged.stream().mapToInt(Judged::adding).sum(), judged.stream().mapToInt(Judged::mostAdding).sum(),
        judged.stream().filter(j -> j.outside() <= j.bestOutside() + 0.01).count(),
        judged.stream().filter(j -> j.bytesVsOptimum() <= 1.05).count(),
        judged.stream().filter(j -> j.shareOfOptimum() >= 0.95).count());
    short_.stream().limit(20).forEach(j -> System.out.println("  " + j));
    assertTrue(judged.size() > LAYOUTS / 2, judged.size() + " unbalanced layouts");
    double outside = judged.stream().mapToDouble(Judged::outside).sum();
    double bestOutside = judged.stream().mapToDouble(Judged::bestOutside).sum();
    double moved = judged.stream().mapToDouble(Judged::moved).sum();
    double least = judged.stream().mapToDouble(Judged::leastMoved).sum();
    long adding = judged.stream().mapToInt(Judged::adding).sum();
    long most = judged.stream().mapToInt(Judged::mostAdding).sum();
    long balancedAsWell = judged.stream().filter(j -> j.outside() <= j.bestOutside() + 0.01).count();
    long fewBytes = judged.stream().filter(j -> j.bytesVsOptimum() <= 1.05).count();
    long racksAdded = judged.stream().filter(j -> j.shareOfOptimum() >= 0.95).count();
    // Where the planner stood last against the recorded optima (98 unbalanced layouts of 100, 18 optima not proven in
    // 10 s per stage): outside 1.003x the optimum's, bytes 1.001x, rack-adding moves 0.964x; 0.94 of the layouts as
    // balanced as the optimum, 0.97 within 1.05x its bytes, 0.91 within 0.95 of its rack-adding moves.
    assertTrue(outside <= bestOutside * 1.01, "outside " + outside + " MB, optimum " + bestOutside);
    assertTrue(moved <= least * 1.03, "moved " + moved + " MB, least " + least);
    assertTrue(adding >= most * 0.96, "rack-adding " + adding + ", most " + most);
    assertTrue(balancedAsWell >= judged.size() * 0.90, balancedAsWell + " of " + judged.size() + " as balanced");
    assertTrue(fewBytes >= judged.size() * 0.90, fewBytes + " of " + judged.size() + " within 1.05x the bytes");
    assertTrue(racksAdded >= judged.size() * 0.90, racksAdded + " of " + judged.size() + " within 0.95 of the racks");
  }
}
