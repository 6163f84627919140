package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.bulwark.hdfs.placement.rules.FallbackCause;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Both policies driven on a simulated NameNode topology (no cluster): node fill inside a rack, the
 * default policy's switches they must honour as it does (checked against it on the same topology), the
 * writer-datacenter key, and fallbacks counted by cause.
 */
class PlacementSimulationTest {
  private static final long BLOCK = 1L << 20;
  private static final long TB = 1L << 40;
  private static final BlockStoragePolicy HOT = BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy();

  private static Configuration conf() {
    Configuration conf = new HdfsConfiguration();
    conf.setBoolean("dfs.namenode.redundancy.considerLoad", false);
    return conf;
  }

  private static DatanodeStorageInfo[] choose(BlockPlacementPolicyDefault policy, int rf, Node writer, Set<Node> excluded) {
    DatanodeStorageInfo[] targets = policy.chooseTarget("/f", rf, writer, new ArrayList<>(), false,
        excluded == null ? null : new HashSet<>(excluded), BLOCK, HOT, null);
    assertEquals(rf, targets.length, "a write never fails for want of the ideal");
    return targets;
  }

  private static Set<String> racks(DatanodeStorageInfo[] targets) {
    Set<String> out = new HashSet<>();
    for (DatanodeStorageInfo t : targets) {
      out.add(t.getDatanodeDescriptor().getNetworkLocation());
    }
    return out;
  }

  @Test
  void insideTheChosenRackTheLessUtilisedOfTwoNodesTakesTheReplica() {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf).addRack("/r1", 1, TB, 0).addRack("/r2", 1, TB, 0);
    long[] used = {TB / 10, 4 * TB / 10, 6 * TB / 10, 9 * TB / 10};
    for (long u : used) {
      t.addRack("/r3", 1, TB, u);
    }
    OneReplicaPerRackPlacementPolicy policy = t.policy(OneReplicaPerRackPlacementPolicy.class, conf);
    List<DatanodeDescriptor> r3 = t.inRack("/r3");
    Map<DatanodeDescriptor, Integer> picks = new HashMap<>();
    for (int i = 0; i < 1200; i++) {
      for (DatanodeStorageInfo s : choose(policy, 3, t.nodes.get(0), null)) {
        if (r3.contains(s.getDatanodeDescriptor())) {
          picks.merge(s.getDatanodeDescriptor(), 1, Integer::sum);
        }
      }
    }
    // Two of four drawn, the less used wins: 1/2, 1/3, 1/6, never the fullest.
    assertFalse(picks.containsKey(r3.get(3)), "the 90 % node is never the less used of two: " + picks);
    assertTrue(picks.get(r3.get(0)) > 500, picks.toString());
    assertTrue(picks.get(r3.get(0)) > picks.get(r3.get(1)) && picks.get(r3.get(1)) > picks.get(r3.get(2)), picks.toString());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void preferLocalNodeIsHonouredAsTheDefaultPolicyHonoursIt(boolean preferLocal) {
    Configuration conf = conf();
    conf.setBoolean("dfs.namenode.block-placement-policy.default.prefer-local-node", preferLocal);
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 1; r <= 4; r++) {
      t.addRack("/r" + r, 10, TB, 0);
    }
    for (Class<? extends BlockPlacementPolicyDefault> type : List.of(BlockPlacementPolicyDefault.class,
        OneReplicaPerRackPlacementPolicy.class)) {
      BlockPlacementPolicyDefault policy = t.policy(type, conf);
      int local = 0;
      int localRack = 0;
      for (int i = 0; i < 300; i++) {
        DatanodeDescriptor writer = t.nodes.get(i % t.nodes.size());
        DatanodeStorageInfo[] targets = choose(policy, 3, writer, null);
        local += targets[0].getDatanodeDescriptor().equals(writer) ? 1 : 0;
        localRack += targets[0].getDatanodeDescriptor().getNetworkLocation().equals(writer.getNetworkLocation()) ? 1 : 0;
      }
      if (preferLocal) {
        assertEquals(300, local, type.getSimpleName());
      } else {
        assertTrue(local < 100, type.getSimpleName() + ": the writer's node is one of its rack's ten, " + local);
        assertEquals(300, localRack, type.getSimpleName() + ": the writer's rack still comes first");
      }
    }
  }

  @Test
  void slowNodesAreExcludedAsTheDefaultPolicyExcludesThem() {
    Configuration conf = conf();
    conf.setBoolean("dfs.datanode.peer.stats.enabled", true);
    conf.setBoolean("dfs.namenode.block-placement-policy.exclude-slow-nodes.enabled", true);
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 1; r <= 4; r++) {
      t.addRack("/r" + r, 3, TB, 0);
    }
    Set<String> slow = new HashSet<>();
    for (String rack : List.of("/r2", "/r3")) {
      slow.add(t.inRack(rack).get(0).getDatanodeUuid());
    }
    assertEquals(2, slow.size(), "distinct DataNode UUIDs");
    Set<String> slowSet = DatanodeManager.getSlowNodesUuidSet();
    slowSet.addAll(slow);
    try {
      for (Class<? extends BlockPlacementPolicyDefault> type : List.of(BlockPlacementPolicyDefault.class,
          OneReplicaPerRackPlacementPolicy.class, HierarchicalPlacementPolicy.class)) {
        BlockPlacementPolicyDefault policy = t.policy(type, conf);
        for (int i = 0; i < 300; i++) {
          for (DatanodeStorageInfo s : choose(policy, 3, i % 2 == 0 ? null : t.nodes.get(i % t.nodes.size()), null)) {
            assertFalse(slow.contains(s.getDatanodeDescriptor().getDatanodeUuid()), type.getSimpleName());
          }
        }
      }
    } finally {
      slowSet.removeAll(slow);
    }
  }

  @Test
  void halfKeepsCeilOfHalfTheReplicasInTheWritersDatacenterOnDistinctRacks() {
    for (String mode : List.of("one", "half")) {
      Configuration conf = conf();
      conf.set(PlacementKeys.WRITER_DATACENTER_REPLICAS.getName(), mode);
      SimulatedTopology t = new SimulatedTopology(conf);
      for (int dc = 1; dc <= 3; dc++) {
        for (int r = 1; r <= 3; r++) {
          t.addRack("/dc" + dc + "/r" + r, 3, TB, 0);
        }
      }
      HierarchicalPlacementPolicy policy = t.policy(HierarchicalPlacementPolicy.class, conf);
      for (int rf = 2; rf <= 4; rf++) {
        for (int i = 0; i < 100; i++) {
          DatanodeDescriptor writer = t.nodes.get(i % 9);
          DatanodeStorageInfo[] targets = choose(policy, rf, writer, null);
          Map<String, Integer> perDc = new HashMap<>();
          for (DatanodeStorageInfo s : targets) {
            perDc.merge(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation()), 1, Integer::sum);
          }
          int local = mode.equals("one") ? 1 : (rf + 1) / 2;
          String at = mode + " RF " + rf + ": " + perDc;
          assertEquals(local, perDc.get("/dc1"), at);
          assertEquals(rf, racks(targets).size(), "distinct racks, " + at);
          assertEquals(rf == 2 || rf - local <= 2 ? 2 : 3, perDc.size(), at);
        }
      }
      assertEquals(0, policy.metrics().total(), "nothing fell back");
    }
  }

  /**
   * A WARM block (one DISK replica, the rest ARCHIVE) from a writer off the cluster, ARCHIVE offered on one rack
   * of four: the DISK replica goes elsewhere, so the block spans two racks with both its types. (Placed first at
   * random, as Hadoop places it, the DISK replica took the archive rack one time in four or so, and the ARCHIVE
   * replica then had that rack or none.)
   */
  @Test
  void aWarmBlockLeavesTheOnlyArchiveRackToItsArchiveReplica() {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf);
    for (String rack : List.of("/r1", "/r2", "/r3", "/r4")) {
      t.addRack(rack, 2, TB, 0);
    }
    t.addRack("/r1", 2, TB, 0, StorageType.ARCHIVE);
    BlockStoragePolicy warm = BlockStoragePolicySuite.createDefaultSuite().getPolicy("WARM");
    for (Class<? extends BlockPlacementPolicyDefault> type : List.of(OneReplicaPerRackPlacementPolicy.class,
        HierarchicalPlacementPolicy.class)) {
      BlockPlacementPolicyDefault policy = t.policy(type, conf);
      for (int i = 0; i < 200; i++) {
        DatanodeStorageInfo[] targets = policy.chooseTarget("/f", 2, null, new ArrayList<>(), false, null, BLOCK,
            warm, null);
        Set<StorageType> types = new HashSet<>();
        for (DatanodeStorageInfo s : targets) {
          types.add(s.getStorageType());
        }
        assertEquals(Set.of(StorageType.DISK, StorageType.ARCHIVE), types, type.getSimpleName());
        assertEquals(2, racks(targets).size(), type.getSimpleName() + ": " + racks(targets));
      }
    }
  }

  /**
   * Five replicas over datacenters of two racks, one and one: the datacenter with a rack holding none of the block
   * takes a replica before a datacenter whose racks all hold one, so the block spans all four racks. (The rule's
   * "fewest replicas" alone gave the one-rack datacenters two each, one rack twice over, most of the time.)
   */
  @Test
  void aDatacenterWithARackLeftTakesTheReplicaBeforeOneWithoutWhenTheyHoldAsMany() {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf).addRack("/dc0/r0", 2, TB, 0).addRack("/dc0/r3", 2, TB, 0)
        .addRack("/dc1/r1", 3, TB, 0).addRack("/dc2/r2", 3, TB, 0);
    HierarchicalPlacementPolicy policy = t.policy(HierarchicalPlacementPolicy.class, conf);
    for (int i = 0; i < 200; i++) {
      Node writer = i % 2 == 0 ? null : t.nodes.get(i % t.nodes.size());
      DatanodeStorageInfo[] targets = choose(policy, 5, writer, null);
      assertEquals(4, racks(targets).size(), "writer " + writer + ": " + racks(targets));
    }
  }

  /**
   * A HOT block one replica over its factor, its excess an ARCHIVE replica alone on its rack while two DISK replicas
   * share another: the ARCHIVE replica goes (asking only the shared rack, the policy found no replica of the excess
   * type there and deleted nothing, leaving the block over-replicated for good). On two racks, as the default policy
   * does, nothing goes: the block would be left on one rack.
   */
  @Test
  void anExcessReplicaOfAnUnwantedTypeGoesEvenAloneOnItsRackUnlessTheBlockWouldBeLeftOnOneRack() {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf).addRack("/r1", 2, TB, 0).addRack("/r3", 1, TB, 0)
        .addRack("/r2", 1, TB, 0, StorageType.ARCHIVE);
    DatanodeStorageInfo disk1 = t.nodes.get(0).getStorageInfos()[0];
    DatanodeStorageInfo disk2 = t.nodes.get(1).getStorageInfos()[0];
    DatanodeStorageInfo disk3 = t.nodes.get(2).getStorageInfos()[0];
    DatanodeStorageInfo archive = t.nodes.get(3).getStorageInfos()[0];
    for (Class<? extends BlockPlacementPolicyDefault> type : List.of(OneReplicaPerRackPlacementPolicy.class,
        HierarchicalPlacementPolicy.class)) {
      BlockPlacementPolicyDefault policy = t.policy(type, conf);
      List<DatanodeStorageInfo> threeRacks = List.of(disk1, disk2, archive, disk3);
      assertEquals(List.of(archive), policy.chooseReplicasToDelete(new ArrayList<>(threeRacks),
          new ArrayList<>(threeRacks), 3, HOT.chooseExcess((short) 3, List.of(StorageType.DISK, StorageType.DISK,
              StorageType.ARCHIVE, StorageType.DISK)), null, null), type.getSimpleName());
      List<DatanodeStorageInfo> twoRacks = List.of(disk1, disk2, archive);
      assertEquals(List.of(), policy.chooseReplicasToDelete(new ArrayList<>(twoRacks), new ArrayList<>(twoRacks), 2,
          HOT.chooseExcess((short) 2, List.of(StorageType.DISK, StorageType.DISK, StorageType.ARCHIVE)), null, null),
          type.getSimpleName() + ": left on one rack otherwise");
    }
  }

  @Test
  void aWriterDatacenterValueThatIsNeitherIsRefusedNamingTheKey() {
    Configuration conf = conf();
    conf.set(PlacementKeys.WRITER_DATACENTER_REPLICAS.getName(), "most");
    SimulatedTopology t = new SimulatedTopology(conf).addRack("/dc1/r1", 2, TB, 0);
    RuntimeException e = assertThrows(RuntimeException.class, () -> t.policy(HierarchicalPlacementPolicy.class, conf));
    assertTrue(String.valueOf(e.getMessage()).contains(PlacementKeys.WRITER_DATACENTER_REPLICAS.getName())
        && e.getMessage().contains("one, half"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"SPACE", "STORAGE_TYPE", "DECOMMISSIONING", "EXCLUDED"})
  void aRackThatCannotTakeItsReplicaIsAFallbackCountedByCause(String name) {
    FallbackCause cause = FallbackCause.valueOf(name);
    Configuration conf = conf();
    // One snapshot for the whole test: a rack that starts decommissioning is still in it, as for up to
    // a refresh interval on a NameNode.
    conf.set(PlacementKeys.RACK_FILL_REFRESH.getName(), "1h");
    SimulatedTopology t = new SimulatedTopology(conf).addRack("/r1", 2, TB, 0).addRack("/r2", 2, TB, 0);
    if (cause == FallbackCause.SPACE) {
      t.addRack("/x", 2, TB, TB - BLOCK / 2);
    } else {
      t.addRack("/x", 2, TB, 0, cause == FallbackCause.STORAGE_TYPE ? StorageType.ARCHIVE : StorageType.DISK);
    }
    OneReplicaPerRackPlacementPolicy policy = t.policy(OneReplicaPerRackPlacementPolicy.class, conf);
    Node writer = t.nodes.get(0);
    assertEquals(0, policy.metrics().total());
    if (cause == FallbackCause.DECOMMISSIONING) {
      choose(policy, 3, writer, null);
      t.inRack("/x").forEach(DatanodeDescriptor::startDecommission);
    }
    Set<Node> excluded = cause == FallbackCause.EXCLUDED ? new HashSet<>(t.inRack("/x")) : null;
    for (int i = 0; i < 20; i++) {
      DatanodeStorageInfo[] targets = choose(policy, 3, writer, excluded);
      assertEquals(Set.of("/r1", "/r2"), racks(targets), "three racks, one unable to take a replica");
    }
    assertEquals(20, policy.metrics().fallbacks(cause), name);
    assertEquals(20, policy.metrics().total(), "no other cause counted");
  }

  @Test
  void aBlockLeftInOneDatacenterIsADatacenterFallback() {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf)
        .addRack("/dc1/r1", 2, TB, 0).addRack("/dc1/r2", 2, TB, 0).addRack("/dc1/r3", 2, TB, 0)
        .addRack("/dc2/r4", 2, TB, 0);
    HierarchicalPlacementPolicy policy = t.policy(HierarchicalPlacementPolicy.class, conf);
    Set<Node> excluded = new HashSet<>(t.inRack("/dc2/r4"));
    for (int i = 0; i < 20; i++) {
      DatanodeStorageInfo[] targets = choose(policy, 3, t.nodes.get(0), excluded);
      assertEquals(3, racks(targets).size(), "still one replica per rack");
    }
    assertEquals(20, policy.metrics().fallbacks(FallbackCause.DATACENTER));
    assertEquals(20, policy.metrics().total());
    choose(policy, 3, t.nodes.get(0), null);
    assertEquals(20, policy.metrics().total(), "with /dc2 usable again, no fallback");
  }
}
