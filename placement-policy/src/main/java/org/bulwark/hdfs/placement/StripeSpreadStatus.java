package org.bulwark.hdfs.placement;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.bulwark.hdfs.placement.rules.StripeSpreadRules;

/**
 * Placement status of an erasure-coded block group spread over datacenters. Its additional count is the
 * number of cells that must still land elsewhere ({@link StripeSpreadRules#cellsToMove}): Hadoop's
 * {@code BlockManager} keeps a repair's targets only if they lower that count (or satisfy the policy), so it
 * must drop with every copy that brings the group closer to its spread. (Counting the most crowded
 * datacenter's excess did not: a copy added elsewhere never lowers it, and every repair was thrown away.)
 */
final class StripeSpreadStatus implements BlockPlacementStatus {
  private final int mostInOneDatacenter;
  private final int allowed;
  private final int cellsToMove;

  StripeSpreadStatus(int mostInOneDatacenter, int allowed, int cellsToMove) {
    this.mostInOneDatacenter = mostInOneDatacenter;
    this.allowed = allowed;
    this.cellsToMove = cellsToMove;
  }

  @Override
  public boolean isPlacementPolicySatisfied() {
    return cellsToMove == 0;
  }

  @Override
  public String getErrorDescription() {
    if (isPlacementPolicySatisfied()) {
      return null;
    }
    return "The block group has " + mostInOneDatacenter + " cells in one datacenter (at most " + allowed
        + " needed) or cells sharing a rack in a datacenter with racks to spare: " + cellsToMove
        + " must move to other datacenters or racks.";
  }

  @Override
  public int getAdditionalReplicasRequired() {
    return cellsToMove;
  }
}
