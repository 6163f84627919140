package org.bulwark.hdfs.balancer.it;

/** {@link StockBalancerDifferential} on the layouts of odd seeds. */
class StockBalancerDifferentialOddSeedsIT extends StockBalancerDifferential {
  @Override
  boolean runs(int seed) {
    return seed % 2 != 0;
  }
}
