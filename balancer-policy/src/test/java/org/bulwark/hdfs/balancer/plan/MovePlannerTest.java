package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MovePlannerTest {
  private static final long MB = 1L << 20;

  /** Racks of 3/3/2/2 as in the seed; writers on a few nodes; default-policy layout. */
  private static SimulatedCluster seedLayout(long seed, int[] writers, int minBlocks) {
    SimulatedCluster cluster = new SimulatedCluster(new int[] {3, 3, 2, 2}, 16384 * MB, 8 * MB);
    Random random = new Random(seed);
    while (cluster.blocks() < minBlocks || cluster.stdDev() < 10) {
      cluster.writeFrom(writers[cluster.blocks() % writers.length], random);
    }
    return cluster;
  }

  @Test
  void prefersATargetOnANewRackOverAnEquallyNeedyOneOnTheBlocksRacks() {
    // racks: 0 -> {0,1}, 1 -> {2,3}, 2 -> {4}; nodes 3 and 4 both under-utilised
    int[] rackOf = {0, 0, 1, 1, 2};
    BlockCandidate b = new BlockCandidate(0, 7, 10 * MB, new int[] {0, 1, 2});
    Classification c = Classification.classify(5, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 900 * MB, 100 * MB, true),
        new NodeUsage(1, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(2, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(3, 1000 * MB, 100 * MB, 900 * MB, true),
        new NodeUsage(4, 1000 * MB, 100 * MB, 900 * MB, true)), 10, 1L << 40);
    assertEquals(UtilisationClass.UNDER_UTILISED, c.classOf(4));
    Plan plan = new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).balance(c, only(0, b));
    assertEquals(1, plan.moves().size());
    assertEquals(4, plan.moves().get(0).target());
    assertTrue(plan.moves().get(0).addsRack());
  }

  @Test
  void anAboveAverageSourceGivesOnlyToUnderUtilisedTargetsAsInTheStockPairing() {
    // racks: 0 -> {0,1}, 1 -> {2}, 2 -> {3}; average 50 %: node 0 above, node 3 below, none under
    int[] rackOf = {0, 0, 1, 2};
    BlockCandidate b = new BlockCandidate(0, 7, 10 * MB, new int[] {0, 1, 2});
    Classification c = Classification.classify(4, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 560 * MB, 440 * MB, true),
        new NodeUsage(1, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(2, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(3, 1000 * MB, 440 * MB, 560 * MB, true)), 10, 1L << 40);
    assertEquals(UtilisationClass.ABOVE_AVERAGE, c.classOf(0));
    assertEquals(UtilisationClass.BELOW_AVERAGE, c.classOf(3));
    assertTrue(new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).balance(c, only(0, b)).isEmpty());
  }

  @Test
  void aTargetWithRoomLeftTakesABlockBiggerThanThatRoomWhenNothingElseBalances() {
    // average 39.7 %: node 0 over-utilised (50 %); its block's other replica is on node 1, so node 2 is the
    // only target, with 6.7 MB to the average for a 10 MB block; the stock dispatcher moves it there
    int[] rackOf = {0, 1, 2};
    BlockCandidate b = new BlockCandidate(0, 7, 10 * MB, new int[] {0, 1});
    Classification c = Classification.classify(3, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(1, 1000 * MB, 300 * MB, 700 * MB, true),
        new NodeUsage(2, 1000 * MB, 390 * MB, 610 * MB, true)), 10, 1L << 40);
    assertEquals(UtilisationClass.OVER_UTILISED, c.classOf(0));
    assertTrue(c.maxBytesToMove(2) > 0 && c.maxBytesToMove(2) < b.size(), String.valueOf(c.maxBytesToMove(2)));
    Plan plan = new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).balance(c, only(0, b));
    assertEquals(1, plan.moves().size(), plan.moves().toString());
    assertEquals(2, plan.moves().get(0).target());
  }

  @Test
  void neverLowersTheRackCount() {
    // the source holds the block's lone replica on rack 0; the only target shares rack 1 with another
    int[] rackOf = {0, 1, 1, 2};
    BlockCandidate b = new BlockCandidate(0, 1, 10 * MB, new int[] {0, 1, 3});
    Classification c = Classification.classify(4, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 900 * MB, 100 * MB, true),
        new NodeUsage(1, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(2, 1000 * MB, 100 * MB, 900 * MB, true),
        new NodeUsage(3, 1000 * MB, 500 * MB, 500 * MB, true)), 10, 1L << 40);
    Plan plan = new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).balance(c, only(0, b));
    assertTrue(plan.isEmpty(), plan.moves().toString());
  }

  @Test
  void theNameNodesPolicyCanVetoAMove() {
    int[] rackOf = {0, 0, 1, 2};
    BlockCandidate b = new BlockCandidate(0, 7, 10 * MB, new int[] {0, 1, 2});
    Classification c = Classification.classify(4, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 900 * MB, 100 * MB, true),
        new NodeUsage(1, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(2, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(3, 1000 * MB, 100 * MB, 900 * MB, true)), 10, 1L << 40);
    MoveCheck refuseNode3 = (block, source, target) -> target != 3;
    assertTrue(new MovePlanner(rackOf, refuseNode3).balance(c, only(0, b)).isEmpty());
  }

  @Test
  void rackKeepingMovesGoOnlyAsFarAsBalanceNeeds() {
    // node 0 (rack 0) holds only lone-rack replicas: nothing it gives can add a rack
    int[] rackOf = {0, 1, 1, 2, 2};
    List<BlockCandidate> blocks = new java.util.ArrayList<>();
    for (int i = 0; i < 60; i++) {
      blocks.add(new BlockCandidate(0, i, 10 * MB, new int[] {0, 1, 2}));
    }
    Classification c = Classification.classify(5, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 800 * MB, 200 * MB, true),
        new NodeUsage(1, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(2, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(3, 1000 * MB, 400 * MB, 600 * MB, true),
        new NodeUsage(4, 1000 * MB, 400 * MB, 600 * MB, true)), 10, 1L << 40);
    Plan plan = new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).balance(c, only(0, blocks));
    // average 52 %: node 0 must get inside 52 + 10 % -> 180 MB; the stock policy would move 280 MB
    long must = c.bytesOutside(0, 10);
    assertTrue(plan.bytes() >= must && plan.bytes() < must + 10 * MB, plan.bytes() + " vs " + must);
    assertEquals(0, plan.movesAddingRack());
  }

  @Test
  void onTheSeedLayoutEveryMoveAddsARackAndOneIterationBalances() {
    // one writer per rack, as map tasks spread over racks: writers hold lone replicas, but also
    // doubled-rack replicas of the others' blocks, enough to shed their excess by adding racks
    SimulatedCluster cluster = seedLayout(1, new int[] {0, 3, 6, 8}, 1000);
    assertTrue(cluster.stdDev() > 10, "layout std-dev " + cluster.stdDev());
    Classification c = cluster.classify(10);
    Plan plan = new MovePlanner(cluster.rackOf, MoveCheck.RACKS_ONLY)
        .balance(c, cluster.candidates(c, 2, new Random(2)));
    assertFalse(plan.isEmpty());
    int[] before = cluster.blocksByRackCount();
    cluster.apply(plan);
    assertEquals(0, cluster.classify(10).bytesLeftToMove(), "balanced after one iteration");
    assertTrue(cluster.maxDeviation() <= 10);
    int[] after = cluster.blocksByRackCount();
    assertEquals(before[3] + plan.movesAddingRack(), after[3]);
    assertTrue(plan.movesAddingRack() >= 0.95 * plan.moves().size(),
        plan.movesAddingRack() + " of " + plan.moves().size());
  }

  @Test
  void sourcesGiveAtMostHalfTheThresholdBeyondTheStockAmountAndTargetsNoMoreThanIt() {
    for (long seed = 0; seed < 20; seed++) {
      SimulatedCluster cluster = seedLayout(seed, new int[] {0, 1, 3}, 900);
      Classification c = cluster.classify(10);
      Plan plan = new MovePlanner(cluster.rackOf, MoveCheck.RACKS_ONLY)
          .balance(c, cluster.candidates(c, 2, new Random(seed)));
      long[] given = new long[cluster.nodes()];
      long[] taken = new long[cluster.nodes()];
      RackSpread spread = new RackSpread(cluster.rackOf);
      for (PlannedMove m : plan.moves()) {
        given[m.source()] += m.block().size();
        taken[m.target()] += m.block().size();
        assertTrue(spread.delta(m.block().holders(), m.source(), m.target()) >= 0);
        assertTrue(c.classOf(m.source()).isSource() && c.classOf(m.target()).isTarget());
      }
      for (int i = 0; i < cluster.nodes(); i++) {
        // down to the average, and for rack-adding moves into short targets half the threshold more
        long allowance = c.maxBytesToMove(i) + Classification.percentToBytes(5, c.capacity(i));
        assertTrue(given[i] <= allowance || given[i] == 0, "node " + i + " gives " + given[i]);
        assertTrue(taken[i] <= c.maxBytesToMove(i) || taken[i] == 0, "node " + i + " takes " + taken[i]);
      }
      cluster.apply(plan);
      assertEquals(0, cluster.classify(10).bytesLeftToMove(), "seed " + seed);
    }
  }

  @Test
  void spreadingAddsRacksWithoutLeavingTheBand() {
    SimulatedCluster cluster = seedLayout(3, new int[] {0, 3, 6, 8}, 1000);
    Classification skewed = cluster.classify(10);
    cluster.apply(new MovePlanner(cluster.rackOf, MoveCheck.RACKS_ONLY)
        .balance(skewed, cluster.candidates(skewed, 2, new Random(3))));
    Classification c = cluster.classify(10);
    assertEquals(0, c.bytesLeftToMove(), "balanced before spreading");
    long budget = 400 * MB;
    Plan plan = new MovePlanner(cluster.rackOf, MoveCheck.RACKS_ONLY)
        .spread(c, cluster.candidates(c, 1000, new Random(3)), budget);
    assertFalse(plan.isEmpty());
    assertEquals(plan.moves().size(), plan.movesAddingRack());
    assertTrue(plan.bytes() <= budget);
    cluster.apply(plan);
    Classification after = cluster.classify(10);
    for (int i = 0; i < cluster.nodes(); i++) {
      double before = c.utilisation(i) - c.average();
      double now = after.utilisation(i) - after.average();
      assertTrue(Math.abs(now) <= Math.max(5, Math.abs(before)) + 1e-9, "node " + i + ": " + now);
    }
  }

  /**
   * The least bytes come before rack-adding moves, and no source goes below the average (the stock rule): node 1's
   * rack-adding blocks (30 MB each) are bigger than the 20 MB it may give down to the average, so the one block the
   * under-utilised node 2 needs comes from the fuller node 0, keeping the rack count.
   */
  @Test
  void theLeastBytesComeBeforeRackAddingMoves() {
    // node 0's 10 MB block keeps the rack count, node 1's 30 MB blocks add a rack; node 2 needs 10 MB
    Plan plan = new MovePlanner(CROSSING_RACKS, MoveCheck.RACKS_ONLY).balance(crossingLayout(), crossingCandidates(10));
    assertEquals(1, plan.moves().size(), plan.moves().toString());
    assertEquals(0, plan.moves().get(0).source(), plan.moves().toString());
    assertEquals(2, plan.moves().get(0).target(), plan.moves().toString());
    assertEquals(0, plan.movesAddingRack(), plan.moves().toString());
  }

  @Test
  void aSourcesLastBlockMayCrossTheAverageAsTheStockDispatcherLetsIt() {
    // node 1 may give 20 MB down to the average; its 30 MB block crosses it (to 1 point below) and adds a rack,
    // for the same bytes as node 0's rack-keeping 30 MB block
    Plan plan = new MovePlanner(CROSSING_RACKS, MoveCheck.RACKS_ONLY).balance(crossingLayout(), crossingCandidates(30));
    assertEquals(1, plan.moves().size(), plan.moves().toString());
    assertEquals(1, plan.moves().get(0).source(), plan.moves().toString());
    assertEquals(2, plan.moves().get(0).target(), plan.moves().toString());
    assertEquals(1, plan.movesAddingRack(), plan.moves().toString());
  }

  // racks: 0 -> {0,3}, 1 -> {1,4}, 2 -> {2}, 3 -> {5}; average 50 %
  private static final int[] CROSSING_RACKS = {0, 1, 2, 0, 1, 3};

  private static Classification crossingLayout() {
    Classification c = Classification.classify(6, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 580 * MB, 420 * MB, true),
        new NodeUsage(1, 1000 * MB, 520 * MB, 480 * MB, true),
        new NodeUsage(2, 1000 * MB, 390 * MB, 610 * MB, true),
        new NodeUsage(3, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(4, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(5, 1000 * MB, 510 * MB, 490 * MB, true)), 10, 1L << 40);
    assertEquals(UtilisationClass.ABOVE_AVERAGE, c.classOf(0));
    assertEquals(UtilisationClass.ABOVE_AVERAGE, c.classOf(1));
    assertEquals(UtilisationClass.UNDER_UTILISED, c.classOf(2));
    return c;
  }

  private static Map<Integer, List<BlockCandidate>> crossingCandidates(long nodeZeroBlockMb) {
    Map<Integer, List<BlockCandidate>> candidates = new HashMap<>();
    // node 0 holds the only replica on rack 0: moving it can only keep the rack count
    candidates.put(0, Arrays.asList(new BlockCandidate(0, 1, nodeZeroBlockMb * MB, new int[] {0, 4, 5}),
        new BlockCandidate(0, 2, nodeZeroBlockMb * MB, new int[] {0, 4, 5})));
    // node 1 shares rack 1 with node 4: moving its replica to rack 2 would add a rack
    candidates.put(1, Arrays.asList(new BlockCandidate(0, 3, 30 * MB, new int[] {1, 4, 3}),
        new BlockCandidate(0, 4, 30 * MB, new int[] {1, 4, 3})));
    return candidates;
  }

  @Test
  void whereNoMoveCanAddARackNoneIsCountedAsPossible() {
    // two racks, every block on both: balancing can only keep the rack count
    int[] rackOf = {0, 0, 1, 1};
    Classification c = Classification.classify(4, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 900 * MB, 100 * MB, true),
        new NodeUsage(1, 1000 * MB, 100 * MB, 900 * MB, true),
        new NodeUsage(2, 1000 * MB, 500 * MB, 500 * MB, true),
        new NodeUsage(3, 1000 * MB, 500 * MB, 500 * MB, true)), 10, 1L << 40);
    List<BlockCandidate> blocks = Arrays.asList(new BlockCandidate(0, 1, 10 * MB, new int[] {0, 2}),
        new BlockCandidate(0, 2, 10 * MB, new int[] {0, 3}));
    Plan plan = new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).balance(c, only(0, blocks));
    assertEquals(2, plan.moves().size(), plan.moves().toString());
    assertEquals(0, plan.movesAddingRack());
    assertEquals(0, plan.movesAddingRackPossible());
  }

  private static Map<Integer, List<BlockCandidate>> only(int source, BlockCandidate b) {
    return only(source, Collections.singletonList(b));
  }

  private static Map<Integer, List<BlockCandidate>> only(int source, List<BlockCandidate> blocks) {
    Map<Integer, List<BlockCandidate>> m = new HashMap<>();
    m.put(source, blocks);
    return m;
  }
}
