package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeAdminManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;

/**
 * Decommission and maintenance of DataNodes of a {@link BulwarkMiniCluster}, set and read at the
 * NameNodes directly. Exists so tests can change admin states without the include/exclude host files
 * an operator would edit.
 */
final class AdminStates {
  private final DataNodes dataNodes;
  private final NameNodes nameNodes;

  AdminStates(DataNodes dataNodes, NameNodes nameNodes) {
    this.dataNodes = dataNodes;
    this.nameNodes = nameNodes;
  }

  /**
   * Starts decommissioning {@code nodes} at every running NameNode, as {@code hdfs dfsadmin -refreshNodes}
   * with them in the exclude file would (through the NameNode's admin manager, without a hosts file).
   */
  void startDecommission(List<DataNodeHandle> nodes) throws IOException {
    atEveryNameNode(nodes, DatanodeAdminManager::startDecommission);
  }

  /** Puts {@code nodes} into maintenance (without expiry) at every running NameNode. */
  void startMaintenance(List<DataNodeHandle> nodes) throws IOException {
    atEveryNameNode(nodes, (admin, node) -> admin.startMaintenance(node, Long.MAX_VALUE));
  }

  private void atEveryNameNode(List<DataNodeHandle> nodes, BiConsumer<DatanodeAdminManager, DatanodeDescriptor> action)
      throws IOException {
    for (FSNamesystem fsn : nameNodes.running()) {
      DatanodeManager dm = fsn.getBlockManager().getDatanodeManager();
      fsn.writeLock();
      try {
        for (DataNodeHandle h : nodes) {
          DataNode dn = dataNodes.running(h);
          if (dn == null) {
            throw new IllegalStateException("cannot change the admin state of " + h + ": it is stopped");
          }
          action.accept(dm.getDatanodeAdminManager(), dm.getDatanode(dn.getDatanodeId()));
        }
      } finally {
        fsn.writeUnlock();
      }
    }
  }

  /** Whether the active NameNode of nameservice {@code ns} has {@code node} in maintenance. */
  boolean isInMaintenance(int ns, DataNodeHandle node) {
    return adminState(ns, node, DatanodeDescriptor::isInMaintenance);
  }

  /** Whether the active NameNode of nameservice {@code ns} has finished decommissioning {@code node}. */
  boolean isDecommissioned(int ns, DataNodeHandle node) {
    return adminState(ns, node, DatanodeDescriptor::isDecommissioned);
  }

  private boolean adminState(int ns, DataNodeHandle node, Predicate<DatanodeDescriptor> state) {
    DataNode dn = dataNodes.running(node);
    try {
      DatanodeDescriptor d = nameNodes.active(ns).getBlockManager().getDatanodeManager().getDatanode(dn.getDatanodeId());
      return d != null && state.test(d);
    } catch (IOException unregistered) {
      return false;
    }
  }
}
