package org.bulwark.hdfs.balancer.it;

/** {@link StockBalancerDifferential} on the layouts whose seed leaves 1 divided by 4. */
class StockBalancerDifferentialQuarter2IT extends StockBalancerDifferential {
  @Override
  boolean runs(int seed) {
    return seed % 4 == 1;
  }
}
