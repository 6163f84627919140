package org.bulwark.hdfs.balancer.plan;

/**
 * Asks the NameNode's block placement policy whether it would accept a move
 * ({@code BlockPlacementPolicy#isMovable}), so that the plan never holds a move the NameNode
 * would undo. The planner never proposes a move that lowers the rack count, whatever this says.
 */
public interface MoveCheck {
  /** Accepts every move that does not lower the rack count. */
  MoveCheck RACKS_ONLY = (block, source, target) -> true;

  boolean isMovable(BlockCandidate block, int source, int target);
}
