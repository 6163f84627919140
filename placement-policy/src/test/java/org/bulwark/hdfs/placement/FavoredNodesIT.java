package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.FileContent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Favored-node writes ({@code DistributedFileSystem.create(..., favoredNodes)}, as HBase's region servers
 * write) keep every rule of the policy: right after the write, not only once the NameNode has repaired
 * the block. Favored nodes are kept as far as the rules allow; the rest is placed as for any write.
 *
 * <p>One cluster per policy, shared by the methods (each writes under a directory of its own, removed after it):
 * the tests only write and ask for blocks, and the cluster of 12 DataNodes is most of their time.
 */
class FavoredNodesIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long MB = 1 << 20;
  /** Unequal datacenters, as in the report that found the problem. */
  private static final String THREE_DCS = "/dc1/r1:3,/dc1/r2:2,/dc1/r3:2,/dc2/r4:2,/dc2/r5:1,/dc3/r6:2";
  private static final int BLOCKS = 12;

  /** The shared clusters, by policy name, started when a method first needs one. */
  private static final Map<String, BulwarkMiniCluster> CLUSTERS = new HashMap<>();

  private static Class<? extends BlockPlacementPolicy> policy(String name) {
    return "hierarchical".equals(name) ? HierarchicalPlacementPolicy.class : OneReplicaPerRackPlacementPolicy.class;
  }

  /** The cluster of the policy called {@code name}, its namespace empty. */
  private static BulwarkMiniCluster cluster(String name) throws IOException {
    BulwarkMiniCluster c = CLUSTERS.get(name);
    if (c == null) {
      c = BulwarkMiniCluster.builder().topology(THREE_DCS).placementPolicy(policy(name)).build();
      CLUSTERS.put(name, c);
    }
    return c;
  }

  /** What a method wrote goes, so the next one starts from an empty namespace. */
  @AfterEach
  void emptyTheNamespaces() throws IOException {
    for (BulwarkMiniCluster c : CLUSTERS.values()) {
      for (FileStatus child : c.fs().listStatus(new Path("/"))) {
        c.fs().delete(child.getPath(), true);
      }
    }
  }

  @AfterAll
  static void stopTheClusters() {
    CLUSTERS.values().forEach(BulwarkMiniCluster::close);
    CLUSTERS.clear();
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
    BulwarkMiniCluster c = cluster(name);
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

  @ParameterizedTest
  @ValueSource(strings = {"one-per-rack", "hierarchical"})
  void favoredNodesAllOnOneRackKeepOneOfThem(String name) throws Exception {
    BulwarkMiniCluster c = cluster(name);
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

  @Test
  void favoredNodesAllInOneDatacenterStillLeaveItForTheLastReplica() throws Exception {
    BulwarkMiniCluster c = cluster("hierarchical");
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

  /**
   * The NameNode's answer when the client of {@code fs} has created {@code src} (RF 3, so the NameNode records
   * the client's host as the writer) and asks for its first block naming {@code favored}: the targets as chosen,
   * before any write or later repair. The block is asked for in-process, as the client's RPC would (Hadoop
   * 3.4.3's RPC drops NO_LOCAL_RACK: its AddBlockFlagProto has no value for it).
   */
  private static DatanodeInfo[] addBlock(BulwarkMiniCluster c, DistributedFileSystem fs, String src,
      List<DataNodeHandle> favored, EnumSet<AddBlockFlag> flags) throws IOException {
    DFSClient client = fs.getClient();
    HdfsFileStatus file = client.getNamenode().create(src, FsPermission.getFileDefault(), client.getClientName(),
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 3, MB, CryptoProtocolVersion.supported(),
        null, null);
    String[] favoredNodes = favored.stream().map(h -> xfer(c, h)).toArray(String[]::new);
    LocatedBlock block = c.mini().getNameNodeRpc().addBlock(src, client.getClientName(), null, null, file.getFileId(),
        favoredNodes, flags);
    return block.getLocations();
  }

  private static String describe(DatanodeInfo[] targets) {
    return Arrays.stream(targets).map(t -> t.getNetworkLocation() + " " + t.getXferAddr()).toList().toString();
  }

  private static long distinctRacks(DatanodeInfo[] targets) {
    return Arrays.stream(targets).map(DatanodeInfo::getNetworkLocation).distinct().count();
  }

  private static long distinctDatacenters(DatanodeInfo[] targets) {
    return Arrays.stream(targets).map(t -> RackFill.datacenterOf(t.getNetworkLocation())).distinct().count();
  }

  private static long favoredKept(BulwarkMiniCluster c, DatanodeInfo[] targets, List<DataNodeHandle> favored) {
    List<String> hosts = Arrays.stream(targets).map(DatanodeInfo::getXferAddr).toList();
    return favored.stream().filter(f -> hosts.contains(xfer(c, f))).count();
  }

  /**
   * A favored node the rules drop must not cost the block a target: Hadoop hands the storage types left after
   * the favored nodes to the choice of the rest, and one used up by a dropped node left it without a DISK to
   * give (2 targets of 3: a write fails where dfs.namenode.replication.min is 3).
   */
  @Test
  void threeFavoredNodesInOneDatacenterStillGiveThreeTargets() throws Exception {
    BulwarkMiniCluster c = cluster("hierarchical");
    List<DataNodeHandle> favored = new ArrayList<>();
    for (String rack : new String[] {"/dc1/r1", "/dc1/r2", "/dc1/r3"}) {
      favored.add(c.dataNodesInRack(rack).get(0));
    }
    for (int i = 0; i < 5; i++) {
      DatanodeInfo[] targets = addBlock(c, c.fs(), "/one-dc/f" + i, favored, null);
      assertEquals(3, targets.length, "as many targets as the stock policy gives: " + describe(targets));
      assertEquals(3, distinctRacks(targets), describe(targets));
      assertEquals(2, distinctDatacenters(targets), describe(targets));
      assertEquals(2, favoredKept(c, targets, favored.subList(0, 2)), "the first two favored nodes kept: "
          + describe(targets));
    }
  }

  /**
   * HBase puts the tertiary favored node on the secondary's rack: the rules keep one of the two, and Hadoop is
   * not offered the other, so it does not warn "Could not find a target" for every block.
   */
  @ParameterizedTest
  @ValueSource(strings = {"one-per-rack", "hierarchical"})
  void hbaseTertiaryOnTheSecondarysRackIsLeftOutWithoutAWarning(String name) throws Exception {
    BulwarkMiniCluster c = cluster(name);
    List<DataNodeHandle> favored = List.of(c.dataNodesInRack("/dc1/r1").get(0), c.dataNodesInRack("/dc2/r4").get(0),
        c.dataNodesInRack("/dc2/r4").get(1));
    LogCapturer warnings = LogCapturer.captureLogs(BlockPlacementPolicy.LOG);
    try {
      for (int i = 0; i < 5; i++) {
        DatanodeInfo[] targets = addBlock(c, c.fs(), "/hbase-layout/f" + i, favored, null);
        assertEquals(3, targets.length, describe(targets));
        assertEquals(3, distinctRacks(targets), describe(targets));
        assertEquals(2, favoredKept(c, targets, favored.subList(0, 2)), "primary and secondary kept: "
            + describe(targets));
      }
    } finally {
      warnings.stopCapturing();
    }
    assertFalse(warnings.getOutput().contains("Could not find a target"), warnings.getOutput());
  }

  /**
   * With NO_LOCAL_RACK or NO_LOCAL_WRITE Hadoop first chooses the rest of a favored-node write with a copy of its
   * excluded nodes (plus the writer's rack or the writer): the rest still knows the favored nodes kept, and goes
   * to another datacenter. (Chosen without them, the third replica went to the writer's rack, /dc1/r1, with
   * NO_LOCAL_WRITE, and into /dc1 about 3 times in 8 with NO_LOCAL_RACK: 15 blocks per flag show it.)
   */
  @Test
  void noLocalRackAndNoLocalWriteKeepTheRulesForFavoredNodeWrites() throws Exception {
    BulwarkMiniCluster c = cluster("hierarchical");
    List<DataNodeHandle> favored = List.of(c.dataNodesInRack("/dc1/r1").get(0), c.dataNodesInRack("/dc1/r2").get(0));
    // The writer on the primary's rack (not a favored node, which Hadoop would already exclude).
    DistributedFileSystem writer = c.fsOn(0, c.dataNodesInRack("/dc1/r1").get(1));
    for (AddBlockFlag flag : new AddBlockFlag[] {AddBlockFlag.NO_LOCAL_RACK, AddBlockFlag.NO_LOCAL_WRITE}) {
      for (int i = 0; i < 15; i++) {
        DatanodeInfo[] targets = addBlock(c, writer, "/" + flag + "/f" + i, favored, EnumSet.of(flag));
        assertEquals(3, targets.length, flag + ": " + describe(targets));
        assertEquals(3, distinctRacks(targets), flag + ": " + describe(targets));
        assertEquals(2, distinctDatacenters(targets), flag + ": " + describe(targets));
        assertEquals(2, favoredKept(c, targets, favored), flag + ": " + describe(targets));
      }
    }
  }
}
