package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.fs.StorageType;

import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-service DataNodes of the NameNode's topology grouped by rack, with their fill and mean load, as
 * of one moment. Lets a policy try the nodes of a chosen rack directly instead of searching the
 * topology tree for each replica. Only DataNodes in service count: a rack whose nodes are all
 * decommissioning or in maintenance cannot take new replicas.
 */
final class TopologySnapshot {
  private static final Logger LOG = LoggerFactory.getLogger(TopologySnapshot.class);
  private static final DatanodeDescriptor[] NONE = new DatanodeDescriptor[0];
  private static final int LEAF_WALK_ATTEMPTS = 5;

  final RackFill fill;
  private final Map<String, DatanodeDescriptor[]> nodesByRack;
  /** Mean transfer-thread count of the in-service DataNodes, as the default policy's load check uses. */
  final double meanXceivers;
  /** Which racks and datacenters offer each storage type. */
  final StorageTypePlaces storage;
  private final Map<Set<StorageType>, Map<String, int[]>> offeringByTypes = new ConcurrentHashMap<>();
  /** The key of {@link #offering} for any DataNode (an empty set of types is looked up as this one). */
  private static final Set<StorageType> ANY_TYPE = Collections.unmodifiableSet(EnumSet.noneOf(StorageType.class));

  private TopologySnapshot(RackFill fill, Map<String, DatanodeDescriptor[]> nodesByRack, double meanXceivers,
      StorageTypePlaces storage) {
    this.fill = fill;
    this.nodesByRack = nodesByRack;
    this.meanXceivers = meanXceivers;
    this.storage = storage;
  }

  /**
   * Every leaf of the topology. Hadoop's {@code getLeaves} takes the topology's lock only to find the
   * scope and walks the tree without it, so a DataNode registered or removed meanwhile can make it throw
   * (an index past a rack's shrunk child list). A placement must not fail a write over that: the walk is
   * tried again.
   */
  static List<Node> leaves(NetworkTopology topology) {
    for (int attempt = 1;; attempt++) {
      try {
        return topology.getLeaves(NodeBase.ROOT);
      } catch (RuntimeException e) {
        if (attempt >= LEAF_WALK_ATTEMPTS) {
          throw e;
        }
        LOG.debug("Topology changed during its walk (attempt {} of {}); walking it again", attempt, LEAF_WALK_ATTEMPTS, e);
      }
    }
  }

  static TopologySnapshot of(NetworkTopology topology) {
    RackFill.Builder fill = RackFill.builder();
    StorageTypePlaces.Builder storage = StorageTypePlaces.builder();
    Map<String, List<DatanodeDescriptor>> byRack = new HashMap<>();
    long xceivers = 0;
    int inService = 0;
    // A walk racing a change can list a DataNode twice: each counts once.
    Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<Node, Boolean>());
    for (Node node : leaves(topology)) {
      if (!(node instanceof DatanodeInfo) || !seen.add(node)) {
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
        storage.add((DatanodeDescriptor) dn);
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

  /**
   * Per datacenter (every one listed), how many of its in-service DataNodes, and of its racks, offer one
   * of {@code types} ({nodes, racks}); {@code null} types: any DataNode. Kept per type set for the
   * snapshot's life: a block group confined to a storage type is checked against the places it could be
   * at a map lookup's cost.
   */
  Map<String, int[]> offering(Set<StorageType> types) {
    // An empty set (equal to the any-type key, which is told apart by identity) means any DataNode as well.
    return offeringByTypes.computeIfAbsent(types == null || types.isEmpty() ? ANY_TYPE : types, t -> {
      Map<String, int[]> out = new HashMap<>();
      for (String dc : fill.datacenters()) {
        int[] nodesAndRacks = new int[2];
        for (String rack : fill.racksIn(dc)) {
          int n = 0;
          for (DatanodeDescriptor d : nodesIn(rack)) {
            Set<StorageType> own = t == ANY_TYPE ? null : storage.typesOf(d);
            if (own == null || !Collections.disjoint(own, t)) {
              n++;
            }
          }
          nodesAndRacks[0] += n;
          nodesAndRacks[1] += n > 0 ? 1 : 0;
        }
        out.put(dc, nodesAndRacks);
      }
      return out;
    });
  }

  /** The in-service DataNodes of each datacenter at the snapshot. */
  Map<String, Integer> nodesPerDatacenter() {
    Map<String, Integer> out = new HashMap<>();
    offering(null).forEach((dc, nodesAndRacks) -> out.put(dc, nodesAndRacks[0]));
    return out;
  }
}
