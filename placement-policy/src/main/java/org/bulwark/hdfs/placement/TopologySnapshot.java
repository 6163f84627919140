package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.bulwark.hdfs.placement.rules.RackFill;

/**
 * The in-service DataNodes of the NameNode's topology grouped by rack, with their fill and mean load, as
 * of one moment. Lets a policy try the nodes of a chosen rack directly instead of searching the
 * topology tree for each replica. Only DataNodes in service count: a rack whose nodes are all
 * decommissioning or in maintenance cannot take new replicas.
 */
final class TopologySnapshot {
  private static final DatanodeDescriptor[] NONE = new DatanodeDescriptor[0];

  final RackFill fill;
  private final Map<String, DatanodeDescriptor[]> nodesByRack;
  /** Mean transfer-thread count of the in-service DataNodes, as the default policy's load check uses. */
  final double meanXceivers;
  /** Which racks and datacenters offer each storage type. */
  final StorageTypePlaces storage;

  private TopologySnapshot(RackFill fill, Map<String, DatanodeDescriptor[]> nodesByRack, double meanXceivers,
      StorageTypePlaces storage) {
    this.fill = fill;
    this.nodesByRack = nodesByRack;
    this.meanXceivers = meanXceivers;
    this.storage = storage;
  }

  static TopologySnapshot of(NetworkTopology topology) {
    RackFill.Builder fill = RackFill.builder();
    StorageTypePlaces.Builder storage = StorageTypePlaces.builder();
    Map<String, List<DatanodeDescriptor>> byRack = new HashMap<>();
    long xceivers = 0;
    int inService = 0;
    for (Node node : topology.getLeaves(NodeBase.ROOT)) {
      if (!(node instanceof DatanodeInfo)) {
        continue;
      }
      DatanodeInfo dn = (DatanodeInfo) node;
      if (!dn.isInService()) {
        continue;
      }
      long capacity = dn.getCapacity();
      fill.add(dn.getNetworkLocation(), capacity - dn.getRemaining(), capacity);
      xceivers += dn.getXceiverCount();
      inService++;
      if (dn instanceof DatanodeDescriptor) {
        byRack.computeIfAbsent(dn.getNetworkLocation(), r -> new ArrayList<>()).add((DatanodeDescriptor) dn);
        storage.add(dn.getNetworkLocation(), ((DatanodeDescriptor) dn).getStorageTypes());
      }
    }
    Map<String, DatanodeDescriptor[]> nodes = new HashMap<>();
    byRack.forEach((rack, list) -> nodes.put(rack, list.toArray(NONE)));
    RackFill built = fill.build();
    return new TopologySnapshot(built, nodes, inService == 0 ? 0 : (double) xceivers / inService, storage.build(built));
  }

  /** The in-service DataNodes of {@code rack} at the snapshot (empty for an unknown rack). */
  DatanodeDescriptor[] nodesIn(String rack) {
    DatanodeDescriptor[] n = nodesByRack.get(rack);
    return n == null ? NONE : n;
  }

  /** The in-service DataNodes of each datacenter at the snapshot. */
  Map<String, Integer> nodesPerDatacenter() {
    Map<String, Integer> out = new HashMap<>();
    for (String dc : fill.datacenters()) {
      int n = 0;
      for (String rack : fill.racksIn(dc)) {
        n += nodesIn(rack).length;
      }
      out.put(dc, n);
    }
    return out;
  }
}
