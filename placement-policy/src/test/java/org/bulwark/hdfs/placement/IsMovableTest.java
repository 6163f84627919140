package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.DatanodeInfoBuilder;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code isMovable} asked as Hadoop's balancer and mover ask it: the block's locations <em>with the
 * target added</em> (Dispatcher#isGoodBlockCandidateForPlacementPolicy), and as some callers do, without.
 * A block on /dc1/r1, /dc2/r4 and /dc2/r6.
 */
class IsMovableTest {
  private static DatanodeInfo dn(String name, String rack) {
    int n = name.hashCode() & 0xff;
    return new DatanodeInfoBuilder().setNodeID(new DatanodeID("10.0.0." + n, name, "uuid-" + name, 9866, 9864, 9865, 9867))
        .setNetworkLocation(rack).build();
  }

  private static final DatanodeInfo DN1 = dn("dn1", "/dc1/r1");
  private static final DatanodeInfo DN4 = dn("dn4", "/dc2/r4");
  private static final DatanodeInfo DN6 = dn("dn6", "/dc2/r6");
  private static final List<DatanodeInfo> HOLDERS = List.of(DN1, DN4, DN6);

  private static BlockPlacementPolicy policy(String name) {
    return "hierarchical".equals(name) ? new HierarchicalPlacementPolicy() : new OneReplicaPerRackPlacementPolicy();
  }

  @ParameterizedTest(name = "{0}: {1} -> {2} on {3}")
  @CsvSource({
      // a replica alone on its rack may go to a rack the block is not on
      "one-per-rack, dn6, dn5, /dc2/r5, true",
      "hierarchical, dn6, dn5, /dc2/r5, true",
      "hierarchical, dn6, dn2, /dc1/r2, true",
      // or within its rack
      "one-per-rack, dn6, dn6b, /dc2/r6, true",
      "hierarchical, dn6, dn6b, /dc2/r6, true",
      // not to a rack that already holds a replica of the block
      "one-per-rack, dn6, dn4b, /dc2/r4, false",
      "hierarchical, dn6, dn1b, /dc1/r1, false",
      // hierarchical: not out of the only datacenter of one of its replicas
      "one-per-rack, dn1, dn5, /dc2/r5, true",
      "hierarchical, dn1, dn5, /dc2/r5, false",
  })
  void movesAreJudgedOnTheReplicasBeforeTheMove(String policy, String source, String target, String targetRack,
      boolean movable) {
    DatanodeInfo from = HOLDERS.stream().filter(d -> d.getHostName().equals(source)).findFirst().orElseThrow();
    DatanodeInfo to = dn(target, targetRack);
    List<DatanodeInfo> withTarget = new ArrayList<>(HOLDERS);
    withTarget.add(to);
    assertEquals(movable, policy(policy).isMovable(withTarget, from, to), "locations with the target, as the balancer asks");
    assertEquals(movable, policy(policy).isMovable(new ArrayList<>(HOLDERS), from, to), "locations without the target");
  }
}
