package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage.State;
import org.junit.jupiter.api.Test;

/**
 * How many racks and datacenters a block must span when its storage type is offered in only some of
 * them: as the NameNode asks (DataNode descriptors) and as fsck asks (each replica's storage).
 */
class StorageTypePlacesTest {
  private static final long TB = 1L << 40;

  /** Two datacenters of two racks, DISK nodes on every rack, archive-only nodes on /dc1's racks. */
  private static SimulatedTopology archiveInOneDatacenter() {
    SimulatedTopology t = new SimulatedTopology(conf());
    for (String rack : List.of("/dc1/r1", "/dc1/r2", "/dc2/r3", "/dc2/r4")) {
      t.addRack(rack, 2, TB, 0);
    }
    return t.addRack("/dc1/r1", 2, TB, 0, StorageType.ARCHIVE).addRack("/dc1/r2", 2, TB, 0, StorageType.ARCHIVE);
  }

  private static Configuration conf() {
    Configuration conf = new HdfsConfiguration();
    conf.setLong(PlacementKeys.RACK_FILL_REFRESH.getName(), 0);
    return conf;
  }

  private static boolean satisfied(BlockPlacementPolicyDefault policy, int replicas, DatanodeInfo... locs) {
    return policy.verifyBlockPlacement(locs, replicas).isPlacementPolicySatisfied();
  }

  @Test
  void aColdBlockSpansTheArchiveRacksOnly() {
    SimulatedTopology t = archiveInOneDatacenter();
    List<DatanodeDescriptor> r1 = t.inRack("/dc1/r1");
    List<DatanodeDescriptor> r2 = t.inRack("/dc1/r2");
    // Archive nodes were added after the DISK ones: the last two of each /dc1 rack.
    DatanodeDescriptor a1 = r1.get(2);
    DatanodeDescriptor a2 = r1.get(3);
    DatanodeDescriptor a3 = r2.get(2);
    for (Class<? extends BlockPlacementPolicyDefault> type : List.of(OneReplicaPerRackPlacementPolicy.class,
        HierarchicalPlacementPolicy.class)) {
      BlockPlacementPolicyDefault policy = t.policy(type, conf());
      assertTrue(satisfied(policy, 3, a1, a2, a3), type.getSimpleName() + ": both archive racks, one datacenter");
      assertFalse(satisfied(policy, 3, a1, a2, r1.get(3)), type.getSimpleName() + ": one archive rack of two");
    }
  }

  @Test
  void blocksOfATypeEveryRackOffersKeepTheFullRule() {
    SimulatedTopology t = archiveInOneDatacenter();
    DatanodeDescriptor disk1 = t.inRack("/dc1/r1").get(0);
    DatanodeDescriptor disk2 = t.inRack("/dc1/r2").get(0);
    DatanodeDescriptor disk3 = t.inRack("/dc2/r3").get(0);
    DatanodeDescriptor disk4 = t.inRack("/dc2/r3").get(1);
    BlockPlacementPolicyDefault perRack = t.policy(OneReplicaPerRackPlacementPolicy.class, conf());
    assertFalse(satisfied(perRack, 3, disk1, disk3, disk4), "DISK is on 4 racks: 3 are required");
    assertTrue(satisfied(perRack, 3, disk1, disk2, disk3));
    BlockPlacementPolicyDefault hierarchical = t.policy(HierarchicalPlacementPolicy.class, conf());
    assertFalse(satisfied(hierarchical, 3, disk1, t.inRack("/dc1/r1").get(1), disk2), "DISK is in both datacenters");
    assertTrue(satisfied(hierarchical, 3, disk1, disk2, disk3));
  }

  @Test
  void fsckGivesEachReplicasOwnStorageType() {
    SimulatedTopology t = archiveInOneDatacenter();
    DatanodeDescriptor disk1 = t.inRack("/dc1/r1").get(0);
    DatanodeDescriptor disk2 = t.inRack("/dc1/r2").get(0);
    BlockPlacementPolicyDefault hierarchical = t.policy(HierarchicalPlacementPolicy.class, conf());
    // The same DataNodes: as ARCHIVE replicas the block cannot leave /dc1, as DISK replicas it can.
    assertTrue(satisfied(hierarchical, 2, stored(disk1, StorageType.ARCHIVE), stored(disk2, StorageType.ARCHIVE)));
    assertFalse(satisfied(hierarchical, 2, stored(disk1, StorageType.DISK), stored(disk2, StorageType.DISK)));
  }

  @Test
  void aClusterOfOneStorageTypeAsksForEveryRack() {
    SimulatedTopology t = new SimulatedTopology(conf());
    for (int r = 1; r <= 5; r++) {
      t.addRack("/r" + r, 2, TB, 0, StorageType.ARCHIVE);
    }
    BlockPlacementPolicyDefault perRack = t.policy(OneReplicaPerRackPlacementPolicy.class, conf());
    assertFalse(satisfied(perRack, 3, t.inRack("/r1").get(0), t.inRack("/r1").get(1), t.inRack("/r2").get(0)));
    assertFalse(satisfied(perRack, 3), "no replica yet: any type could come");
  }

  @Test
  void anErasureCodedGroupIsMeasuredAgainstTheDatacentersOfferingItsType() {
    // Three datacenters with DISK; archive nodes in /dc1 and /dc2 only. A COLD RS-3-2 group can put
    // 3 cells in one of those two at best; on DISK the even share is 2 per datacenter.
    SimulatedTopology t = new SimulatedTopology(conf());
    for (String rack : List.of("/dc1/r1", "/dc1/r2", "/dc2/r3", "/dc2/r4", "/dc3/r5", "/dc3/r6")) {
      t.addRack(rack, 2, TB, 0);
    }
    for (String rack : List.of("/dc1/r1", "/dc1/r2", "/dc2/r3", "/dc2/r4")) {
      t.addRack(rack, 2, TB, 0, StorageType.ARCHIVE);
    }
    BlockPlacementPolicyDefault ec = t.policy(HierarchicalErasureCodedPlacementPolicy.class, conf());
    DatanodeInfo[] archive = {t.inRack("/dc1/r1").get(2), t.inRack("/dc1/r2").get(2), t.inRack("/dc1/r1").get(3),
        t.inRack("/dc2/r3").get(2), t.inRack("/dc2/r4").get(2)};
    assertTrue(satisfied(ec, 5, archive), "3 + 2 cells over the two archive datacenters, every rack used");
    DatanodeInfo[] disk = {t.inRack("/dc1/r1").get(0), t.inRack("/dc1/r2").get(0), t.inRack("/dc1/r1").get(1),
        t.inRack("/dc2/r3").get(0), t.inRack("/dc2/r4").get(0)};
    assertFalse(satisfied(ec, 5, disk), "on DISK /dc3 can take its share");
    DatanodeInfo[] crowded = {t.inRack("/dc1/r1").get(2), t.inRack("/dc1/r1").get(3), t.inRack("/dc1/r2").get(2),
        t.inRack("/dc1/r2").get(3), t.inRack("/dc2/r3").get(2)};
    assertFalse(satisfied(ec, 5, crowded), "4 cells in /dc1 while /dc2 offers ARCHIVE too");
  }

  @Test
  void aRepairCopyOnADataNodeWithDiskTooCountsAsTheTypeTheReplicasShare() {
    // ARCHIVE on /r1 (archive nodes) and on /r2 (DataNodes with DISK and ARCHIVE volumes); DISK on /r2-/r4.
    SimulatedTopology t = new SimulatedTopology(conf());
    t.addRack("/r1", 3, TB, 0, StorageType.ARCHIVE).addRack("/r2", 2, TB, 0, StorageType.ARCHIVE);
    for (DatanodeDescriptor mixed : t.inRack("/r2")) {
      BlockManagerTestUtil.updateStorage(mixed, new DatanodeStorage("disk-" + mixed.getHostName(), State.NORMAL, StorageType.DISK));
    }
    t.addRack("/r3", 2, TB, 0).addRack("/r4", 2, TB, 0);
    List<DatanodeDescriptor> r1 = t.inRack("/r1");
    DatanodeDescriptor mixed = t.inRack("/r2").get(0);
    BlockPlacementPolicyDefault perRack = t.policy(OneReplicaPerRackPlacementPolicy.class, conf());
    BlockPlacementStatus before = perRack.verifyBlockPlacement(new DatanodeInfo[] {r1.get(0), r1.get(1), r1.get(2)}, 3);
    assertFalse(before.isPlacementPolicySatisfied(), "a COLD block on one of the two archive racks");
    BlockPlacementStatus after = perRack.verifyBlockPlacement(new DatanodeInfo[] {r1.get(0), r1.get(1), r1.get(2), mixed}, 3);
    assertTrue(after.isPlacementPolicySatisfied() || after.getAdditionalReplicasRequired() < before.getAdditionalReplicasRequired(),
        "the NameNode keeps a repair only if it lowers the count: the copy on /r2 must");
    assertTrue(satisfied(perRack, 3, r1.get(0), r1.get(1), mixed), "both archive racks");
    assertFalse(satisfied(perRack, 3, t.inRack("/r3").get(0), t.inRack("/r3").get(1), mixed),
        "DISK replicas (sharing DISK, offered on three racks) must span three");
  }

  @Test
  void aFailedVolumeOffersNothing() {
    SimulatedTopology t = archiveInOneDatacenter();
    // A DISK DataNode of /dc2/r3 with an ARCHIVE volume that failed: /dc2 still offers no ARCHIVE.
    BlockManagerTestUtil.updateStorage(t.inRack("/dc2/r3").get(0), new DatanodeStorage("failed-archive", State.FAILED,
        StorageType.ARCHIVE));
    BlockPlacementPolicyDefault hierarchical = t.policy(HierarchicalPlacementPolicy.class, conf());
    assertTrue(satisfied(hierarchical, 3, t.inRack("/dc1/r1").get(2), t.inRack("/dc1/r1").get(3), t.inRack("/dc1/r2").get(2)));
  }

  @Test
  void theTypeOfferedOnFewestRacksIsPlacedFirstOnRacksNoOtherWantedTypeNeeds() {
    // DISK on /r1-/r4, ARCHIVE on /r1 and /r5 only (archive-only DataNodes), SSD nowhere.
    SimulatedTopology t = new SimulatedTopology(conf());
    for (String rack : List.of("/r1", "/r2", "/r3", "/r4")) {
      t.addRack(rack, 2, TB, 0);
    }
    t.addRack("/r1", 1, TB, 0, StorageType.ARCHIVE).addRack("/r5", 1, TB, 0, StorageType.ARCHIVE);
    StorageTypePlaces places = t.policy(OneReplicaPerRackPlacementPolicy.class, conf()).snapshot().storage;
    Set<StorageType> warm = EnumSet.of(StorageType.DISK, StorageType.ARCHIVE);
    assertEquals(StorageType.ARCHIVE, places.placedFirst(warm), "ARCHIVE: 2 racks, DISK: 4");
    assertEquals(null, places.placedFirst(EnumSet.of(StorageType.DISK)), "one type: nothing to order");
    assertEquals(null, places.placedFirst(EnumSet.of(StorageType.DISK, StorageType.SSD)), "SSD is offered nowhere");
    assertEquals(List.of("/r5"), places.leastContested(List.of("/r1", "/r5"), StorageType.ARCHIVE, warm),
        "/r1 offers DISK too, which the block still wants");
    assertEquals(List.of("/r1", "/r5"), places.leastContested(List.of("/r1", "/r5"), StorageType.ARCHIVE,
        EnumSet.of(StorageType.ARCHIVE)), "nothing else wanted: every rack offering ARCHIVE");
    assertEquals(List.of("/r1"), places.leastContested(List.of("/r1"), StorageType.ARCHIVE, warm),
        "each rack contested: all of them");
    SimulatedTopology uniform = new SimulatedTopology(conf()).addRack("/r1", 2, TB, 0).addRack("/r2", 2, TB, 0);
    assertEquals(null, uniform.policy(OneReplicaPerRackPlacementPolicy.class, conf()).snapshot().storage
        .placedFirst(warm), "every type offered on every rack");
  }

  private static DatanodeInfo stored(DatanodeDescriptor dn, StorageType type) {
    return new DatanodeInfoWithStorage(dn, "storage-" + type, type);
  }
}
