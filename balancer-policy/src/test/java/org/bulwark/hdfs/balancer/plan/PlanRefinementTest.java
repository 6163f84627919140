package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class PlanRefinementTest {
  private static final long MB = 1L << 20;
  // racks: 0 -> {0, 1}, 1 -> {2}, 2 -> {3}
  private static final int[] RACKS = {0, 0, 1, 2};

  /** Node 0 over-utilised (must shed 50 MB), node 2 under-utilised (must take 50 MB), nodes 1 and 3 at the average. */
  private static Classification layout() {
    return Classification.classify(4, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 650 * MB, 350 * MB, true),
        new NodeUsage(1, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(2, 1000 * MB, 350 * MB, 650 * MB, true),
        new NodeUsage(3, 1000 * MB, 500 * MB, 500 * MB, true)), 10, 1L << 40);
  }

  private static List<PlannedMove> refine(Classification c, Map<Integer, List<BlockCandidate>> offers,
      List<PlannedMove> plan) {
    boolean[] over = {true, false, false, false};
    boolean[] under = {false, false, true, false};
    MoveRules rules = new MoveRules(new RackSpread(RACKS), MoveCheck.RACKS_ONLY, over, under);
    NodeLoads loads = new NodeLoads(c, new long[] {c.maxBytesToMove(0), 0, c.maxBytesToMove(2), 0});
    for (PlannedMove m : plan) {
      loads.add(m.source(), m.block().size());
      loads.add(m.target(), m.block().size());
    }
    return new PlanRefinement(c, rules, loads, new int[] {2}, offers, plan).refine(PlanRefinement.MAX_PASSES);
  }

  @Test
  void aSmallBlockThatMeetsTheNeedReplacesABigOne() {
    Classification c = layout();
    BlockCandidate big = new BlockCandidate(0, 1, 120 * MB, new int[] {0, 3});
    BlockCandidate small = new BlockCandidate(0, 2, 60 * MB, new int[] {0, 3});
    Map<Integer, List<BlockCandidate>> offers = new HashMap<>();
    offers.put(0, Arrays.asList(big, small));
    List<PlannedMove> plan = refine(c, offers, Collections.singletonList(new PlannedMove(big, 0, 2, 0)));
    assertEquals(1, plan.size(), plan.toString());
    assertEquals(small, plan.get(0).block(), plan.toString());
    assertEquals(0, MovePlanner.bytesOutside(c, plan));
  }

  @Test
  void aMoveThatMeetsNoNeedIsDroppedAndAMissingOneAdded() {
    Classification c = layout();
    BlockCandidate first = new BlockCandidate(0, 1, 30 * MB, new int[] {0, 3});
    BlockCandidate second = new BlockCandidate(0, 2, 30 * MB, new int[] {0, 3});
    BlockCandidate third = new BlockCandidate(0, 3, 30 * MB, new int[] {0, 3});
    BlockCandidate fourth = new BlockCandidate(0, 4, 30 * MB, new int[] {0, 3});
    Map<Integer, List<BlockCandidate>> offers = new HashMap<>();
    offers.put(0, Arrays.asList(first, second, third, fourth));
    // 30 MB planned of the 50 each side must move: a second 30 MB block is added, and no third
    List<PlannedMove> plan = refine(c, offers, Collections.singletonList(new PlannedMove(first, 0, 2, 0)));
    assertEquals(2, plan.size(), plan.toString());
    assertEquals(0, MovePlanner.bytesOutside(c, plan));
    List<PlannedMove> tooMany = refine(c, offers, Arrays.asList(new PlannedMove(first, 0, 2, 0),
        new PlannedMove(second, 0, 2, 0), new PlannedMove(third, 0, 2, 0)));
    assertEquals(2, tooMany.size(), tooMany.toString());
  }

  @Test
  void aRackAddingMoveReplacesARackKeepingOneOfTheSameBytes() {
    Classification c = layout();
    BlockCandidate keeping = new BlockCandidate(0, 1, 60 * MB, new int[] {0, 3}); // rack 0 only held by node 0
    BlockCandidate adding = new BlockCandidate(0, 2, 60 * MB, new int[] {0, 1, 3}); // rack 0 held by node 1 too
    Map<Integer, List<BlockCandidate>> offers = new HashMap<>();
    offers.put(0, Arrays.asList(keeping, adding));
    List<PlannedMove> plan = refine(c, offers, Collections.singletonList(new PlannedMove(keeping, 0, 2, 0)));
    assertEquals(1, plan.size(), plan.toString());
    assertTrue(plan.get(0).addsRack(), plan.toString());
  }

  @Test
  void twoMovesTradeTargetsWhereEachTargetHasRoomForOneBlockOnly() {
    // racks: 0 -> {0, 1}, 1 -> {2, 5}, 2 -> {3, 4}; node 0 sheds two 60 MB blocks, nodes 2 and 4 take one each
    int[] racks = {0, 0, 1, 2, 2, 1};
    Classification c = Classification.classify(6, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 620 * MB, 380 * MB, true),
        new NodeUsage(1, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(2, 1000 * MB, 440 * MB, 560 * MB, true),
        new NodeUsage(3, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(4, 1000 * MB, 440 * MB, 560 * MB, true),
        new NodeUsage(5, 1000 * MB, 500 * MB, 500 * MB, true)), 5, 1L << 40);
    BlockCandidate x = new BlockCandidate(0, 1, 60 * MB, new int[] {0, 1, 3}); // racks 0 and 2: adds a rack on node 2
    BlockCandidate y = new BlockCandidate(0, 2, 60 * MB, new int[] {0, 1, 5}); // racks 0 and 1: adds a rack on node 4
    Map<Integer, List<BlockCandidate>> offers = new HashMap<>();
    offers.put(0, Arrays.asList(x, y));
    boolean[] over = {true, false, false, false, false, false};
    boolean[] under = {false, false, true, false, true, false};
    RackSpread spread = new RackSpread(racks);
    MoveRules rules = new MoveRules(spread, MoveCheck.RACKS_ONLY, over, under);
    NodeLoads loads = new NodeLoads(c, new long[] {c.maxBytesToMove(0), 0, c.maxBytesToMove(2), 0, c.maxBytesToMove(4), 0});
    List<PlannedMove> keeping = Arrays.asList(rules.move(x, 0, 4), rules.move(y, 0, 2));
    for (PlannedMove m : keeping) {
      assertTrue(!m.addsRack(), m.toString());
      loads.add(m.source(), m.block().size());
      loads.add(m.target(), m.block().size());
    }
    List<PlannedMove> plan = new PlanRefinement(c, rules, loads, new int[] {2, 4}, offers, keeping)
        .refine(PlanRefinement.MAX_PASSES);
    assertEquals(2, plan.size(), plan.toString());
    assertTrue(plan.stream().allMatch(PlannedMove::addsRack), "both moves add a rack once they trade targets: " + plan);
    assertEquals(0, MovePlanner.bytesOutside(c, plan));
  }
}
