package org.bulwark.hdfs.balancer.plan;

import java.util.List;
import java.util.Map;

/**
 * The exact optimum of one balancer iteration ({@link ExactBalanceReference}) for a layout read from a cluster, so
 * that a benchmark can hold a whole balancer run to it: the least bytes outside the threshold, then the fewest bytes,
 * then the most rack-adding moves, over the blocks {@code getBlocks} can return.
 */
public final class ExactOptimum {
  /** The optimum, in bytes and moves, and whether the solver proved it within its time. */
  public record Result(long outsideBytes, long bytes, int movesAddingRack, boolean proven) {}

  private ExactOptimum() {
  }

  /**
   * @param candidates per DataNode (its index in the arrays), the blocks the balancer may move from it
   * @param seconds the solver's time limit per stage
   */
  public static Result firstIteration(int[] rackOf, long[] capacity, long[] used, double threshold,
      long maxSizeToMove, Map<Integer, List<BlockCandidate>> candidates, double seconds) {
    ModelLayout layout = ModelLayout.observed(rackOf, capacity, used, "observed", threshold, maxSizeToMove);
    ExactBalanceReference.Optimum o = ExactBalanceReference.solve(layout, threshold, maxSizeToMove, candidates,
        MoveCheck.RACKS_ONLY, seconds);
    return new Result(Math.round(o.outsideMb() * ModelLayout.MB), Math.round(o.movedMb() * ModelLayout.MB),
        o.adding(), o.proven());
  }
}
