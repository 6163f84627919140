package org.bulwark.hdfs.placement.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class StripeSpreadRulesTest {

  @Test
  void rs32AndRs63SurviveADatacenterOverThreeButRs63NotOverTwo() {
    assertTrue(StripeSpreadRules.canSurviveDatacenterLoss(5, 2, 3));
    assertTrue(StripeSpreadRules.canSurviveDatacenterLoss(9, 3, 3));
    assertFalse(StripeSpreadRules.canSurviveDatacenterLoss(9, 3, 2));
    assertFalse(StripeSpreadRules.canSurviveDatacenterLoss(5, 2, 1));
    assertTrue(StripeSpreadRules.canSurviveDatacenterLoss(14, 4, 4));
  }

  @Test
  void smallDatacentersPushCellsIntoTheOthers() {
    assertEquals(2, StripeSpreadRules.leastPossibleMost(5, List.of(10, 10, 10)));
    assertEquals(2, StripeSpreadRules.leastPossibleMost(5, List.of(10, 1, 10)));
    assertEquals(3, StripeSpreadRules.leastPossibleMost(5, List.of(10, 1, 1)));
    assertEquals(3, StripeSpreadRules.leastPossibleMost(9, List.of(4, 4, 4)));
    assertEquals(5, StripeSpreadRules.leastPossibleMost(9, List.of(20, 20)));
    assertEquals(5, StripeSpreadRules.leastPossibleMost(5, List.of(2)), "too few nodes: the whole width");
  }

  @Test
  void mostInOneDatacenter() {
    assertEquals(3, StripeSpreadRules.mostInOneDatacenter(List.of("/a", "/b", "/a", "/c", "/a")));
    assertEquals(0, StripeSpreadRules.mostInOneDatacenter(List.of()));
  }

  @Test
  void movesNeverCrowdADatacenterMore() {
    List<String> cells = List.of("/a", "/a", "/b", "/b", "/c");
    assertTrue(StripeSpreadRules.moveKeepsSpread(cells, "/a", "/a"));
    assertTrue(StripeSpreadRules.moveKeepsSpread(cells, "/a", "/c"), "2,2,1 -> 1,2,2");
    assertFalse(StripeSpreadRules.moveKeepsSpread(cells, "/a", "/b"), "2,2,1 -> 1,3,1");
    assertFalse(StripeSpreadRules.moveKeepsSpread(cells, "/c", "/a"), "2,2,1 -> 3,2,0");
    assertFalse(StripeSpreadRules.moveKeepsSpread(cells, "/d", "/c"), "no cell in the source");
  }

  private static StripeSpreadRules.DatacenterCells dc(int cells, int racksUsed, int racks, int nodes) {
    return new StripeSpreadRules.DatacenterCells(cells, racksUsed, racks, nodes);
  }

  @Test
  void everyCopyAddedInTheDatacenterThatLacksCellsLowersTheCellsToMove() {
    // RS-6-3 written while /dc3 was away, 5/4/0 (each datacenter: 3 racks of 2 nodes); 3 per datacenter now.
    assertEquals(3, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(5, 3, 3, 6), dc(4, 3, 3, 6), dc(0, 0, 3, 6))));
    assertEquals(2, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(5, 3, 3, 6), dc(4, 3, 3, 6), dc(1, 1, 3, 6))));
    assertEquals(1, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(5, 3, 3, 6), dc(4, 3, 3, 6), dc(2, 2, 3, 6))));
    assertEquals(0, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(5, 3, 3, 6), dc(4, 3, 3, 6), dc(3, 3, 3, 6))),
        "copies enough where they lacked: spread once the excess copies go");
    // The excess copy of each round deleted from the crowded datacenter instead: the same count each step.
    assertEquals(2, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(4, 3, 3, 6), dc(4, 3, 3, 6), dc(1, 1, 3, 6))));
    assertEquals(1, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(3, 3, 3, 6), dc(4, 3, 3, 6), dc(2, 2, 3, 6))));
    assertEquals(0, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(3, 3, 3, 6), dc(3, 3, 3, 6), dc(3, 3, 3, 6))));
  }

  @Test
  void copiesAddedWhereTheyDoNotHelpLeaveTheCountAlone() {
    assertEquals(3, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(5, 3, 3, 6), dc(4, 3, 3, 6), dc(0, 0, 3, 6))));
    assertEquals(3, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(6, 3, 3, 6), dc(4, 3, 3, 6), dc(0, 0, 3, 6))),
        "one more in the crowded datacenter");
    assertEquals(3, StripeSpreadRules.cellsToMove(9, 3, List.of(dc(5, 3, 3, 6), dc(5, 3, 3, 6), dc(0, 0, 3, 6))),
        "one more in the other crowded one");
  }

  @Test
  void aCellAddedOnANewRackOfADatacenterWithRacksToSpareLowersTheCount() {
    // RS-3-2, 2 per datacenter: /dc1 holds 2 cells on one of its 3 racks.
    assertEquals(1, StripeSpreadRules.cellsToMove(5, 2, List.of(dc(2, 1, 3, 3), dc(2, 2, 2, 2), dc(1, 1, 1, 2))));
    assertEquals(0, StripeSpreadRules.cellsToMove(5, 2, List.of(dc(3, 2, 3, 3), dc(2, 2, 2, 2), dc(1, 1, 1, 2))),
        "the cell on the shared rack is the excess copy");
    assertEquals(1, StripeSpreadRules.cellsToMove(5, 2, List.of(dc(3, 1, 3, 3), dc(2, 2, 2, 2), dc(1, 1, 1, 2))),
        "on the same rack: no help");
  }

  @Test
  void zeroExactlyWhenTheGroupIsSpread() {
    assertEquals(0, StripeSpreadRules.cellsToMove(5, 2, List.of(dc(2, 2, 4, 4), dc(2, 1, 1, 2), dc(1, 1, 1, 2))),
        "a datacenter of one rack may hold its share there");
    assertEquals(1, StripeSpreadRules.cellsToMove(5, 2, List.of(dc(3, 3, 4, 4), dc(1, 1, 1, 2), dc(1, 1, 1, 2))));
    assertEquals(0, StripeSpreadRules.cellsToMove(9, 5, List.of(dc(5, 3, 3, 9), dc(4, 3, 3, 9))),
        "two datacenters: 5 in one is what the cluster forces");
    assertEquals(0, StripeSpreadRules.cellsToMove(5, 2, List.of(dc(2, 2, 3, 3), dc(2, 2, 3, 3), dc(0, 0, 3, 3))),
        "a missing cell is redundancy, not placement");
    assertEquals(0, StripeSpreadRules.cellsToMove(5, 2, List.of(dc(2, 1, 0, 0), dc(2, 2, 3, 3), dc(1, 1, 3, 3))),
        "cells on DataNodes in maintenance count where they are");
  }

  @Test
  void theCopyInTheMostCrowdedDatacenterThenRackGoesFirst() {
    Map<String, Integer> perRack = Map.of("/dc1/r1", 2, "/dc1/r2", 1, "/dc1/r3", 1, "/dc2/r4", 2, "/dc3/r7", 1);
    assertEquals(List.of(1), StripeSpreadRules.mostCrowded(List.of("/dc3/r7", "/dc1/r3"), perRack));
    assertEquals(List.of(0), StripeSpreadRules.mostCrowded(List.of("/dc1/r1", "/dc1/r3"), perRack));
    assertEquals(List.of(0, 1), StripeSpreadRules.mostCrowded(List.of("/dc1/r2", "/dc1/r3"), perRack));
    assertEquals(List.of(0), StripeSpreadRules.mostCrowded(List.of("/r1", "/r2"), Map.of("/r1", 2, "/r2", 1)),
        "racks one level deep: the rack decides");
  }
}
