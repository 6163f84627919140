package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code dfs.balancer.max-size-to-move} bounds what each DataNode gives and takes in one iteration, as in the stock
 * balancer: also when sources may go below the average for rack-adding moves, and under {@code -spreadRacks}.
 */
class MaxSizeToMoveTest {
  private static final long MB = 1L << 20;

  private static Map<Integer, Long> given(Plan plan) {
    Map<Integer, Long> out = new HashMap<>();
    for (PlannedMove m : plan.moves()) {
      out.merge(m.source(), m.block().size(), Long::sum);
    }
    return out;
  }

  private static Map<Integer, Long> taken(Plan plan) {
    Map<Integer, Long> out = new HashMap<>();
    for (PlannedMove m : plan.moves()) {
      out.merge(m.target(), m.block().size(), Long::sum);
    }
    return out;
  }

  /** Blocks with replicas on nodes 0 and 1 (one rack): what getBlocks returns for {@code source}, 2x its budget. */
  private static List<BlockCandidate> blocks(long firstId, int count, long size) {
    List<BlockCandidate> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new BlockCandidate(0, firstId + i, size, new int[] {0, 1}));
    }
    return out;
  }

  @Test
  void balanceKeepsEachSourceWithinMaxSizeToMove() {
    long maxSizeToMove = 100 * MB;
    // rack 0: nodes 0 (90 %) and 1 (30 %); racks 1-4: one empty node each. Average 20 %.
    int[] rackOf = {0, 0, 1, 2, 3, 4};
    Classification c = Classification.classify(6, Arrays.asList(
        new NodeUsage(0, 10000 * MB, 9000 * MB, 1000 * MB, true),
        new NodeUsage(1, 10000 * MB, 3000 * MB, 7000 * MB, true),
        new NodeUsage(2, 10000 * MB, 0, 10000 * MB, true),
        new NodeUsage(3, 10000 * MB, 0, 10000 * MB, true),
        new NodeUsage(4, 10000 * MB, 0, 10000 * MB, true),
        new NodeUsage(5, 10000 * MB, 0, 10000 * MB, true)), 10, maxSizeToMove);
    assertTrue(c.maxBytesToMove(0) == maxSizeToMove);
    Map<Integer, List<BlockCandidate>> fetched = new HashMap<>();
    // the fetcher asks for FETCH_FACTOR (2) x maxBytesToMove
    fetched.put(0, blocks(1, 20, 10 * MB));
    Plan plan = new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).balance(c, fetched);
    long fromZero = given(plan).getOrDefault(0, 0L);
    assertTrue(fromZero <= maxSizeToMove,
        "node 0 gives " + fromZero / MB + " MB in one iteration, dfs.balancer.max-size-to-move is "
            + maxSizeToMove / MB + " MB: " + plan.moves());
  }

  @Test
  void spreadRacksKeepsEachNodeWithinMaxSizeToMove() {
    long maxSizeToMove = 100 * MB;
    // a balanced cluster, every node at 50 %: rack 0 holds nodes 0 and 1, rack 1 node 2, rack 2 node 3
    int[] rackOf = {0, 0, 1, 2};
    Classification c = Classification.classify(4, Arrays.asList(
        new NodeUsage(0, 10000 * MB, 5000 * MB, 5000 * MB, true),
        new NodeUsage(1, 10000 * MB, 5000 * MB, 5000 * MB, true),
        new NodeUsage(2, 10000 * MB, 5000 * MB, 5000 * MB, true),
        new NodeUsage(3, 10000 * MB, 5000 * MB, 5000 * MB, true)), 10, maxSizeToMove);
    assertTrue(c.bytesLeftToMove() == 0);
    Map<Integer, List<BlockCandidate>> fetched = new HashMap<>();
    // spreadFetchBytes: min(canGive, maxSizeToMove) = 100 MB, fetched 2x
    fetched.put(0, blocks(1, 20, 10 * MB));
    fetched.put(1, blocks(101, 20, 10 * MB));
    Plan plan = new MovePlanner(rackOf, MoveCheck.RACKS_ONLY).spread(c, fetched, Long.MAX_VALUE);
    Map<Integer, Long> in = taken(plan);
    Map<Integer, Long> out = given(plan);
    for (int n = 0; n < 4; n++) {
      assertTrue(in.getOrDefault(n, 0L) <= maxSizeToMove && out.getOrDefault(n, 0L) <= maxSizeToMove,
          "node " + n + " takes " + in.getOrDefault(n, 0L) / MB + " MB and gives " + out.getOrDefault(n, 0L) / MB
              + " MB in one -spreadRacks iteration; dfs.balancer.max-size-to-move is " + maxSizeToMove / MB + " MB");
    }
  }
}
