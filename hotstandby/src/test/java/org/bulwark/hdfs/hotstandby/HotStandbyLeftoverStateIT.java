package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.bulwark.hdfs.hotstandby.discovery.Breadcrumb;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * State that a lost reply, a failed removal or a change behind a controller's back leaves in the election, each
 * of which, left alone, keeps the nameservice without an active NameNode for as long as a healthy controller's
 * session lives. The state is written with the controller's own ZooKeeper session, as it would have been.
 */
class HotStandbyLeftoverStateIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ZNodes PATHS = new ZNodes("/bulwark-ha", "ns1");

  private static String id(int nn) {
    return "nn" + (nn + 1);
  }

  private static void awaitSecondElection(HotStandbyCluster ha) throws Exception {
    Await.until("a second election won", WAIT,
        () -> ha.controller(0).metrics().failovers() + ha.controller(1).metrics().failovers() >= 2);
  }

  /**
   * A follower's lock transaction committed but its reply was lost: Curator sent it again, met the lock and
   * reported a lost race. The lock is then the follower's, with no leadership behind it, and the epoch it bumped
   * made the previous leader step down.
   */
  @Test
  void aLockHeldWithoutLeadingIsReleasedAndTheElectionGoesOn() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.startControllers();
      int active = ha.awaitActive(WAIT);
      int follower = 1 - active;
      CuratorFramework zk = ha.controller(follower).zooKeeperClient();
      Stat epochStat = new Stat();
      long epoch = Long.parseLong(new String(zk.getData().storingStatIn(epochStat).forPath(PATHS.epoch()),
          StandardCharsets.UTF_8).trim());
      Stat crumbStat = new Stat();
      Breadcrumb crumb = Breadcrumb.decode(zk.getData().storingStatIn(crumbStat).forPath(PATHS.breadcrumb()));
      zk.transaction().forOperations(
          zk.transactionOp().delete().forPath(PATHS.lock()),
          zk.transactionOp().create().withMode(CreateMode.EPHEMERAL)
              .forPath(PATHS.lock(), id(follower).getBytes(StandardCharsets.UTF_8)),
          zk.transactionOp().setData().withVersion(epochStat.getVersion())
              .forPath(PATHS.epoch(), Long.toString(epoch + 1).getBytes(StandardCharsets.UTF_8)),
          zk.transactionOp().setData().withVersion(crumbStat.getVersion())
              .forPath(PATHS.breadcrumb(), crumb.with(epoch + 1, id(follower)).encode()));
      awaitSecondElection(ha);
      ha.awaitActive(WAIT);
      ha.fsIsUsable();
    }
  }

  /**
   * A manual failover succeeded but removing its request failed (a ZooKeeper blip): the request naming the new
   * active outlives the failover. When that NameNode dies, the other controller must take over all the same.
   */
  @Test
  void aLeftoverManualFailoverRequestDoesNotHoldUpTheNextFailover() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.startControllers();
      int active = ha.awaitActive(WAIT);
      ha.controller(active).zooKeeperClient().create().withMode(CreateMode.EPHEMERAL)
          .forPath(PATHS.handoff(), id(active).getBytes(StandardCharsets.UTF_8));
      ha.killNameNode(active);
      assertNotEquals(active, ha.awaitActiveOtherThan(active, WAIT));
      ha.fsIsUsable();
    }
  }

  /**
   * The active NameNode made standby by hand ({@code haadmin -transitionToStandby --forcemanual}), as a NameNode
   * restarted while its controller was cut off from ZooKeeper also comes back: its leader must not keep the lock.
   */
  @Test
  void aLeaderWhoseNameNodeWasMadeStandbyBehindItsBackStepsDown() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.startControllers();
      int active = ha.awaitActive(WAIT);
      ha.cluster.mini().getNameNodeRpc(active)
          .transitionToStandby(new StateChangeRequestInfo(RequestSource.REQUEST_BY_USER_FORCED));
      awaitSecondElection(ha);
      ha.awaitActive(WAIT);
      ha.fsIsUsable();
    }
  }
}
