package org.bulwark.hdfs.balancer.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.bulwark.hdfs.balancer.plan.BlockCandidate;
import org.bulwark.hdfs.balancer.plan.ExactOptimum;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;

/**
 * The exact optimum of a balancer's first iteration on a running mini cluster, as the benchmark's reference: every
 * DataNode's use as it reports it, every block of every namespace at least {@code dfs.balancer.getBlocks.min-block-size}
 * long as a candidate of each DataNode above the average that holds it (on clusters this small, {@code getBlocks}
 * returns them all). The namespaces are planned together, where the balancers plan each namespace in turn.
 */
final class FirstIterationOptimum {
  private FirstIterationOptimum() {
  }

  static ExactOptimum.Result of(BulwarkMiniCluster c, double threshold, double seconds) throws IOException {
    DatanodeInfo[] dns = c.fs(0).getDataNodeStats(DatanodeReportType.LIVE);
    int n = dns.length;
    int[] rackOf = new int[n];
    long[] capacity = new long[n];
    long[] used = new long[n];
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> racks = new HashMap<>();
    long totalUsed = 0;
    long totalCapacity = 0;
    for (int i = 0; i < n; i++) {
      index.put(dns[i].getXferAddr(), i);
      rackOf[i] = racks.computeIfAbsent(dns[i].getNetworkLocation(), r -> racks.size());
      capacity[i] = dns[i].getCapacity();
      used[i] = dns[i].getDfsUsed();
      totalUsed += used[i];
      totalCapacity += capacity[i];
    }
    double average = totalUsed * 100.0 / totalCapacity;
    long minBlock = c.conf().getLong("dfs.balancer.getBlocks.min-block-size", 10L << 20);
    long maxSizeToMove = c.conf().getLong("dfs.balancer.max-size-to-move", 10L << 30);
    Map<Integer, List<BlockCandidate>> candidates = new HashMap<>();
    long id = 0;
    for (int ns = 0; ns < c.nameservices().size(); ns++) {
      RemoteIterator<LocatedFileStatus> files = c.fs(ns).listFiles(new Path("/data"), true);
      while (files.hasNext()) {
        for (BlockLocation b : files.next().getBlockLocations()) {
          String[] names = b.getNames();
          int[] holders = new int[names.length];
          for (int h = 0; h < names.length; h++) {
            holders[h] = index.get(names[h]);
          }
          BlockCandidate block = new BlockCandidate(ns, id++, b.getLength(), holders);
          if (b.getLength() < minBlock) {
            continue;
          }
          for (int h : holders) {
            if (used[h] * 100.0 / capacity[h] > average) {
              candidates.computeIfAbsent(h, k -> new ArrayList<>()).add(block);
            }
          }
        }
      }
    }
    return ExactOptimum.firstIteration(rackOf, capacity, used, threshold, maxSizeToMove, candidates, seconds);
  }
}
