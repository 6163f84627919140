package org.bulwark.hdfs.placement.rescan;

import java.util.HashSet;
import java.util.Set;

import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.bulwark.hdfs.placement.rules.RackFill;

/**
 * How many racks and datacenters hold DataNodes in service: what Bulwark's policies size a block's required
 * spread by. Immutable.
 */
final class TopologyShape {
  final int racks;
  final int datacenters;

  TopologyShape(int racks, int datacenters) {
    this.racks = racks;
    this.datacenters = datacenters;
  }

  /** The shape of the NameNode's topology now (dead DataNodes are not in it; decommissioning ones not counted). */
  static TopologyShape of(NetworkTopology topology) {
    Set<String> racks = new HashSet<>();
    Set<String> datacenters = new HashSet<>();
    for (Node node : topology.getLeaves(NodeBase.ROOT)) {
      if (node instanceof DatanodeInfo && ((DatanodeInfo) node).isInService()) {
        racks.add(node.getNetworkLocation());
        datacenters.add(RackFill.datacenterOf(node.getNetworkLocation()));
      }
    }
    return new TopologyShape(racks.size(), datacenters.size());
  }

  /** Whether this shape has more racks or more datacenters than {@code other}. */
  boolean exceeds(TopologyShape other) {
    return racks > other.racks || datacenters > other.datacenters;
  }

  /** The smaller of the two in each dimension. */
  TopologyShape min(TopologyShape other) {
    return new TopologyShape(Math.min(racks, other.racks), Math.min(datacenters, other.datacenters));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TopologyShape && ((TopologyShape) o).racks == racks
        && ((TopologyShape) o).datacenters == datacenters;
  }

  @Override
  public int hashCode() {
    return 31 * racks + datacenters;
  }

  @Override
  public String toString() {
    return racks + " racks in " + datacenters + " datacenters";
  }
}
