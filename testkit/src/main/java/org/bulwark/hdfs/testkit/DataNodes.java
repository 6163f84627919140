package org.bulwark.hdfs.testkit;

import java.util.List;

import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;

/**
 * The DataNodes of a {@link BulwarkMiniCluster} by {@link DataNodeHandle}: which belong to a rack or
 * datacenter, and which running DataNode a handle stands for. Tests name DataNodes by handle because
 * MiniDFSCluster's list of DataNodes changes order as they stop and restart.
 */
final class DataNodes {
  private final MiniDFSCluster cluster;
  private final TopologySpec topology;
  private final List<DataNodeHandle> handles;

  DataNodes(MiniDFSCluster cluster, TopologySpec topology, List<DataNodeHandle> handles) {
    this.cluster = cluster;
    this.topology = topology;
    this.handles = List.copyOf(handles);
  }

  List<DataNodeHandle> all() {
    return handles;
  }

  List<DataNodeHandle> inRack(String rack) {
    List<DataNodeHandle> out = handles.stream().filter(d -> d.rack().equals(rack)).toList();
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no rack " + rack + " in topology " + topology);
    }
    return out;
  }

  List<DataNodeHandle> inDatacenter(String datacenter) {
    List<DataNodeHandle> out = handles.stream().filter(d -> d.datacenter().equals(datacenter)).toList();
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no datacenter " + datacenter + " in topology " + topology);
    }
    return out;
  }

  /** Null when {@code handle}'s DataNode is stopped. */
  DataNode running(DataNodeHandle handle) {
    for (DataNode dn : cluster.getDataNodes()) {
      // The address is known from start-up on; the DatanodeID only once registered.
      if (dn.getXferAddress().getAddress().getHostAddress().equals(handle.ipAddress())) {
        return dn;
      }
    }
    return null;
  }
}
