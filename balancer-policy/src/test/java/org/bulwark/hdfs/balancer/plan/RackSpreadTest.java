package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RackSpreadTest {
  // nodes 0,1,2 on rack 0; 3,4 on rack 1; 5 on rack 2
  private final RackSpread spread = new RackSpread(new int[] {0, 0, 0, 1, 1, 2});

  @Test
  void countsDistinctRacks() {
    assertEquals(1, spread.racks(new int[] {0, 1, 2}));
    assertEquals(2, spread.racks(new int[] {0, 3, 4}));
    assertEquals(3, spread.racks(new int[] {0, 3, 5}));
  }

  @Test
  void movingAReplicaOffADoubledRackToANewRackAddsOne() {
    assertEquals(1, spread.delta(new int[] {0, 3, 4}, 3, 5));
    assertTrue(spread.sourceRackShared(new int[] {0, 3, 4}, 3));
  }

  @Test
  void movingTheLoneReplicaOfARackKeepsTheCount() {
    assertEquals(0, spread.delta(new int[] {0, 3, 4}, 0, 5));
    assertFalse(spread.sourceRackShared(new int[] {0, 3, 4}, 0));
  }

  @Test
  void movingWithinARackKeepsTheCount() {
    assertEquals(0, spread.delta(new int[] {0, 3, 4}, 0, 1));
  }

  @Test
  void movingTheLoneReplicaOntoAnotherReplicasRackLowersIt() {
    assertEquals(-1, spread.delta(new int[] {0, 3, 5}, 5, 4));
    assertFalse(spread.rackIsNew(new int[] {0, 3, 5}, 4));
  }
}
