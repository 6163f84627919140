package org.bulwark.hdfs.placement.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

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
}
