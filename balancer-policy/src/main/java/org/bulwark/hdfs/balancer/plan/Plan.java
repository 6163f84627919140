package org.bulwark.hdfs.balancer.plan;

import java.util.Collections;
import java.util.List;
import java.util.Set;

/** The moves of one iteration, rack-adding ones first. */
public final class Plan {
  private final List<PlannedMove> moves;
  private final long bytes;
  private final int addingRack;
  private final Set<PlannedMove> addingRackPossible;
  private final long leastBytes;

  Plan(List<PlannedMove> moves, Set<PlannedMove> addingRackPossible) {
    this(moves, addingRackPossible, -1);
  }

  /** @param leastBytes the optimiser's least bytes that balance, -1 where it did not plan */
  Plan(List<PlannedMove> moves, Set<PlannedMove> addingRackPossible, long leastBytes) {
    this.moves = Collections.unmodifiableList(moves);
    long b = 0;
    int adding = 0;
    for (PlannedMove m : moves) {
      b += m.block().size();
      if (m.addsRack()) {
        adding++;
      }
    }
    this.bytes = b;
    this.addingRack = adding;
    this.addingRackPossible = addingRackPossible;
    this.leastBytes = leastBytes;
  }

  /**
   * The least bytes that bring every node inside the threshold, as the optimiser found them ({@link BalanceFlow}),
   * or -1 where the optimiser did not plan this iteration or its plan left a node outside.
   */
  public long leastBytes() {
    return leastBytes;
  }

  public List<PlannedMove> moves() {
    return moves;
  }

  public long bytes() {
    return bytes;
  }

  public int movesAddingRack() {
    return addingRack;
  }

  /**
   * The most rack-adding moves a plan of the least bytes could make: the optimiser's optimum where it planned the
   * iteration ({@link BalanceFlow}); otherwise, of these moves, those whose target's rack some candidate block could be
   * moved onto from a rack that holds it twice.
   */
  public int movesAddingRackPossible() {
    return addingRackPossible.size();
  }

  /** Whether a rack-adding move into this move's target existed (see {@link #movesAddingRackPossible()}). */
  public boolean couldAddRack(PlannedMove m) {
    return addingRackPossible.contains(m);
  }

  public boolean isEmpty() {
    return moves.isEmpty();
  }
}
