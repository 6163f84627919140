package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.SkewedCluster.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.junit.jupiter.api.Test;

/** {@code -spreadRacks}: on a balanced cluster, rack-adding moves only, bounded, inside the band. */
class SpreadRacksIT {
  @Test
  void raisesBlocksToThreeRacksGraduallyWithoutUnbalancing() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2,/r4:2")
        .capacity(128 * MB).build()) {
      SkewedCluster data = new SkewedCluster(c, 2 * MB);
      // writers on every DataNode: default placement, balanced, every block on 2 racks
      data.write(c.dataNodes(), Double.MAX_VALUE, 40);
      Map<Integer, Integer> before = data.blocksByRacks();
      assertEquals(80, (int) before.get(2), before.toString());

      BalancerRuns first = BalancerRuns.run(c.conf(), "-policy", "availability", "-spreadRacks", "-maxBytes", "20m");
      assertEquals(0, first.exit, first.console);
      assertTrue(first.console.contains("block moves                  20: 20 adding a rack (100.0%)"), first.console);
      data.awaitMovesSettled();
      Map<Integer, Integer> partly = data.blocksByRacks();
      assertEquals(20, (int) partly.get(3), "bounded by -maxBytes 20m: " + partly);

      BalancerRuns second = BalancerRuns.run(c.conf(), "-policy", "availability", "-spreadRacks", "-threshold", "10");
      assertEquals(0, second.exit, second.console);
      data.awaitMovesSettled();
      Map<Integer, Integer> after = data.blocksByRacks();
      assertTrue(after.getOrDefault(3, 0) >= 70, "most blocks now on 3 racks: " + after + "\n" + second.console);
      assertEquals(0, after.getOrDefault(1, 0));

      data.assertSettledWithinThreshold(10, second.console);
      data.verifyAll();
    }
  }
}
