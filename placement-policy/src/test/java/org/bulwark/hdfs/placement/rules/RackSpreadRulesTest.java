package org.bulwark.hdfs.placement.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class RackSpreadRulesTest {

  @Test
  void oneReplicaPerRackWhileRacksSufficeThenEvenly() {
    assertEquals(1, RackSpreadRules.maxReplicasPerRack(3, 4));
    assertEquals(1, RackSpreadRules.maxReplicasPerRack(3, 3));
    assertEquals(2, RackSpreadRules.maxReplicasPerRack(3, 2));
    assertEquals(2, RackSpreadRules.maxReplicasPerRack(4, 3));
    assertEquals(3, RackSpreadRules.maxReplicasPerRack(7, 3));
    assertEquals(3, RackSpreadRules.maxReplicasPerRack(3, 1));
    assertEquals(1, RackSpreadRules.maxReplicasPerRack(1, 5));
    assertEquals(2, RackSpreadRules.maxReplicasPerRack(2, 0), "no racks known yet: no limit below the replicas");
  }

  @Test
  void requiredRacksIsReplicasCappedByRacks() {
    assertEquals(3, RackSpreadRules.requiredRacks(3, 10));
    assertEquals(2, RackSpreadRules.requiredRacks(3, 2));
    assertEquals(1, RackSpreadRules.requiredRacks(3, 0));
    assertEquals(1, RackSpreadRules.requiredRacks(1, 4));
  }

  @Test
  void movesMayNotLowerTheRackCount() {
    List<String> spread = List.of("/a", "/b", "/c");
    assertTrue(RackSpreadRules.moveKeepsRacks(spread, "/a", "/d"), "to a new rack");
    assertTrue(RackSpreadRules.moveKeepsRacks(spread, "/a", "/a"), "within its rack");
    assertFalse(RackSpreadRules.moveKeepsRacks(spread, "/a", "/b"), "onto a rack that already has one");

    List<String> stacked = List.of("/a", "/a", "/b");
    assertTrue(RackSpreadRules.moveKeepsRacks(stacked, "/a", "/c"), "adds a rack");
    assertTrue(RackSpreadRules.moveKeepsRacks(stacked, "/a", "/b"), "2 racks before and after");
    assertFalse(RackSpreadRules.moveKeepsRacks(stacked, "/b", "/a"), "empties rack /b");
    assertFalse(RackSpreadRules.moveKeepsRacks(stacked, "/z", "/c"), "source holds no replica");
  }

  @Test
  void leastUsedRacksSkipExhaustedAndFullRacks() {
    List<String> racks = List.of("/a", "/b", "/c", "/d");
    assertEquals(List.of("/c", "/d"), RackSpreadRules.leastUsedRacks(racks, Map.of("/a", 1, "/b", 1), Set.of(), 1));
    assertEquals(List.of("/d"), RackSpreadRules.leastUsedRacks(racks, Map.of("/a", 1, "/b", 1), Set.of("/c"), 1));
    assertEquals(List.of(), RackSpreadRules.leastUsedRacks(racks, Map.of("/a", 1, "/b", 1), Set.of("/c", "/d"), 1));
    assertEquals(List.of("/a", "/b"), RackSpreadRules.leastUsedRacks(racks, Map.of("/a", 1, "/b", 1), Set.of("/c", "/d"), 2),
        "with racks short, the next replica goes to a rack holding one");
    assertEquals(List.of("/b"), RackSpreadRules.leastUsedRacks(racks, Map.of("/a", 2, "/b", 1, "/c", 2, "/d", 2), Set.of(), 3));
  }

  @Test
  void aRackHasRoomBelowItsLimit() {
    assertTrue(RackSpreadRules.rackHasRoom("/r1", List.of("/r2", "/r3"), 1));
    assertFalse(RackSpreadRules.rackHasRoom("/r2", List.of("/r2", "/r3"), 1));
    assertTrue(RackSpreadRules.rackHasRoom("/r2", List.of("/r2", "/r3"), 2));
  }
}
