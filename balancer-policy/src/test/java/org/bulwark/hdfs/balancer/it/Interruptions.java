package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.SkewedCluster.MB;
import static org.bulwark.hdfs.balancer.it.SkewedCluster.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;

/**
 * The cluster that runs interrupted are tried on ({@link InterruptedBalancerIT}, {@link BalancerAcrossFailoverIT}):
 * four racks of two DataNodes skewed by writers on one DataNode per rack, and what must hold after an interruption.
 */
final class Interruptions {
  private Interruptions() {
  }

  static BulwarkMiniCluster.Builder fourRacks(BulwarkMiniCluster.Builder b) {
    return b.topology("/r1:2,/r2:2,/r3:2,/r4:2").capacity(96 * MB);
  }

  /** Moves slowed to 512 KB/s, so that an interruption lands while blocks are being copied. */
  static BulwarkMiniCluster.Builder slowMoves(BulwarkMiniCluster.Builder b) {
    return fourRacks(b).configure(conf -> conf.setLong("dfs.datanode.balance.bandwidthPerSec", 512 * 1024));
  }

  static SkewedCluster skew(BulwarkMiniCluster c) throws Exception {
    List<DataNodeHandle> dns = c.dataNodes();
    SkewedCluster data = new SkewedCluster(c, 2 * MB);
    data.write(Arrays.asList(dns.get(0), dns.get(2), dns.get(4), dns.get(6)), 10, 120);
    return data;
  }

  /** Every block back to its replication, every file intact, no block left on one rack. */
  static void assertNothingLost(BulwarkMiniCluster c, SkewedCluster data) throws Exception {
    // the interrupted run is over: let the DataNodes copy at full speed again
    c.fs(0).setBalancerBandwidth(100L << 20);
    for (int ns = 0; ns < c.nameservices().size(); ns++) {
      c.awaitFullyReplicated(ns, WAIT);
    }
    data.verifyAll();
    Map<Integer, Integer> racks = data.blocksByRacks();
    assertEquals(0, racks.getOrDefault(1, 0), "no block was left on one rack: " + racks);
  }

  /** The DataNodes' reported use summed: it changes once a move has landed. */
  static long reportedUse(BulwarkMiniCluster c) throws IOException {
    long sum = 0;
    for (DatanodeInfo dn : c.fs(0).getDataNodeStats(DatanodeReportType.LIVE)) {
      sum += dn.getDfsUsed();
    }
    return sum;
  }
}
