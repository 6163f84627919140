package org.bulwark.hdfs.placement;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;

/**
 * Placement status of a block that must span some number of racks and of datacenters. Reported as
 * satisfied whenever the block spans as many of each as the in-service cluster allows, so the
 * NameNode never retries a reconstruction it cannot improve on.
 */
final class RackAndDatacenterStatus implements BlockPlacementStatus {
  private final int racks;
  private final int requiredRacks;
  private final int datacenters;
  private final int requiredDatacenters;

  RackAndDatacenterStatus(int racks, int requiredRacks, int datacenters, int requiredDatacenters) {
    this.racks = racks;
    this.requiredRacks = requiredRacks;
    this.datacenters = datacenters;
    this.requiredDatacenters = requiredDatacenters;
  }

  @Override
  public boolean isPlacementPolicySatisfied() {
    return racks >= requiredRacks && datacenters >= requiredDatacenters;
  }

  @Override
  public String getErrorDescription() {
    if (isPlacementPolicySatisfied()) {
      return null;
    }
    return "The block has " + racks + " racks and " + datacenters + " datacenters; at least " + requiredRacks
        + " racks in " + requiredDatacenters + " datacenters are required.";
  }

  @Override
  public int getAdditionalReplicasRequired() {
    return isPlacementPolicySatisfied() ? 0 : Math.max(1, Math.max(requiredRacks - racks, requiredDatacenters - datacenters));
  }
}
