package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * The racks of a block's replicas as {@code isMovable} is asked about them. Hadoop's balancer and mover
 * ({@code Dispatcher}) pass the replica locations <em>plus the move's target</em>, the convention
 * {@code BlockPlacementPolicyDefault} is written for; our spread rules want the replicas before the
 * move, so the target is left out once. Counted with it, a replica alone on its rack could move only
 * within that rack, and on a cluster where every block spans as many racks as it has replicas the
 * balancer found nothing it may move.
 */
final class ReplicaRacks {
  private ReplicaRacks() {
  }

  /** The network locations of {@code locs} without one occurrence of {@code target}. */
  static List<String> beforeMove(Collection<DatanodeInfo> locs, DatanodeInfo target) {
    List<String> racks = new ArrayList<>(locs.size());
    boolean targetSkipped = false;
    for (DatanodeInfo dn : locs) {
      if (!targetSkipped && dn.equals(target)) {
        targetSkipped = true;
        continue;
      }
      racks.add(dn.getNetworkLocation());
    }
    return racks;
  }
}
