package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A NameNode's view of a cluster without the cluster: DataNode descriptors with one storage each in a
 * {@link DFSNetworkTopology}, as the NameNode builds them from registrations and heartbeats, so a
 * placement policy can be driven at thousands of nodes in one JVM.
 */
final class SimulatedTopology {
  final DFSNetworkTopology topology;
  final List<DatanodeDescriptor> nodes = new ArrayList<>();

  SimulatedTopology(Configuration conf) {
    this.topology = DFSNetworkTopology.getInstance(conf);
  }

  /** Adds {@code count} DataNodes of {@code capacity} bytes, {@code used} of them used, to {@code rack}. */
  SimulatedTopology addRack(String rack, int count, long capacity, long used) {
    return addRack(rack, count, capacity, used, StorageType.DEFAULT);
  }

  /** Adds {@code count} DataNodes whose one storage is of {@code type}. */
  SimulatedTopology addRack(String rack, int count, long capacity, long used, StorageType type) {
    for (int i = 0; i < count; i++) {
      int n = nodes.size();
      String ip = "10." + (n >> 16 & 255) + "." + (n >> 8 & 255) + "." + (n & 255);
      DatanodeDescriptor d = DFSTestUtil.createDatanodeStorageInfo("s" + n, ip, rack, "h" + n, type, null)
          .getDatanodeDescriptor();
      nodes.add(d);
      setUsed(n, capacity, used);
      topology.add(d);
    }
    return this;
  }

  /** Sets DataNode {@code i}'s capacity and use, as its heartbeat would report them. */
  void setUsed(int i, long capacity, long used) {
    DatanodeDescriptor d = nodes.get(i);
    // The descriptor's own storage, the one placement checks for space.
    d.getStorageInfos()[0].setUtilizationForTesting(capacity, used, capacity - used, used);
    d.setCapacity(capacity);
    d.setDfsUsed(used);
    d.setRemaining(capacity - used);
    d.setBlockPoolUsed(used);
  }

  /** The DataNodes of {@code rack}, in the order added. */
  List<DatanodeDescriptor> inRack(String rack) {
    List<DatanodeDescriptor> out = new ArrayList<>();
    for (DatanodeDescriptor d : nodes) {
      if (d.getNetworkLocation().equals(rack)) {
        out.add(d);
      }
    }
    return out;
  }

  /** A policy as the NameNode makes one (configuration first, then the topology; no cluster stats). */
  <P extends BlockPlacementPolicyDefault> P policy(Class<P> type, Configuration conf) {
    P policy = ReflectionUtils.newInstance(type, conf);
    policy.initialize(conf, null, topology, null);
    return policy;
  }
}
