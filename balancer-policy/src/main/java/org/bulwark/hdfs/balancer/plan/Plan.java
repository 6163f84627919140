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

  Plan(List<PlannedMove> moves, Set<PlannedMove> addingRackPossible) {
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
   * Of these moves, how many could have added a rack: those whose target's rack some candidate block could
   * be moved onto from a rack that holds it twice (a rack-adding move into that target existed). The
   * share {@code movesAddingRack / moves} is judged against {@code movesAddingRackPossible / moves}.
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
