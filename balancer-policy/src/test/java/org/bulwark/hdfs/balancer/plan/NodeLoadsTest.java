package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class NodeLoadsTest {
  private static final long MB = 1L << 20;

  /** Node 0 at 60 % may give 100 MB down to the 50 % average, node 1 at 40 % take 100 MB; threshold 10. */
  private static NodeLoads loads() {
    Classification c = Classification.classify(2, Arrays.asList(
        new NodeUsage(0, 1000 * MB, 600 * MB, 400 * MB, true),
        new NodeUsage(1, 1000 * MB, 400 * MB, 600 * MB, true)), 10, 1L << 40);
    return new NodeLoads(c, new long[] {c.maxBytesToMove(0), c.maxBytesToMove(1)});
  }

  @Test
  void aNodesLastBlockMayCrossItsRoom() {
    NodeLoads loads = loads();
    loads.add(0, 90 * MB);
    assertTrue(loads.fits(0, 60 * MB), "90 MB given of 100: a 60 MB block may be the last");
    loads.add(0, 60 * MB);
    // the order is the dispatcher's to choose: 60 and 39 MB, then the 90 MB block last, still fits
    assertTrue(loads.fits(0, 39 * MB), "60 + 39 MB, then the 90 MB block");
    assertFalse(loads.fits(0, 40 * MB), "60 + 40 MB leave no room for a last block");
  }

  @Test
  void noNodeEndsOutsideTheThresholdOnTheOtherSide() {
    NodeLoads loads = loads();
    assertTrue(loads.fits(1, 200 * MB), "40 % + 200 MB = 60 %: at the far edge of the threshold");
    assertFalse(loads.fits(1, 201 * MB), "past 60 %: outside on the other side of the average");
  }

  @Test
  void replacingTheLargestBlockWeighsTheNextLargest() {
    NodeLoads loads = loads();
    loads.add(0, 80 * MB);
    loads.add(0, 40 * MB);
    // without the 80 MB block: 40 + 70 less the largest (70) = 40 < 100
    assertTrue(loads.fitsReplacing(0, 80 * MB, 70 * MB));
    // without the 40 MB block: 80 + 70 less 80 = 70 < 100; with a 130 MB one, 210 MB given ends past 40 %
    assertTrue(loads.fitsReplacing(0, 40 * MB, 70 * MB));
    assertFalse(loads.fitsReplacing(0, 40 * MB, 130 * MB));
    loads.remove(0, 80 * MB);
    assertTrue(loads.fits(0, 90 * MB), "40 MB left given: a 90 MB block may be the last");
  }
}
