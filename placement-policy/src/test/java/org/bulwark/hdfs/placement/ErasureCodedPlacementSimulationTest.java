package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyRackFaultTolerant;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.bulwark.hdfs.placement.rules.FallbackCause;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.StripeSpreadRules;
import org.junit.jupiter.api.Test;

/**
 * {@link HierarchicalErasureCodedPlacementPolicy} on simulated topologies, against the stock
 * {@code BlockPlacementPolicyRackFaultTolerant} (Hadoop's default for erasure-coded files) on the same
 * ones: new block groups, a reconstructed cell, moves, and clusters that cannot survive a datacenter.
 */
class ErasureCodedPlacementSimulationTest {
  private static final long TB = 1L << 40;
  private static final long CELL_BLOCK = 1L << 20;
  private static final BlockStoragePolicy HOT = BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy();

  /** Unequal datacenters: four racks in one, one rack in each of the others. */
  static SimulatedTopology unequalDatacenters(Configuration conf) {
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 1; r <= 4; r++) {
      t.addRack("/dc1/r" + r, 3, TB, 0);
    }
    return t.addRack("/dc2/r5", 3, TB, 0).addRack("/dc3/r6", 3, TB, 0);
  }

  static Configuration conf() {
    Configuration conf = new HdfsConfiguration();
    conf.setBoolean("dfs.namenode.redundancy.considerLoad", false);
    return conf;
  }

  static List<String> datacenters(DatanodeStorageInfo[] cells) {
    List<String> out = new ArrayList<>();
    for (DatanodeStorageInfo s : cells) {
      out.add(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation()));
    }
    return out;
  }

  /** Block groups of {@code width} cells of which {@code parity} parity that survive any one datacenter's loss. */
  static int surviving(BlockPlacementPolicyDefault policy, SimulatedTopology t, int width, int parity, int groups) {
    Random random = new Random(7);
    int survived = 0;
    for (int g = 0; g < groups; g++) {
      DatanodeStorageInfo[] cells = policy.chooseTarget("/ec/f", width, g % 2 == 0 ? null
          : t.nodes.get(random.nextInt(t.nodes.size())), new ArrayList<>(), false, null, CELL_BLOCK, HOT, null);
      assertEquals(width, cells.length);
      assertEquals(width, Arrays.stream(cells).map(DatanodeStorageInfo::getDatanodeDescriptor).distinct().count(),
          "one cell per DataNode");
      survived += StripeSpreadRules.mostInOneDatacenter(datacenters(cells)) <= parity ? 1 : 0;
    }
    return survived;
  }

  @Test
  void rs32AndRs63GroupsSurviveADatacenterWhereTheStockPolicyPutsTooManyCellsInTheBigOne() {
    Configuration conf = conf();
    SimulatedTopology t = unequalDatacenters(conf);
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    BlockPlacementPolicyRackFaultTolerant stock = t.policy(BlockPlacementPolicyRackFaultTolerant.class, conf);
    assertEquals(200, surviving(ours, t, 5, 2, 200), "RS-3-2");
    assertEquals(200, surviving(ours, t, 9, 3, 200), "RS-6-3");
    assertEquals(0, ours.metrics().total(), "nothing fell back");
    assertEquals(0, surviving(stock, t, 5, 2, 200), "stock RS-3-2: 5 of 6 racks, at least 3 in /dc1");
    assertEquals(0, surviving(stock, t, 9, 3, 200), "stock RS-6-3: at least 4 cells in /dc1");
  }

  @Test
  void ourGroupsSatisfyOurStatusAndAReconstructedCellKeepsTheSpread() {
    Configuration conf = conf();
    SimulatedTopology t = unequalDatacenters(conf);
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    for (int g = 0; g < 100; g++) {
      DatanodeStorageInfo[] cells = ours.chooseTarget("/ec/f", 5, null, new ArrayList<>(), false, null, CELL_BLOCK, HOT, null);
      DatanodeInfo[] locs = Arrays.stream(cells).map(DatanodeStorageInfo::getDatanodeDescriptor).toArray(DatanodeInfo[]::new);
      assertTrue(ours.verifyBlockPlacement(locs, 5).isPlacementPolicySatisfied(), Arrays.toString(locs));
      // A cell lost: the NameNode asks for one more target next to the four left.
      int lost = g % 5;
      List<DatanodeStorageInfo> left = new ArrayList<>(Arrays.asList(cells));
      left.remove(lost);
      DatanodeStorageInfo[] added = ours.chooseTarget("/ec/f", 1, null, left, false,
          new HashSet<>(Arrays.asList(cells[lost].getDatanodeDescriptor())), CELL_BLOCK, HOT, null);
      assertEquals(1, added.length);
      left.add(added[0]);
      assertTrue(StripeSpreadRules.mostInOneDatacenter(datacenters(left.toArray(new DatanodeStorageInfo[0]))) <= 2,
          "the reconstructed group survives a datacenter's loss too: " + left);
    }
    // A group crowded into /dc1 is reported for repair.
    DatanodeInfo[] crowded = t.nodes.subList(0, 5).stream().map(d -> (DatanodeInfo) d).toArray(DatanodeInfo[]::new);
    assertFalse(ours.verifyBlockPlacement(crowded, 5).isPlacementPolicySatisfied());
  }

  @Test
  void movesThatWouldCrowdADatacenterAreRefused() {
    Configuration conf = conf();
    SimulatedTopology t = unequalDatacenters(conf);
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    // Cells on /dc1/r1, /dc1/r2, /dc2/r5 (two nodes), /dc3/r6: 2, 2, 1.
    List<DatanodeInfo> group = new ArrayList<>(List.of(t.inRack("/dc1/r1").get(0), t.inRack("/dc1/r2").get(0),
        t.inRack("/dc2/r5").get(0), t.inRack("/dc2/r5").get(1), t.inRack("/dc3/r6").get(0)));
    DatanodeInfo into = t.inRack("/dc1/r3").get(0);
    List<DatanodeInfo> withTarget = new ArrayList<>(group);
    withTarget.add(into);
    assertFalse(ours.isMovable(withTarget, group.get(4), into), "/dc3's only cell into /dc1: 3 cells there");
    assertTrue(ours.isMovable(withTarget, group.get(0), into), "within /dc1, onto a rack the group lacks");
  }

  @Test
  void aClusterThatCannotSurviveADatacenterPlacesEvenlyAndCountsIt() {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 1; r <= 3; r++) {
      t.addRack("/dc1/r" + r, 3, TB, 0);
      t.addRack("/dc2/r" + (r + 3), 3, TB, 0);
    }
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    for (int g = 0; g < 50; g++) {
      DatanodeStorageInfo[] cells = ours.chooseTarget("/ec/f", 9, null, new ArrayList<>(), false, null, CELL_BLOCK, HOT, null);
      assertEquals(9, cells.length, "the write succeeds");
      assertEquals(5, StripeSpreadRules.mostInOneDatacenter(datacenters(cells)), "as even as two datacenters allow");
      assertEquals(6, Arrays.stream(cells).map(s -> s.getDatanodeDescriptor().getNetworkLocation()).distinct().count(),
          "every rack used");
    }
    assertEquals(50, ours.metrics().fallbacks(FallbackCause.DATACENTER), "RS-6-3 over two datacenters, each group counted");
  }

  @Test
  void oneDatacenterSpreadsOverRacksAsTheStockPolicyDoes() {
    Configuration conf = conf();
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 1; r <= 4; r++) {
      t.addRack("/r" + r, 3, TB, 0);
    }
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    for (int g = 0; g < 50; g++) {
      DatanodeStorageInfo[] cells = ours.chooseTarget("/ec/f", 9, null, new ArrayList<>(), false, null, CELL_BLOCK, HOT, null);
      List<String> racks = new ArrayList<>();
      for (DatanodeStorageInfo s : cells) {
        racks.add(s.getDatanodeDescriptor().getNetworkLocation());
      }
      assertEquals(3, StripeSpreadRules.mostInOneDatacenter(racks), "9 cells over 4 racks: 3, 2, 2, 2");
      assertTrue(ours.verifyBlockPlacement(Arrays.stream(cells).map(DatanodeStorageInfo::getDatanodeDescriptor)
          .toArray(DatanodeInfo[]::new), 9).isPlacementPolicySatisfied());
    }
  }

  /** Three datacenters of three racks of two DataNodes each. */
  static SimulatedTopology threeEqualDatacenters(Configuration conf) {
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int r = 1; r <= 9; r++) {
      t.addRack("/dc" + ((r + 2) / 3) + "/r" + r, 2, TB, 0);
    }
    return t;
  }

  /**
   * An RS-6-3 group written while /dc3 was away: 5 cells in /dc1 (racks r1, r1, r2, r2, r3), 4 in /dc2 (r4, r4,
   * r5, r6), one per DataNode.
   */
  static List<DatanodeStorageInfo> crowdedWhileDc3WasAway(SimulatedTopology t) {
    List<DatanodeStorageInfo> group = new ArrayList<>();
    for (String node : List.of("r1:0", "r1:1", "r2:0", "r2:1", "r3:0", "r4:0", "r4:1", "r5:0", "r6:0")) {
      String[] rackAndIndex = node.split(":");
      int r = Integer.parseInt(rackAndIndex[0].substring(1));
      group.add(t.inRack("/dc" + ((r + 2) / 3) + "/" + rackAndIndex[0]).get(Integer.parseInt(rackAndIndex[1]))
          .getStorageInfos()[0]);
    }
    return group;
  }

  static DatanodeInfo[] locations(List<DatanodeStorageInfo> storages) {
    return storages.stream().map(DatanodeStorageInfo::getDatanodeDescriptor).toArray(DatanodeInfo[]::new);
  }

  @Test
  void aCellAddedInTheReturnedDatacenterLowersWhatTheCrowdedGroupStillNeeds() {
    Configuration conf = conf();
    SimulatedTopology t = threeEqualDatacenters(conf);
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    List<DatanodeStorageInfo> group = crowdedWhileDc3WasAway(t);
    BlockPlacementStatus before = ours.verifyBlockPlacement(locations(group), 9);
    assertFalse(before.isPlacementPolicySatisfied(), "5/4/0 with /dc3 back: at most 3 per datacenter");
    group.add(t.inRack("/dc3/r7").get(0).getStorageInfos()[0]);
    BlockPlacementStatus after = ours.verifyBlockPlacement(locations(group), 9);
    assertTrue(after.getAdditionalReplicasRequired() < before.getAdditionalReplicasRequired(),
        "BlockManager keeps a repair's target only if it lowers the count: " + after.getErrorDescription());
    assertEquals(3, before.getAdditionalReplicasRequired(), "three cells must move to /dc3");
    assertEquals(2, after.getAdditionalReplicasRequired());
  }

  /**
   * The NameNode's repair of a crowded group, step by step as Hadoop 3.4.3 takes it: BlockManager asks for as
   * many targets as the status's additional count and keeps them only if the group with them needs fewer (or
   * is satisfied); ErasureCodingWork copies one cell, from a rack holding most of the group's cells, to the
   * first target; the two copies of that cell are then offered to chooseReplicasToDelete.
   */
  @Test
  void aCrowdedGroupIsSpreadByRepairsEachOfWhichTheNameNodeKeeps() {
    Configuration conf = conf();
    SimulatedTopology t = threeEqualDatacenters(conf);
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    List<DatanodeStorageInfo> group = crowdedWhileDc3WasAway(t);
    BlockPlacementStatus status = ours.verifyBlockPlacement(locations(group), 9);
    int rounds = 0;
    while (!status.isPlacementPolicySatisfied()) {
      assertTrue(++rounds <= 3, "three cells to move, one per round: " + group);
      int wanted = status.getAdditionalReplicasRequired();
      Set<Node> excluded = new HashSet<>(Arrays.asList(locations(group)));
      DatanodeStorageInfo[] targets = ours.chooseTarget("/ec/f", wanted, null, group, false, excluded, CELL_BLOCK, HOT,
          null);
      assertEquals(wanted, targets.length);
      List<DatanodeStorageInfo> withTargets = new ArrayList<>(group);
      withTargets.addAll(Arrays.asList(targets));
      BlockPlacementStatus judged = ours.verifyBlockPlacement(locations(withTargets), 9);
      assertTrue(judged.isPlacementPolicySatisfied() || judged.getAdditionalReplicasRequired() < wanted,
          "BlockManager.validateReconstructionWork keeps the targets " + Arrays.toString(targets) + " for " + group);
      DatanodeStorageInfo source = onMostCrowdedRack(group);
      group.add(targets[0]);
      List<DatanodeStorageInfo> deleted = ours.chooseReplicasToDelete(group, new ArrayList<>(List.of(targets[0], source)),
          1, new ArrayList<>(List.of(StorageType.DEFAULT)), null, null);
      assertEquals(List.of(source), deleted, "the crowded copy goes, the repair copy stays");
      group.remove(source);
      BlockPlacementStatus next = ours.verifyBlockPlacement(locations(group), 9);
      assertTrue(next.isPlacementPolicySatisfied() || next.getAdditionalReplicasRequired() < wanted,
          "a round is progress: " + group);
      status = next;
    }
    assertEquals(3, rounds);
    assertEquals(3, StripeSpreadRules.mostInOneDatacenter(datacenters(group.toArray(new DatanodeStorageInfo[0]))),
        group.toString());
  }

  /** The first cell (in group order) on a rack holding most cells of the group, as ErasureCodingWork picks it. */
  private static DatanodeStorageInfo onMostCrowdedRack(List<DatanodeStorageInfo> group) {
    Map<String, Integer> perRack = new HashMap<>();
    group.forEach(s -> perRack.merge(s.getDatanodeDescriptor().getNetworkLocation(), 1, Integer::sum));
    int most = perRack.values().stream().max(Integer::compare).orElse(0);
    return group.stream().filter(s -> perRack.get(s.getDatanodeDescriptor().getNetworkLocation()) == most)
        .findFirst().orElseThrow();
  }

  /**
   * For a striped group Hadoop offers the copies of one cell for deletion: the copy in the crowded datacenter
   * goes even where it is alone on its rack, not the repair copy in the datacenter that lacked cells.
   */
  @Test
  void ofACellsTwoCopiesTheOneInTheCrowdedDatacenterGoes() {
    Configuration conf = conf();
    SimulatedTopology t = threeEqualDatacenters(conf);
    HierarchicalErasureCodedPlacementPolicy ours = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf);
    List<DatanodeStorageInfo> group = crowdedWhileDc3WasAway(t);
    DatanodeStorageInfo crowded = t.inRack("/dc1/r3").get(0).getStorageInfos()[0];
    DatanodeStorageInfo repair = t.inRack("/dc3/r7").get(0).getStorageInfos()[0];
    group.add(repair);
    List<DatanodeStorageInfo> deleted = ours.chooseReplicasToDelete(group, new ArrayList<>(List.of(repair, crowded)), 1,
        new ArrayList<>(List.of(StorageType.DEFAULT)), null, null);
    assertEquals(List.of(crowded), deleted);
  }
}
