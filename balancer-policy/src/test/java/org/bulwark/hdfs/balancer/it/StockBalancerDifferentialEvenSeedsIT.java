package org.bulwark.hdfs.balancer.it;

/** {@link StockBalancerDifferential} on the layouts of even seeds. */
class StockBalancerDifferentialEvenSeedsIT extends StockBalancerDifferential {
  @Override
  boolean runs(int seed) {
    return seed % 2 == 0;
  }
}
