package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RackAddingBoundTest {

  @Test
  void theMaximumRoutesBlocksWhereAGreedyFirstPickWouldBlockOthers() {
    // Source 0's block fits racks 1 or 2, source 1's only rack 1; each rack takes one block.
    RackAddingBound bound = new RackAddingBound();
    bound.sourceBudget(0, 5);
    bound.sourceBudget(1, 5);
    bound.room(1, 1, true);
    bound.room(2, 1, true);
    bound.block(0, new int[] {1, 2}, false);
    bound.block(1, new int[] {1}, false);
    assertEquals(2, bound.max());
    assertEquals(1, bound.fromSource(0));
    assertEquals(1, bound.intoRack(2));
  }

  @Test
  void budgetsAndRoomsCap() {
    RackAddingBound bound = new RackAddingBound();
    bound.sourceBudget(0, 2);
    bound.room(1, 10, true);
    for (int i = 0; i < 5; i++) {
      bound.block(0, new int[] {1}, false);
    }
    assertEquals(2, bound.max(), "the source's budget");
    RackAddingBound room = new RackAddingBound();
    room.sourceBudget(0, 10);
    room.room(1, 3, false);
    for (int i = 0; i < 5; i++) {
      room.block(0, new int[] {1}, false);
    }
    assertEquals(3, room.max(), "the rack's room");
  }

  @Test
  void anAboveAverageSourceReachesOnlyUnderUtilisedRoom() {
    RackAddingBound bound = new RackAddingBound();
    bound.sourceBudget(0, 10);
    bound.room(1, 4, false);
    bound.room(1, 1, true);
    for (int i = 0; i < 5; i++) {
      bound.block(0, new int[] {1}, true);
    }
    assertEquals(1, bound.max());
  }
}
