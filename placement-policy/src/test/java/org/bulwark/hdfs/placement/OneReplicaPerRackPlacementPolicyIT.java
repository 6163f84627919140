package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.StoppedDataNodes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * OneReplicaPerRackPlacementPolicy on real NameNodes: writes from DataNode hosts (the writer-local path,
 * through the kit's per-host loopback addresses) and from off-cluster.
 */
@Tag("compat")
class OneReplicaPerRackPlacementPolicyIT {
  private static final long MB = 1 << 20;
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String SEED_RACKS = "/r1:3,/r2:3,/r3:2,/r4:2";

  private static BulwarkMiniCluster.Builder cluster(String topology) {
    return BulwarkMiniCluster.builder().topology(topology).placementPolicy(OneReplicaPerRackPlacementPolicy.class);
  }

  @Test
  void everyReplicaOnItsOwnRackAtReplication2To4() throws Exception {
    try (BulwarkMiniCluster c = cluster("/r1:2,/r2:2,/r3:2,/r4:2,/r5:2").build()) {
      for (int rf = 2; rf <= 4; rf++) {
        PolicyTestSupport.writeFromEverywhere(c, "/rf" + rf, rf, 4);
        List<BlockRacks> blocks = BlockRacks.under(c.fs(), new Path("/rf" + rf));
        assertEquals(2 * (10 * 2 + 4), blocks.size());
        for (BlockRacks b : blocks) {
          assertEquals(rf, b.racks().size(), b.toString());
          assertEquals(rf, b.distinctRacks(), "one replica per rack: " + b);
        }
      }
      // The writer's own node keeps the first replica, as with the default policy.
      for (DataNodeHandle h : c.dataNodes()) {
        String addr = c.running(h).getDatanodeId().getXferAddr();
        for (BlockRacks b : BlockRacks.under(c.fs(), new Path("/rf3/dn" + h.index() + "-0"))) {
          assertTrue(b.hosts().contains(addr), h + " holds a replica of " + b);
        }
      }
      assertEquals(0, PolicyTestSupport.misReplicated(c), "fsck agrees");
    }
  }

  @Test
  void survivesTheLossOfAnyTwoRacksWhereTheDefaultPolicyLosesBlocks() throws Exception {
    // Ours: no two racks hold every replica of any block; stop two racks and read everything back.
    try (BulwarkMiniCluster c = cluster(SEED_RACKS).build()) {
      List<Path> files = PolicyTestSupport.writeFromEverywhere(c, "/data", 3, 4);
      List<BlockRacks> blocks = BlockRacks.under(c.fs(), new Path("/data"));
      assertEquals(List.of(), blocksLostWithTwoRacks(blocks, List.of("/r1", "/r2", "/r3", "/r4")));

      StoppedDataNodes r1 = c.stopRack("/r1");
      StoppedDataNodes r3 = c.stopRack("/r3");
      c.declareDead(r1);
      c.declareDead(r3);
      Await.until("5 live DataNodes", WAIT, () -> c.liveDataNodes(0) == 5);
      for (Path p : files) {
        assertEquals(2 * MB, c.verifyFile(p, 2 * MB));
      }
    }
    // Hadoop's default policy on the same racks: two replicas share a rack, so some pair of racks
    // holds every replica of a block, and stopping that pair loses it.
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology(SEED_RACKS)
        .configure(conf -> conf.setInt("dfs.client.retry.window.base", 10)).build()) {
      PolicyTestSupport.writeFromEverywhere(c, "/data", 3, 4);
      List<BlockRacks> blocks = BlockRacks.under(c.fs(), new Path("/data"));
      List<String> lost = blocksLostWithTwoRacks(blocks, List.of("/r1", "/r2", "/r3", "/r4"));
      assertFalse(lost.isEmpty());
      BlockRacks victim = blocks.stream().filter(b -> b.distinctRacks() == 2).findFirst().orElseThrow();
      List<String> pair = new ArrayList<>(new HashSet<>(victim.racks()));
      StoppedDataNodes a = c.stopRack(pair.get(0));
      StoppedDataNodes b = c.stopRack(pair.get(1));
      c.declareDead(a);
      c.declareDead(b);
      assertThrows(BlockMissingException.class, () -> c.verifyFile(victim.file(), 2 * MB),
          "the default policy loses " + victim + " with racks " + pair);
    }
  }

  /** "rack-pair: block" for every block whose replicas all sit on some pair of racks. */
  private static List<String> blocksLostWithTwoRacks(List<BlockRacks> blocks, List<String> racks) {
    List<String> lost = new ArrayList<>();
    for (int i = 0; i < racks.size(); i++) {
      for (int j = i + 1; j < racks.size(); j++) {
        Set<String> pair = Set.of(racks.get(i), racks.get(j));
        for (BlockRacks b : blocks) {
          if (pair.containsAll(b.racks())) {
            lost.add(pair + ": " + b);
          }
        }
      }
    }
    return lost;
  }

  @Test
  void fewerRacksThanReplicasSpreadsEvenlyAndIsNotMisReplicated() throws Exception {
    try (BulwarkMiniCluster c = cluster("/r1:3,/r2:3").build()) {
      PolicyTestSupport.writeFromEverywhere(c, "/two", 3, 2);
      PolicyTestSupport.writeFromEverywhere(c, "/four", 4, 2);
      for (BlockRacks b : BlockRacks.under(c.fs(), new Path("/"))) {
        assertEquals(2, b.distinctRacks(), b.toString());
        Collection<Integer> counts = b.perRack().values();
        assertTrue(counts.stream().mapToInt(Integer::intValue).max().getAsInt()
            - counts.stream().mapToInt(Integer::intValue).min().getAsInt() <= 1, "even spread: " + b);
      }
      assertEquals(0, PolicyTestSupport.misReplicated(c), "nothing better is possible on 2 racks");
    }
    try (BulwarkMiniCluster c = cluster("/r1:4").build()) {
      PolicyTestSupport.writeFromEverywhere(c, "/one", 3, 2);
      for (BlockRacks b : BlockRacks.under(c.fs(), new Path("/"))) {
        assertEquals(3, b.racks().size(), "a single rack still gets every replica: " + b);
      }
      assertEquals(0, PolicyTestSupport.misReplicated(c));
    }
  }

  @Test
  void aRackWithNoUsableNodeFallsBackWithoutFailingTheWrite() throws Exception {
    // A fill snapshot per decision, so the policy sees the decommissioning at once.
    try (BulwarkMiniCluster c = cluster("/r1:2,/r2:2,/r3:2")
        .configure(conf -> conf.set(PlacementKeys.RACK_FILL_REFRESH.getName(), "0")).build()) {
      // Every node of /r3 decommissioning: three racks exist, two can take replicas.
      List<DataNodeHandle> r3 = c.dataNodesInRack("/r3");
      c.startDecommission(r3);
      Await.until("/r3 decommissioned (it holds no blocks)", WAIT, () -> r3.stream().allMatch(h -> c.isDecommissioned(0, h)));
      PolicyTestSupport.writeFromEverywhere(c, "/data", 3, 2);
      for (BlockRacks b : BlockRacks.under(c.fs(), new Path("/data"))) {
        assertEquals(3, b.racks().size(), "fully replicated: " + b);
        assertFalse(b.racks().contains("/r3"), b.toString());
      }
      assertEquals(0, PolicyTestSupport.misReplicated(c), "no better placement exists while /r3 is out of service");
    }
  }

  @Test
  void storagePoliciesAreHonouredOnDistinctRacks() throws Exception {
    BulwarkMiniCluster.Builder b = cluster("/r1:2,/r2:2,/r3:2,/r4:2");
    for (int i = 0; i < 8; i += 2) {
      b.storageType(i, StorageType.SSD);
    }
    try (BulwarkMiniCluster c = b.build()) {
      c.fs().mkdirs(new Path("/one"));
      c.fs().setStoragePolicy(new Path("/one"), "ONE_SSD");
      c.fs().mkdirs(new Path("/all"));
      c.fs().setStoragePolicy(new Path("/all"), "ALL_SSD");
      PolicyTestSupport.writeFromEverywhere(c, "/one", 3, 2);
      PolicyTestSupport.writeFromEverywhere(c, "/all", 3, 2);
      for (String dir : List.of("/one", "/all")) {
        RemoteIterator<LocatedFileStatus> files = c.fs().listFiles(new Path(dir), true);
        while (files.hasNext()) {
          for (BlockLocation loc : files.next().getBlockLocations()) {
            long ssd = Arrays.stream(loc.getStorageTypes()).filter(t -> t == StorageType.SSD).count();
            assertEquals(dir.equals("/one") ? 1 : 3, ssd, dir + " " + Arrays.toString(loc.getStorageTypes()));
            assertEquals(3, Arrays.stream(loc.getTopologyPaths()).map(p -> p.substring(0, p.lastIndexOf('/'))).distinct().count(),
                Arrays.toString(loc.getTopologyPaths()));
          }
        }
      }
    }
  }

  @Test
  void aStoragePolicyWhoseTypeFewRacksOfferIsNotReportedMisReplicated() throws Exception {
    // Archive nodes on /r1 and /r2 only (DISK on every rack): a COLD block can span 2 racks, not 3.
    // Reporting it mis-replicated would have the NameNode retry a repair it cannot make, forever.
    BulwarkMiniCluster.Builder b = cluster("/r1:3,/r2:3,/r3:2,/r4:2");
    for (int i : new int[] {0, 1, 3, 4}) {
      b.storageType(i, StorageType.ARCHIVE);
    }
    try (BulwarkMiniCluster c = b.build()) {
      c.fs().mkdirs(new Path("/cold"));
      c.fs().setStoragePolicy(new Path("/cold"), "COLD");
      PolicyTestSupport.writeFromEverywhere(c, "/cold", 3, 2);
      PolicyTestSupport.writeFromEverywhere(c, "/hot", 3, 2);
      for (BlockRacks block : BlockRacks.under(c.fs(), new Path("/cold"))) {
        assertEquals(Set.of("/r1", "/r2"), new HashSet<>(block.racks()), "every ARCHIVE rack: " + block);
      }
      for (BlockRacks block : BlockRacks.under(c.fs(), new Path("/hot"))) {
        assertEquals(3, block.distinctRacks(), "DISK is on every rack: " + block);
      }
      // The NameNode's own check (DataNode descriptors, not fsck's storages) queues no repair either.
      c.awaitFullyReplicated(0, Duration.ofSeconds(30));
      assertEquals(0, PolicyTestSupport.misReplicated(c));
    }
  }

  @Test
  void maintenanceCompletesWhenRacksEqualTheReplicationFactor() throws Exception {
    try (BulwarkMiniCluster c = cluster("/r1:2,/r2:2,/r3:2")
        .configure(conf -> conf.setInt("dfs.namenode.maintenance.replication.min", 3)).build()) {
      List<Path> files = PolicyTestSupport.writeFromEverywhere(c, "/data", 3, 2);
      // With 3 live replicas required in maintenance, the node's replicas must first be copied to the
      // other node of its rack: the only place that keeps one replica per rack.
      DataNodeHandle leaving = c.dataNodesInRack("/r2").get(1);
      c.startMaintenance(List.of(leaving));
      Await.until(leaving + " in maintenance", WAIT, () -> c.isInMaintenance(0, leaving));
      String resting = c.running(leaving).getDatanodeId().getXferAddr();
      for (BlockRacks b : BlockRacks.under(c.fs(), new Path("/data"))) {
        assertEquals(3, b.distinctRacksWithout(resting), "three racks without " + leaving + ": " + b);
      }
      for (Path p : files) {
        c.verifyFile(p, 2 * MB);
      }
    }
  }

  @Test
  void aRackWhoseNodesAreAllExcludedFallsBackToAnyAcceptableNode() throws Exception {
    try (BulwarkMiniCluster c = cluster("/r1:2,/r2:2,/r3:2").build()) {
      FSNamesystem fsn = c.mini().getNamesystem(0);
      DatanodeManager dm = fsn.getBlockManager().getDatanodeManager();
      BlockPlacementPolicy policy = fsn.getBlockManager().getBlockPlacementPolicy();
      Set<Node> excluded = new HashSet<>();
      for (DataNodeHandle h : c.dataNodesInRack("/r3")) {
        excluded.add(dm.getDatanode(c.running(h).getDatanodeId()));
      }
      Node writer = dm.getDatanode(c.running(c.dataNodesInRack("/r1").get(0)).getDatanodeId());
      // As when a client's pipeline has excluded every node of /r3: three racks, two usable.
      for (int i = 0; i < 50; i++) {
        DatanodeStorageInfo[] targets = policy.chooseTarget("/f", 3, writer, new ArrayList<>(), false,
            new HashSet<>(excluded), MB, fsn.getBlockManager().getStoragePolicy("HOT"), null);
        assertEquals(3, targets.length, "the write gets all its replicas");
        Set<String> racks = new HashSet<>();
        for (DatanodeStorageInfo t : targets) {
          racks.add(t.getDatanodeDescriptor().getNetworkLocation());
          assertFalse(excluded.contains(t.getDatanodeDescriptor()));
        }
        assertEquals(Set.of("/r1", "/r2"), racks);
      }
    }
  }

  @Test
  void blocksWrittenBeforeTheSwitchAreReportedAndRepaired() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2,/r4:2").build()) {
      PolicyTestSupport.writeFromEverywhere(c, "/old", 3, 0);
      List<BlockRacks> before = BlockRacks.under(c.fs(), new Path("/old"));
      assertTrue(before.stream().allMatch(b -> b.distinctRacks() == 2), "default policy: 2 racks per block");

      // Switch the policy and restart the NameNode with redundancy work on hold, so fsck sees the old shape.
      c.mini().getConfiguration(0).set("dfs.block.replicator.classname", OneReplicaPerRackPlacementPolicy.class.getName());
      c.mini().getConfiguration(0).setInt("dfs.namenode.redundancy.interval.seconds", 3600);
      c.mini().restartNameNode(0, true);
      FSNamesystem fsn = c.mini().getNamesystem(0);
      assertTrue(fsn.getBlockManager().getBlockPlacementPolicy() instanceof OneReplicaPerRackPlacementPolicy);
      Await.until("the restarted NameNode has all block reports", WAIT, () -> !fsn.isInSafeMode() && c.liveDataNodes(0) == 8);
      Await.until("fsck reports every old block as mis-replicated", WAIT, () -> PolicyTestSupport.misReplicated(c) == before.size());

      // Let the NameNode do its redundancy work, a round of its redundancy monitor (held off) each time: work
      // scheduled, timed-out reconstructions queued again, postponed excess replicas looked at again. Every block
      // ends on three racks.
      Await.until("every block spans 3 racks", WAIT, () -> {
        BlockManagerTestUtil.checkRedundancy(fsn.getBlockManager());
        return BlockRacks.under(c.fs(), new Path("/old")).stream().allMatch(b -> b.distinctRacks() == 3 && b.racks().size() == 3);
      });
      assertEquals(0, PolicyTestSupport.misReplicated(c));
      for (BlockRacks b : before) {
        assertEquals(2 * MB, c.verifyFile(b.file(), 2 * MB));
      }
    }
  }

  @Test
  void decommissionCompletesWhenRacksEqualTheReplicationFactor() throws Exception {
    try (BulwarkMiniCluster c = cluster("/r1:2,/r2:2,/r3:2").build()) {
      List<Path> files = PolicyTestSupport.writeFromEverywhere(c, "/data", 3, 2);
      // HDFS-16456: with racks == replication, the replicas of the leaving node must go to the other
      // node of its rack; a policy that insists on a fresh rack would never finish.
      DataNodeHandle leaving = c.dataNodesInRack("/r1").get(0);
      c.startDecommission(List.of(leaving));
      Await.until(leaving + " decommissioned", WAIT, () -> c.isDecommissioned(0, leaving));
      String gone = c.running(leaving).getDatanodeId().getXferAddr();
      for (BlockRacks b : BlockRacks.under(c.fs(), new Path("/data"))) {
        assertEquals(3, b.distinctRacksWithout(gone), "still one replica per rack without " + leaving + ": " + b);
      }
      for (Path p : files) {
        c.verifyFile(p, 2 * MB);
      }
    }
  }

  @Test
  void decommissionCompletesForTheOnlyDataNodeOfARack() throws Exception {
    try (BulwarkMiniCluster c = cluster("/r1:2,/r2:2,/r3:1").build()) {
      List<Path> files = PolicyTestSupport.writeFromEverywhere(c, "/data", 3, 2);
      // /r3 empties: its replicas go to the other racks, two per block on one of them.
      DataNodeHandle leaving = c.dataNodesInRack("/r3").get(0);
      c.startDecommission(List.of(leaving));
      Await.until(leaving + " decommissioned", WAIT, () -> c.isDecommissioned(0, leaving));
      String gone = c.running(leaving).getDatanodeId().getXferAddr();
      for (BlockRacks b : BlockRacks.under(c.fs(), new Path("/data"))) {
        assertEquals(2, b.distinctRacksWithout(gone), "both racks left hold the block: " + b);
      }
      for (Path p : files) {
        c.verifyFile(p, 2 * MB);
      }
      assertEquals(0, PolicyTestSupport.misReplicated(c), "two racks in service: two racks are all a block can span");
    }
  }
}
