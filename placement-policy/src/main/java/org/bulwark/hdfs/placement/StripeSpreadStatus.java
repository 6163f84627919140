package org.bulwark.hdfs.placement;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;

/**
 * Placement status of an erasure-coded block group spread over datacenters: its most crowded
 * datacenter against the fewest cells the cluster forces into one, and the cells sharing a rack inside
 * a datacenter that has racks to spare.
 */
final class StripeSpreadStatus implements BlockPlacementStatus {
  private final int mostInOneDatacenter;
  private final int allowed;
  private final int crowdedRacks;

  StripeSpreadStatus(int mostInOneDatacenter, int allowed, int crowdedRacks) {
    this.mostInOneDatacenter = mostInOneDatacenter;
    this.allowed = allowed;
    this.crowdedRacks = crowdedRacks;
  }

  @Override
  public boolean isPlacementPolicySatisfied() {
    return mostInOneDatacenter <= allowed && crowdedRacks == 0;
  }

  @Override
  public String getErrorDescription() {
    if (isPlacementPolicySatisfied()) {
      return null;
    }
    return "The block group has " + mostInOneDatacenter + " cells in one datacenter (at most " + allowed
        + " needed) and " + crowdedRacks + " cells sharing a rack in a datacenter with racks to spare.";
  }

  @Override
  public int getAdditionalReplicasRequired() {
    return isPlacementPolicySatisfied() ? 0 : Math.max(1, Math.max(mostInOneDatacenter - allowed, crowdedRacks));
  }
}
