package org.bulwark.hdfs.balancer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.bulwark.hdfs.balancer.plan.NodeUsage;
import org.junit.jupiter.api.Test;

class NodeTableTest {
  private static final long MB = 1L << 20;

  /** One DataNode with one DISK storage {@code s0}: capacity 48 MB, {@code dfsUsed}, {@code remaining}. */
  private static DatanodeStorageReport[] node(long dfsUsed, long remaining) {
    DatanodeInfo dn = new DatanodeInfo.DatanodeInfoBuilder()
        .setNodeID(new DatanodeID("127.0.0.1", "h0", "uuid-0", 1, 0, 0, 0)).setNetworkLocation("/r0").build();
    StorageReport s = new StorageReport(new DatanodeStorage("s0", DatanodeStorage.State.NORMAL, StorageType.DISK),
        false, 48 * MB, dfsUsed, remaining, dfsUsed, 0);
    return new DatanodeStorageReport[] {new DatanodeStorageReport(dn, new StorageReport[] {s})};
  }

  private static NodeUsage usage(NodeTable table) {
    List<NodeUsage> usages = table.usages(StorageType.DISK, dn -> true, dn -> true, dn -> true, MB);
    return usages.get(0);
  }

  @Test
  void usedIsCapacityLessRemainingAsTheStockPolicyCountsIt() {
    // 1 MB of non-DFS use: counted, as the stock policy counts it
    NodeTable table = new NodeTable(node(10 * MB, 37 * MB), Collections.emptyMap());
    assertEquals(11 * MB, table.used(table.storages(0)[0]));
    assertEquals(11 * MB, usage(table).used());
  }

  @Test
  void theRunsOwnLockFileReservationIsNotUse() {
    // the DataNode reserves a 1 MB block for the lock file's replica being written
    NodeTable table = new NodeTable(node(10 * MB, 37 * MB), Map.of("s0", MB));
    assertEquals(10 * MB, table.used(table.storages(0)[0]));
    assertEquals(10 * MB, usage(table).used());
    assertEquals(38 * MB, usage(table).remaining());
  }

  @Test
  void aReservationTheDataNodeDoesNotReportIsNotTakenFromItsDfsUse() {
    NodeTable table = new NodeTable(node(10 * MB, 38 * MB), Map.of("s0", MB));
    assertEquals(10 * MB, table.used(table.storages(0)[0]));
  }

  @Test
  void reservationsOnOtherStoragesLeaveThisOneAlone() {
    NodeTable table = new NodeTable(node(10 * MB, 37 * MB), Map.of("s1", MB));
    assertEquals(11 * MB, table.used(table.storages(0)[0]));
  }
}
