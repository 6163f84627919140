package org.bulwark.hdfs.balancer.plan;

import java.util.Collections;
import java.util.List;

/** The moves of one iteration, rack-adding ones first. */
public final class Plan {
  private final List<PlannedMove> moves;
  private final long bytes;
  private final int addingRack;

  Plan(List<PlannedMove> moves) {
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

  public boolean isEmpty() {
    return moves.isEmpty();
  }
}
