package org.bulwark.hdfs.placement;

import java.util.List;

import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.Time;
import org.bulwark.hdfs.placement.rules.RackFill;

/**
 * Keeps a {@link RackFill} of the NameNode's topology no older than the refresh interval, so that a
 * placement decision costs a map lookup, not a walk over every DataNode. Only DataNodes in service
 * count: a rack whose nodes are all decommissioning or in maintenance cannot take new replicas.
 */
final class RackFillTracker {
  private final long refreshMillis;
  private volatile RackFill current;
  private volatile long takenAt;

  RackFillTracker(long refreshMillis) {
    this.refreshMillis = refreshMillis;
  }

  RackFill get(NetworkTopology topology) {
    RackFill fill = current;
    long now = Time.monotonicNow();
    if (fill == null || now - takenAt >= refreshMillis) {
      synchronized (this) {
        if (current == null || now - takenAt >= refreshMillis) {
          current = snapshot(topology);
          takenAt = now;
        }
        fill = current;
      }
    }
    return fill;
  }

  static RackFill snapshot(NetworkTopology topology) {
    RackFill.Builder b = RackFill.builder();
    List<Node> leaves = topology.getLeaves(NodeBase.ROOT);
    for (Node node : leaves) {
      if (!(node instanceof DatanodeInfo)) {
        continue;
      }
      DatanodeInfo dn = (DatanodeInfo) node;
      if (dn.isDecommissionInProgress() || dn.isDecommissioned() || dn.isInMaintenance() || dn.isEnteringMaintenance()) {
        continue;
      }
      long capacity = dn.getCapacity();
      b.add(dn.getNetworkLocation(), capacity - dn.getRemaining(), capacity);
    }
    return b.build();
  }
}
