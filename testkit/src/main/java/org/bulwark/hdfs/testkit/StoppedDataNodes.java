package org.bulwark.hdfs.testkit;

import java.util.List;

import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeID;

/**
 * DataNodes stopped together (a rack, a datacenter), with what is needed to bring each back as the
 * same node: {@link BulwarkMiniCluster#restart(StoppedDataNodes)}.
 *
 * @param nodes the DataNodes that were running and are now stopped
 */
public record StoppedDataNodes(List<Stopped> nodes) {
  /** One stopped DataNode: its handle, its identity at the NameNodes, and its MiniDFSCluster state. */
  public record Stopped(DataNodeHandle handle, DatanodeID id, DataNodeProperties properties) {
  }

  public StoppedDataNodes {
    nodes = List.copyOf(nodes);
  }

  public List<DataNodeHandle> handles() {
    return nodes.stream().map(Stopped::handle).toList();
  }

  public int size() {
    return nodes.size();
  }
}
