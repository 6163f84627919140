package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * A NameNode made active outside our election (here by hand, {@code haadmin -transitionToActive --forcemanual}, as the
 * stock ZKFC leaves one before a migration) is named by no breadcrumb. Our controllers must neither make a second
 * NameNode active beside it nor fail it over when its own controller comes within
 * {@code bulwark.hotstandby.election.unclaimed-active-wait}.
 */
class HotStandbyUnclaimedActiveIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static HotStandbyCluster clusterWithActive(int active, String unclaimedWait) throws Exception {
    HotStandbyCluster ha = HotStandbyCluster.start(2, c -> { },
        c -> c.set(HotStandbyKeys.UNCLAIMED_ACTIVE_WAIT.getName(), unclaimedWait));
    ha.cluster.mini().getNameNodeRpc(active)
        .transitionToActive(new StateChangeRequestInfo(RequestSource.REQUEST_BY_USER_FORCED));
    return ha;
  }

  /** The standby's controller first, the active's a moment later: the active one stays active, nothing is fenced. */
  @Test
  void theActivesOwnControllerTakesOverWithoutAFailover() throws Exception {
    try (HotStandbyCluster ha = clusterWithActive(1, "60s");
        ActiveStateWatch watch = new ActiveStateWatch(i -> ha.cluster.mini().getNameNode(i).isActiveState()
            ? HAServiceState.ACTIVE : HAServiceState.STANDBY, 2, 1)) {
      HotStandbyController standby = ha.startController(0);
      Thread.sleep(1500); // several decisions of the standby's controller, each of which could have taken over
      assertFalse(standby.isActive());
      HotStandbyController active = ha.startController(1);
      Await.until("nn2's controller leads", WAIT, active::isActive);
      assertEquals(1, ha.activeNameNode());
      assertEquals(0, standby.metrics().failovers(), "the standby's controller never took the leadership");
      assertEquals(0, active.metrics().gracefulFencings() + active.metrics().methodFencings(), "nothing was fenced");
      assertEquals(0, watch.notActive.get() + watch.otherActive.get(), "nn2 left the active state");
      ha.fsIsUsable();
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /** The active's controller never comes: after the wait the standby's takes over, fencing the active one first. */
  @Test
  void aStandbyFencesTheUnclaimedActiveAfterTheWaitAndNeverRunsBesideIt() throws Exception {
    try (HotStandbyCluster ha = clusterWithActive(1, "2s")) {
      HotStandbyController c = ha.startController(0);
      Await.until("nn1's controller leads", WAIT, c::isActive);
      assertEquals(0, ha.activeNameNode());
      assertTrue(ha.cluster.mini().getNameNode(1).isStandbyState(), "nn2 was fenced");
      assertEquals(1, c.metrics().gracefulFencings(), "nn2 answered, so it went to standby when asked");
      ha.fsIsUsable();
      ha.splitBrain.assertNoSplitBrain();
    }
  }
}
