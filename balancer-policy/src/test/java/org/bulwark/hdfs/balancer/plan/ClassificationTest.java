package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ClassificationTest {
  private static final long GB = 1L << 30;

  @Test
  void classesAndAmountsFollowTheStockDatanodePolicy() {
    // capacities 100 GB, used 70/52/45/20 -> average 46.75 %
    Classification c = Classification.classify(4, Arrays.asList(
        new NodeUsage(0, 100 * GB, 70 * GB, 30 * GB, true),
        new NodeUsage(1, 100 * GB, 52 * GB, 48 * GB, true),
        new NodeUsage(2, 100 * GB, 45 * GB, 55 * GB, true),
        new NodeUsage(3, 100 * GB, 20 * GB, 80 * GB, true)), 10, 10 * GB);

    assertEquals(46.75, c.average(), 1e-9);
    assertEquals(UtilisationClass.OVER_UTILISED, c.classOf(0));
    assertEquals(UtilisationClass.ABOVE_AVERAGE, c.classOf(1));
    assertEquals(UtilisationClass.BELOW_AVERAGE, c.classOf(2));
    assertEquals(UtilisationClass.UNDER_UTILISED, c.classOf(3));
    // up to the average, capped by max-size-to-move
    assertEquals(10 * GB, c.maxBytesToMove(0));
    assertEquals((long) (5.25 * GB), c.maxBytesToMove(1));
    assertEquals((long) (1.75 * GB), c.maxBytesToMove(2));
    // bytes left: max(over excess beyond threshold, under shortfall beyond threshold)
    assertEquals(Math.max((long) (13.25 * GB), (long) (16.75 * GB)), c.bytesLeftToMove());
  }

  @Test
  void aTargetTakesNoMoreThanItsRemainingSpace() {
    Classification c = Classification.classify(2, Arrays.asList(
        new NodeUsage(0, 100 * GB, 90 * GB, 10 * GB, true),
        new NodeUsage(1, 100 * GB, 10 * GB, 3 * GB, true)), 10, 100 * GB);
    assertEquals(3 * GB, c.maxBytesToMove(1));
  }

  @Test
  void aNodeAboveAverageThatIsNotANamedSourceTakesNoPart() {
    Classification c = Classification.classify(3, Arrays.asList(
        new NodeUsage(0, 100 * GB, 90 * GB, 10 * GB, false),
        new NodeUsage(1, 100 * GB, 10 * GB, 90 * GB, false),
        new NodeUsage(2, 100 * GB, 60 * GB, 40 * GB, true)), 10, 100 * GB);
    assertEquals(UtilisationClass.NOT_PARTICIPATING, c.classOf(0));
    assertEquals(UtilisationClass.UNDER_UTILISED, c.classOf(1));
    assertEquals(UtilisationClass.ABOVE_AVERAGE, c.classOf(2));
  }

  @Test
  void balancedClusterHasNothingLeftToMove() {
    Classification c = Classification.classify(2, Arrays.asList(
        new NodeUsage(0, 100 * GB, 55 * GB, 45 * GB, true),
        new NodeUsage(1, 100 * GB, 46 * GB, 54 * GB, true)), 10, 100 * GB);
    assertEquals(0, c.bytesLeftToMove());
    assertEquals(0, c.bytesOutside(0, 10));
    assertEquals((long) (0.5 * GB), c.bytesOutside(0, 4), 2);
  }
}
