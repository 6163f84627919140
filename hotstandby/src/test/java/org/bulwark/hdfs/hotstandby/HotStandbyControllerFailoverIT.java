package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The active NameNode dies: another becomes active, with 2 and with 3 NameNodes, and never two at once. */
@Tag("compat")
class HotStandbyControllerFailoverIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void killedActiveNameNodeIsReplacedWithTwoNameNodes() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.startControllers();
      int first = ha.awaitActive(WAIT);
      ha.killNameNode(first);
      int second = ha.awaitActiveOtherThan(first, WAIT);
      assertNotEquals(first, second);
      assertEquals(1, ha.controller(second).metrics().failovers());
      // The dead NameNode comes back as standby and the active one stays.
      ha.restartNameNode(first);
      org.bulwark.hdfs.testkit.Await.until("restarted NameNode's controller stands by", WAIT,
          () -> ha.controller(first).state() == org.bulwark.hdfs.hotstandby.controller.ControllerState.STANDBY);
      assertEquals(second, ha.activeNameNode());
      assertTrue(ha.splitBrain.samples() > 100, "split-brain checker sampled");
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  @Test
  void killedActiveNameNodeIsReplacedTwiceWithThreeNameNodes() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(3)) {
      ha.startControllers();
      int first = ha.awaitActive(WAIT);
      ha.killNameNode(first);
      int second = ha.awaitActiveOtherThan(first, WAIT);
      ha.killNameNode(second);
      int third = ha.awaitActiveOtherThan(second, WAIT);
      assertNotEquals(first, third);
      ha.fsIsUsable();
      ha.splitBrain.assertNoSplitBrain();
    }
  }
}
