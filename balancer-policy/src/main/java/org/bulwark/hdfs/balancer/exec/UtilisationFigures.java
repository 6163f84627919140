package org.bulwark.hdfs.balancer.exec;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

/** DataNode and rack utilisation of one storage report, all storage types together, for the report. */
public final class UtilisationFigures {
  private final double average;
  private final double stdDev;
  private final double maxDeviation;
  private final Map<String, long[]> racks;
  /** Utilisation of each counted DataNode, in percent. */
  private final double[] dataNodes;

  private UtilisationFigures(double average, double stdDev, double maxDeviation, Map<String, long[]> racks,
      double[] dataNodes) {
    this.average = average;
    this.stdDev = stdDev;
    this.maxDeviation = maxDeviation;
    this.racks = racks;
    this.dataNodes = dataNodes;
  }

  static UtilisationFigures of(NodeTable table, Predicate<DatanodeInfo> participates) {
    int n = 0;
    long totalUsed = 0;
    long totalCapacity = 0;
    double[] util = new double[table.size()];
    boolean[] counted = new boolean[table.size()];
    Map<String, long[]> racks = new LinkedHashMap<>();
    for (int node = 0; node < table.size(); node++) {
      if (!participates.test(table.datanode(node))) {
        continue;
      }
      long used = 0;
      long capacity = 0;
      for (StorageReport s : table.storages(node)) {
        capacity += s.getCapacity();
        used += table.used(s);
      }
      if (capacity == 0) {
        continue;
      }
      util[node] = used * 100.0 / capacity;
      counted[node] = true;
      n++;
      totalUsed += used;
      totalCapacity += capacity;
      long[] rack = racks.computeIfAbsent(table.rackName(table.rackOf(node)), r -> new long[2]);
      rack[0] += used;
      rack[1] += capacity;
    }
    double average = totalCapacity == 0 ? 0 : totalUsed * 100.0 / totalCapacity;
    double mean = 0;
    for (int i = 0; i < util.length; i++) {
      mean += counted[i] ? util[i] / n : 0;
    }
    double squares = 0;
    double maxDev = 0;
    double[] counts = new double[n];
    int k = 0;
    for (int i = 0; i < util.length; i++) {
      if (counted[i]) {
        squares += (util[i] - mean) * (util[i] - mean);
        maxDev = Math.max(maxDev, Math.abs(util[i] - average));
        counts[k++] = util[i];
      }
    }
    return new UtilisationFigures(average, n == 0 ? 0 : Math.sqrt(squares / n), maxDev, racks, counts);
  }

  /** Capacity-weighted average utilisation, in percent: the balancer's reference. */
  public double average() {
    return average;
  }

  /** Standard deviation of DataNode utilisation, in percentage points. */
  public double stdDev() {
    return stdDev;
  }

  /** Largest distance of a DataNode's utilisation from the average, in percentage points. */
  public double maxDeviation() {
    return maxDeviation;
  }

  /** DataNodes above the average by more than {@code threshold} points: what balancing must still shed. */
  public int dataNodesAbove(double threshold) {
    int above = 0;
    for (double u : dataNodes) {
      above += u > average + threshold ? 1 : 0;
    }
    return above;
  }

  /** Per rack: {used bytes, capacity bytes}. */
  public Map<String, long[]> racks() {
    return racks;
  }
}
