package org.bulwark.hdfs.placement.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

class DatacenterSpreadRulesTest {
  private static final List<String> DCS = List.of("/dc1", "/dc2", "/dc3");
  private final Random random = new Random(5);

  @Test
  void secondAndThirdReplicasShareOneRemoteDatacenter() {
    String second = DatacenterSpreadRules.next(1, 1, "/dc1", Map.of("/dc1", 1), DCS, dc -> 0.5, random);
    assertTrue(second.equals("/dc2") || second.equals("/dc3"), second);
    assertEquals(second, DatacenterSpreadRules.next(2, 1, "/dc1", Map.of("/dc1", 1, second, 1), DCS, dc -> 0.5, random));
  }

  @Test
  void theRemoteDatacenterIsTheLessFilledOfTwoDrawn() {
    Map<String, Double> fill = Map.of("/dc1", 0.1, "/dc2", 0.9, "/dc3", 0.2);
    for (int i = 0; i < 50; i++) {
      assertEquals("/dc3", DatacenterSpreadRules.next(1, 1, "/dc1", Map.of("/dc1", 1), DCS, fill::get, random));
    }
  }

  @Test
  void remoteCopiesSpreadOverEquallyFilledDatacenters() {
    Map<String, Integer> picks = new HashMap<>();
    for (int i = 0; i < 1000; i++) {
      picks.merge(DatacenterSpreadRules.next(1, 1, "/dc1", Map.of("/dc1", 1), DCS, dc -> 0.5, random), 1, Integer::sum);
    }
    assertFalse(picks.containsKey("/dc1"));
    assertTrue(picks.get("/dc2") > 300 && picks.get("/dc3") > 300, picks.toString());
  }

  @Test
  void laterReplicasGoWhereTheBlockHasFewest() {
    assertEquals("/dc1", DatacenterSpreadRules.next(3, 1, "/dc1", Map.of("/dc1", 1, "/dc2", 2), List.of("/dc1", "/dc2"), dc -> 0.5, random));
    assertEquals("/dc3", DatacenterSpreadRules.next(3, 1, "/dc1", Map.of("/dc1", 1, "/dc2", 2), DCS, dc -> 0.5, random));
  }

  @Test
  void noRemoteDatacenterLeavesTheChoiceOpen() {
    assertNull(DatacenterSpreadRules.next(1, 1, "/dc1", Map.of("/dc1", 1), List.of("/dc1"), dc -> 0.5, random));
    assertNull(DatacenterSpreadRules.next(1, 1, "/dc1", Map.of("/dc1", 1), List.of(), dc -> 0.5, random));
  }

  @Test
  void movesKeepDatacenters() {
    List<String> racks = List.of("/dc1/r1", "/dc2/r3", "/dc2/r4");
    assertTrue(DatacenterSpreadRules.moveKeepsDatacenters(racks, "/dc1/r1", "/dc1/r2"));
    assertTrue(DatacenterSpreadRules.moveKeepsDatacenters(racks, "/dc2/r3", "/dc1/r2"));
    assertFalse(DatacenterSpreadRules.moveKeepsDatacenters(racks, "/dc1/r1", "/dc2/r5"));
    assertEquals("/", RackFill.datacenterOf("/r1"));
    assertEquals("/dc1", RackFill.datacenterOf("/dc1/r1"));
  }

  @Test
  void halfKeepsCeilOfHalfTheReplicasInTheWritersDatacenter() {
    assertEquals(1, WriterDatacenterReplicas.ONE.count(3));
    assertEquals(2, WriterDatacenterReplicas.HALF.count(3));
    assertEquals(2, WriterDatacenterReplicas.HALF.count(4));
    assertEquals(1, WriterDatacenterReplicas.HALF.count(2));
    // RF 3, half: replica 2 stays with the writer, replica 3 goes remote.
    int local = WriterDatacenterReplicas.HALF.count(3);
    assertEquals("/dc1", DatacenterSpreadRules.next(1, local, "/dc1", Map.of("/dc1", 1), DCS, dc -> 0.5, random));
    assertTrue(!"/dc1".equals(DatacenterSpreadRules.next(2, local, "/dc1", Map.of("/dc1", 2), DCS, dc -> 0.5, random)));
    // RF 4, half: replicas 3 and 4 share one remote datacenter.
    local = WriterDatacenterReplicas.HALF.count(4);
    assertEquals("/dc3", DatacenterSpreadRules.next(3, local, "/dc1", Map.of("/dc1", 2, "/dc3", 1), DCS, dc -> 0.5, random));
    // A writer's datacenter that cannot take more sends the replica where the block has fewest.
    assertEquals("/dc2", DatacenterSpreadRules.next(1, 2, "/dc1", Map.of("/dc1", 1, "/dc3", 1), List.of("/dc2", "/dc3"),
        dc -> 0.5, random));
  }

  @Test
  void favoredNodesLeaveAReplicaForAnotherDatacenter() {
    assertTrue(DatacenterSpreadRules.favoredLeavesAnotherDatacenter("/dc1/r2", List.of("/dc1/r1"), 3, 3));
    assertFalse(DatacenterSpreadRules.favoredLeavesAnotherDatacenter("/dc1/r3", List.of("/dc1/r1", "/dc1/r2"), 3, 3),
        "a third favored node in /dc1 would leave the block there");
    assertTrue(DatacenterSpreadRules.favoredLeavesAnotherDatacenter("/dc2/r4", List.of("/dc1/r1", "/dc1/r2"), 3, 3));
    assertTrue(DatacenterSpreadRules.favoredLeavesAnotherDatacenter("/dc1/r3", List.of("/dc1/r1", "/dc1/r2"), 3, 1),
        "one datacenter: no datacenter rule");
    assertTrue(DatacenterSpreadRules.favoredLeavesAnotherDatacenter("/dc1/r1", List.of(), 1, 3), "RF 1");
  }
}
