package org.bulwark.hdfs.balancer.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.bulwark.hdfs.balancer.plan.NodeUsage;

/**
 * Every live DataNode of one storage report, numbered for the planner, with its rack. Excluded
 * and out-of-service nodes are in the table too: their replicas count for a block's racks. A storage's use
 * is what the stock policy counts (capacity - remaining) less what the run's own lock file reserves there.
 */
public final class NodeTable {
  private final List<DatanodeStorageReport> reports;
  private final Map<String, Integer> indexByUuid = new HashMap<>();
  private final int[] rackOf;
  private final List<String> rackNames = new ArrayList<>();
  private final Map<String, Long> ownReservations;

  /**
   * @param ownReservations bytes the run's own lock files reserve, by storage ID ({@link LockFileReservations})
   */
  public NodeTable(DatanodeStorageReport[] liveReports, Map<String, Long> ownReservations) {
    this.ownReservations = ownReservations;
    this.reports = new ArrayList<>(liveReports.length);
    this.rackOf = new int[liveReports.length];
    Map<String, Integer> rackIds = new LinkedHashMap<>();
    for (DatanodeStorageReport r : liveReports) {
      int index = reports.size();
      reports.add(r);
      DatanodeInfo dn = r.getDatanodeInfo();
      indexByUuid.put(dn.getDatanodeUuid(), index);
      String rack = dn.getNetworkLocation();
      Integer id = rackIds.get(rack);
      if (id == null) {
        id = rackIds.size();
        rackIds.put(rack, id);
        rackNames.add(rack);
      }
      rackOf[index] = id;
    }
  }

  public int size() {
    return reports.size();
  }

  /** Index of a DataNode, or -1 when it is not live. */
  public int indexOf(String datanodeUuid) {
    Integer i = indexByUuid.get(datanodeUuid);
    return i == null ? -1 : i;
  }

  public DatanodeInfo datanode(int node) {
    return reports.get(node).getDatanodeInfo();
  }

  public StorageReport[] storages(int node) {
    return reports.get(node).getStorageReports();
  }

  public int[] rackOf() {
    return rackOf.clone();
  }

  public int rackOf(int node) {
    return rackOf[node];
  }

  public int rackCount() {
    return rackNames.size();
  }

  public String rackName(int rack) {
    return rackNames.get(rack);
  }

  /**
   * A storage's use: capacity - remaining, as the stock policy counts it, less the run's own reservation there
   * (never below its DFS use: a DataNode that reserves nothing for a replica being written reports none).
   */
  long used(StorageReport s) {
    long used = s.getCapacity() - s.getRemaining();
    Long own = ownReservations.get(s.getStorage().getStorageID());
    return own == null ? used : used - Math.max(0, Math.min(own, used - s.getDfsUsed()));
  }

  /**
   * Usage of one storage type on each participating node, counted as {@link #used} counts it; only storages
   * with room for a default block add to remaining.
   */
  public List<NodeUsage> usages(StorageType type, Predicate<DatanodeInfo> participates,
      Predicate<DatanodeInfo> sourceAllowed, Predicate<DatanodeInfo> targetAllowed, long defaultBlockSize) {
    List<NodeUsage> out = new ArrayList<>();
    for (int node = 0; node < reports.size(); node++) {
      DatanodeInfo dn = datanode(node);
      if (!participates.test(dn)) {
        continue;
      }
      long capacity = 0;
      long used = 0;
      long remaining = 0;
      for (StorageReport s : storages(node)) {
        if (s.getStorage().getStorageType() != type) {
          continue;
        }
        capacity += s.getCapacity();
        long storageUsed = used(s);
        used += storageUsed;
        long storageRemaining = s.getRemaining() + (s.getCapacity() - s.getRemaining() - storageUsed);
        if (storageRemaining >= defaultBlockSize) {
          remaining += storageRemaining;
        }
      }
      if (capacity > 0) {
        out.add(new NodeUsage(node, capacity, used, remaining, sourceAllowed.test(dn), targetAllowed.test(dn)));
      }
    }
    return out;
  }
}
