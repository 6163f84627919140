package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.FileContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Favored-node writes ({@code DistributedFileSystem.create(..., favoredNodes)}, as HBase's region servers
 * write) keep every rule of the policy: right after the write, not only once the NameNode has repaired
 * the block. Favored nodes are kept as far as the rules allow; the rest is placed as for any write.
 */
class FavoredNodesTest {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long MB = 1 << 20;
  /** Unequal datacenters, as in the report that found the problem. */
  private static final String THREE_DCS = "/dc1/r1:3,/dc1/r2:2,/dc1/r3:2,/dc2/r4:2,/dc2/r5:1,/dc3/r6:2";
  private static final int BLOCKS = 12;

  private static Class<? extends BlockPlacementPolicy> policy(String name) {
    return "hierarchical".equals(name) ? HierarchicalPlacementPolicy.class : OneReplicaPerRackPlacementPolicy.class;
  }

  private static InetSocketAddress[] addresses(BulwarkMiniCluster c, List<DataNodeHandle> favored) {
    InetSocketAddress[] out = new InetSocketAddress[favored.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = c.running(favored.get(i)).getXferAddress();
    }
    return out;
  }

  /** Writes {@code BLOCKS} one-block files naming {@code favored}; returns their blocks' placement. */
  private static List<BlockRacks> write(BulwarkMiniCluster c, String dir, List<DataNodeHandle> favored) throws Exception {
    for (int i = 0; i < BLOCKS; i++) {
      Path p = new Path(dir + "/f" + i);
      try (OutputStream out = c.fs().create(p, FsPermission.getFileDefault(), true, 4096, (short) 3, MB, null,
          addresses(c, favored))) {
        FileContent.write(p.toUri().getPath(), MB, out);
      }
    }
    c.awaitReplication(0, new Path(dir), WAIT);
    return BlockRacks.under(c.fs(), new Path(dir));
  }

  private static String xfer(BulwarkMiniCluster c, DataNodeHandle h) {
    InetSocketAddress a = c.running(h).getXferAddress();
    return a.getAddress().getHostAddress() + ":" + a.getPort();
  }

  @ParameterizedTest
  @ValueSource(strings = {"one-per-rack", "hierarchical"})
  void favoredNodesOnTwoRacksAsHBasePicksThemKeepBothAndSpreadTheThird(String name) throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology(THREE_DCS).placementPolicy(policy(name)).build()) {
      // HBase: the region server's own DataNode and one on another rack (here another datacenter too).
      List<DataNodeHandle> favored = List.of(c.dataNodesInRack("/dc1/r1").get(0), c.dataNodesInRack("/dc2/r4").get(0));
      for (BlockRacks b : write(c, "/hbase", favored)) {
        assertEquals(3, b.distinctRacks(), "one replica per rack right after the write: " + b);
        for (DataNodeHandle f : favored) {
          assertTrue(b.hosts().contains(xfer(c, f)), "favored node " + f + " kept: " + b);
        }
        if (name.equals("hierarchical")) {
          assertTrue(b.distinctDatacenters() >= 2, b.toString());
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"one-per-rack", "hierarchical"})
  void favoredNodesAllOnOneRackKeepOneOfThem(String name) throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology(THREE_DCS).placementPolicy(policy(name)).build()) {
      List<DataNodeHandle> favored = c.dataNodesInRack("/dc1/r1");
      for (BlockRacks b : write(c, "/one-rack", favored)) {
        assertEquals(3, b.distinctRacks(), "one replica per rack right after the write: " + b);
        long kept = favored.stream().filter(f -> b.hosts().contains(xfer(c, f))).count();
        assertEquals(1, kept, "one favored node kept: " + b);
        if (name.equals("hierarchical")) {
          assertTrue(b.distinctDatacenters() >= 2, b.toString());
        }
      }
    }
  }

  @Test
  void favoredNodesAllInOneDatacenterStillLeaveItForTheLastReplica() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology(THREE_DCS)
        .placementPolicy(HierarchicalPlacementPolicy.class).build()) {
      List<DataNodeHandle> favored = new ArrayList<>();
      for (String rack : new String[] {"/dc1/r1", "/dc1/r2", "/dc1/r3"}) {
        favored.add(c.dataNodesInRack(rack).get(0));
      }
      for (BlockRacks b : write(c, "/one-dc", favored)) {
        assertEquals(3, b.distinctRacks(), b.toString());
        assertEquals(2, b.distinctDatacenters(), "a datacenter's loss leaves a replica: " + b);
        long kept = favored.stream().filter(f -> b.hosts().contains(xfer(c, f))).count();
        assertEquals(2, kept, "two favored nodes kept, the first two given: " + b);
      }
    }
  }
}
