package org.bulwark.hdfs.balancer.it;

/** {@link StockBalancerDifferential} on the layouts whose seed leaves 2 divided by 4. */
class StockBalancerDifferentialQuarter3IT extends StockBalancerDifferential {
  @Override
  boolean runs(int seed) {
    return seed % 4 == 2;
  }
}
