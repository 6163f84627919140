package org.bulwark.hdfs.balancer.it;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.IntUnaryOperator;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.Utilisation;
import org.bulwark.hdfs.testkit.WriteOrigin;

/**
 * The seed's starting point on a mini cluster: files written with Hadoop's default placement by
 * writers on a few DataNodes (one per rack, as map tasks spread over racks), so replica 1 is on the
 * writer and replicas 2-3 on two nodes of one other rack, into every namespace, until DataNode
 * utilisation has a standard deviation of at least {@code minStdDev} points.
 */
final class SkewedCluster {
  static final long MB = 1L << 20;
  static final Duration WAIT = Duration.ofSeconds(120);

  private final BulwarkMiniCluster cluster;
  private final List<Path[]> files = new ArrayList<>();
  private final long fileLength;

  SkewedCluster(BulwarkMiniCluster cluster, long fileLength) {
    this.cluster = cluster;
    this.fileLength = fileLength;
  }

  /** The files {@link #write} left, on a cluster restarted from a copy of that cluster's storage. */
  static SkewedCluster restarted(BulwarkMiniCluster cluster, long fileLength, int fileCount) {
    SkewedCluster s = new SkewedCluster(cluster, fileLength);
    for (int i = 0; i < fileCount; i++) {
      s.files.add(new Path[] {new Path("/data/f" + i), new Path(String.valueOf(i % cluster.nameservices().size()))});
    }
    return s;
  }

  /** Writes {@code count} more files, round-robin over the writers and the namespaces. */
  void writeMore(List<DataNodeHandle> writers, int count) throws Exception {
    writeMore(writers, count, file -> 3);
  }

  /** Writes {@code count} more files, the i-th with the replication {@code replication} gives it. */
  void writeMore(List<DataNodeHandle> writers, int count, IntUnaryOperator replication) throws Exception {
    for (int k = 0; k < count; k++) {
      int i = files.size();
      int ns = i % cluster.nameservices().size();
      Path p = new Path("/data/f" + i);
      cluster.writeFile(ns, p, fileLength, WriteOrigin.fromDataNode(writers.get(i % writers.size())),
          replication.applyAsInt(i));
      files.add(new Path[] {p, new Path(String.valueOf(ns))});
    }
  }

  /** Writes until the reported std-dev reaches {@code minStdDev}; returns it. */
  double write(List<DataNodeHandle> writers, double minStdDev, int maxFiles) throws Exception {
    double stdDev = 0;
    while (files.size() < maxFiles) {
      writeMore(writers, Math.min(8, maxFiles - files.size()));
      stdDev = settledUtilisation().dataNodeStdDev();
      if (stdDev >= minStdDev) {
        break;
      }
    }
    return stdDev;
  }

  /** Utilisation once every namespace's replication is done and the DataNodes reported it. */
  Utilisation settledUtilisation() throws Exception {
    for (int ns = 0; ns < cluster.nameservices().size(); ns++) {
      cluster.awaitReplication(ns, new Path("/data"), WAIT);
    }
    long expected = replicaBytes();
    Await.until("DataNodes report " + expected + " bytes", WAIT, () -> reportedUse() >= expected);
    return Utilisation.of(cluster.fs(0));
  }

  /**
   * Asserts that, once the moves settled, every DataNode's utilisation is within {@code threshold}
   * points of the capacity-weighted average, give or take one block of that node's capacity. The
   * balancer stops when its last look at the DataNodes' reports is within the threshold, as the stock
   * one does; a move's source deletion or target report that lands after that look shifts a node by
   * a block, so a settled node may sit that much past the band the balancer saw it in.
   */
  void assertSettledWithinThreshold(double threshold, String context) throws Exception {
    awaitMovesSettled();
    List<Utilisation.Entry> nodes = settledUtilisation().dataNodes();
    double mean = nodes.stream().mapToLong(Utilisation.Entry::used).sum() * 100.0
        / nodes.stream().mapToLong(Utilisation.Entry::capacity).sum();
    long blockSize = cluster.conf().getLong("dfs.blocksize", 0);
    for (Utilisation.Entry e : nodes) {
      double band = threshold + 100.0 * blockSize / e.capacity();
      if (Math.abs(e.percent() - mean) > band) {
        throw new AssertionError(e + " is more than " + band + " points from the average " + mean + "\n" + context);
      }
    }
  }

  /**
   * Waits until the moves are over: no excess replica left or waiting for deletion in any
   * namespace, and the DataNodes' reported use steady across two heartbeats.
   */
  void awaitMovesSettled() throws Exception {
    awaitNameNodesSettled();
    long[] last = {-1};
    Await.until("reported use steady", WAIT, () -> {
      long now = reportedUse();
      boolean steady = now == last[0];
      last[0] = now;
      if (!steady) {
        Thread.sleep(2000);
      }
      return steady;
    });
  }

  /**
   * Waits until every namespace's NameNode has the moves behind it: blocks fully replicated, no excess
   * replica left or waiting for deletion, none postponed. What the DataNodes report may still lag.
   */
  void awaitNameNodesSettled() throws Exception {
    for (int ns = 0; ns < cluster.nameservices().size(); ns++) {
      cluster.awaitReplication(ns, new Path("/data"), WAIT);
      int n = ns;
      Await.until("excess replicas deleted", WAIT, () -> cluster.activeNamesystem(n).getExcessBlocks() == 0
          && cluster.activeNamesystem(n).getPendingDeletionBlocks() == 0
          && cluster.activeNamesystem(n).getPostponedMisreplicatedBlocks() == 0);
    }
  }

  void verifyAll() throws IOException {
    for (Path[] f : files) {
      cluster.verifyFile(Integer.parseInt(f[1].toString()), f[0], fileLength);
    }
  }

  int fileCount() {
    return files.size();
  }

  /** Blocks by their number of distinct racks, over every namespace. */
  Map<Integer, Integer> blocksByRacks() throws IOException {
    Map<Integer, Integer> counts = new HashMap<>();
    for (int ns = 0; ns < cluster.nameservices().size(); ns++) {
      DistributedFileSystem fs = cluster.fs(ns);
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path("/data"), true);
      while (it.hasNext()) {
        for (BlockLocation b : it.next().getBlockLocations()) {
          Set<String> racks = new HashSet<>();
          for (String t : b.getTopologyPaths()) {
            racks.add(t.substring(0, t.lastIndexOf('/')));
          }
          counts.merge(racks.size(), 1, Integer::sum);
        }
      }
    }
    return counts;
  }

  /** Bytes of every file's replicas, as the NameNodes hold them (files of any replication). */
  private long replicaBytes() throws IOException {
    long bytes = 0;
    for (Path[] f : files) {
      FileStatus status = cluster.fs(Integer.parseInt(f[1].toString())).getFileStatus(f[0]);
      bytes += status.getLen() * status.getReplication();
    }
    return bytes;
  }

  private long reportedUse() throws IOException, TimeoutException {
    long sum = 0;
    for (DatanodeInfo dn : cluster.fs(0).getDataNodeStats(DatanodeReportType.LIVE)) {
      sum += dn.getDfsUsed();
    }
    return sum;
  }
}
