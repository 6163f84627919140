package org.bulwark.hdfs.balancer.it;

/** {@link StockBalancerDifferential} on the layouts whose seed leaves 3 divided by 4. */
class StockBalancerDifferentialQuarter4IT extends StockBalancerDifferential {
  @Override
  boolean runs(int seed) {
    return seed % 4 == 3;
  }
}
