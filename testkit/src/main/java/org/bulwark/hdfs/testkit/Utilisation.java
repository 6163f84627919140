package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * DataNode and rack utilisation as the balancer measures it (DFS used over capacity, all block pools
 * together), with the population standard deviation of each: the figures of the balancing papers.
 *
 * @param dataNodes each live DataNode
 * @param racks each rack, its DataNodes summed
 */
public record Utilisation(List<Entry> dataNodes, List<Entry> racks) {

  /** One DataNode or rack: its name, rack, bytes used and capacity. */
  public record Entry(String name, String rack, long used, long capacity) {
    /** Used over capacity, in percent. */
    public double percent() {
      return capacity == 0 ? 0 : 100.0 * used / capacity;
    }
  }

  /** Reads the live DataNodes' reports from the NameNode behind {@code fs}. */
  public static Utilisation of(DistributedFileSystem fs) throws IOException {
    List<Entry> nodes = new ArrayList<>();
    Map<String, long[]> perRack = new TreeMap<>();
    for (DatanodeInfo dn : fs.getDataNodeStats(DatanodeReportType.LIVE)) {
      nodes.add(new Entry(dn.getHostName(), dn.getNetworkLocation(), dn.getDfsUsed(), dn.getCapacity()));
      long[] sum = perRack.computeIfAbsent(dn.getNetworkLocation(), r -> new long[2]);
      sum[0] += dn.getDfsUsed();
      sum[1] += dn.getCapacity();
    }
    nodes.sort(Comparator.comparing(Entry::rack).thenComparing(Entry::name));
    List<Entry> racks = new ArrayList<>();
    perRack.forEach((rack, sum) -> racks.add(new Entry(rack, rack, sum[0], sum[1])));
    return new Utilisation(List.copyOf(nodes), List.copyOf(racks));
  }

  public double dataNodeStdDev() {
    return stdDev(dataNodes);
  }

  public double rackStdDev() {
    return stdDev(racks);
  }

  private static double stdDev(List<Entry> entries) {
    if (entries.isEmpty()) {
      return 0;
    }
    double mean = entries.stream().mapToDouble(Entry::percent).average().orElse(0);
    double var = entries.stream().mapToDouble(e -> (e.percent() - mean) * (e.percent() - mean)).sum() / entries.size();
    return Math.sqrt(var);
  }

  /** Per-DataNode and per-rack bars, for a person reading a terminal. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%-28s %-12s %10s %10s %7s%n", "DataNode", "rack", "used MB", "cap MB", "used%"));
    for (Entry e : dataNodes) {
      row(sb, e.name(), e.rack(), e);
    }
    sb.append(String.format("std-dev of DataNode utilisation: %.2f points%n%n", dataNodeStdDev()));
    sb.append(String.format("%-28s %-12s %10s %10s %7s%n", "rack", "", "used MB", "cap MB", "used%"));
    for (Entry e : racks) {
      row(sb, e.name(), "", e);
    }
    sb.append(String.format("std-dev of rack utilisation: %.2f points%n", rackStdDev()));
    return sb.toString();
  }

  private static void row(StringBuilder sb, String name, String rack, Entry e) {
    int bar = (int) Math.round(e.percent() / 5);
    sb.append(String.format("%-28s %-12s %10.1f %10.1f %6.1f%% %s%n", name, rack, e.used() / 1048576.0,
        e.capacity() / 1048576.0, e.percent(), "#".repeat(Math.max(0, Math.min(20, bar)))));
  }
}
