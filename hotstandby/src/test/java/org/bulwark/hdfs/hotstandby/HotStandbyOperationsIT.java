package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.KillSession;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.tools.DFSHAAdmin;
import org.apache.zookeeper.data.Stat;
import org.bulwark.hdfs.hotstandby.controller.ControllerState;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/** What an operator does: a graceful failover with hdfs haadmin, priorities with fail-back, and not doubling up with a stock ZKFC. */
class HotStandbyOperationsIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void haadminFailoverGoesThroughTheControllersWithoutFencing() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(3)) {
      ha.startControllers();
      int from = ha.awaitActive(WAIT);
      int to = (from + 1) % 3;
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      DFSHAAdmin admin = new HaAdmin(ha.cluster.conf(), out, new ByteArrayOutputStream());
      int rc = admin.run(new String[] {"-failover", "nn" + (from + 1), "nn" + (to + 1)});
      assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
      assertTrue(out.toString(StandardCharsets.UTF_8).contains("successful"), out.toString(StandardCharsets.UTF_8));
      assertEquals(to, ha.activeNameNode(), "the requested NameNode is active when haadmin returns");
      assertFencedNothing(ha.controller(to), "the previous active stepped down by itself");
      assertTrue(ha.cluster.mini().getNameNode(from).isStandbyState());
      // And back again, through the third controller's view of things.
      assertEquals(0, admin.run(new String[] {"-failover", "nn" + (to + 1), "nn" + (from + 1)}));
      assertEquals(from, ha.activeNameNode());
      ha.fsIsUsable();
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  private static void assertFencedNothing(HotStandbyController c, String why) {
    assertEquals(0, c.metrics().gracefulFencings() + c.metrics().methodFencings(), why);
    assertEquals(0, c.metrics().lastFencingMillis(), why);
  }

  @Test
  void failoverToAnUnhealthyOrAbsentControllerFails() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.startController(0);
      int active = ha.awaitActive(WAIT);
      DFSHAAdmin admin = new HaAdmin(ha.cluster.conf(), new ByteArrayOutputStream(), new ByteArrayOutputStream());
      assertTrue(admin.run(new String[] {"-failover", "nn1", "nn2"}) != 0, "nn2 has no controller to ask");
      assertEquals(active, ha.activeNameNode());
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  @Test
  void highestPriorityWinsAndFailsBackWhenEnabled() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(3, conf -> { }, conf -> {
      conf.set("bulwark.hotstandby.priority.ns1.nn1", "1");
      conf.set("bulwark.hotstandby.priority.ns1.nn2", "5");
      conf.set("bulwark.hotstandby.priority.ns1.nn3", "3");
      conf.set("bulwark.hotstandby.failback.enabled", "true");
      conf.set("bulwark.hotstandby.failback.delay", "1s");
      // nn1 defers to each healthy higher-ranked candidate for this long: on a loaded 2-core machine nn3's
      // controller has taken over 1 s to contend after nn2's death.
      conf.set("bulwark.hotstandby.election.lower-priority-delay", "5s");
    })) {
      ha.startControllers(); // nn1 first: it must still defer to nn2
      assertEquals(1, ha.awaitActive(WAIT), "priority 5 wins");
      // Every controller must be standing before the kill, or the next best may not be known yet.
      Await.until("nn1 and nn3 stand by", WAIT, () -> ha.controller(0).state() == ControllerState.STANDBY
          && ha.controller(2).state() == ControllerState.STANDBY);
      ha.killNameNode(1);
      assertEquals(2, ha.awaitActiveOtherThan(1, WAIT), "then priority 3, not 1");
      ha.restartNameNode(1);
      Await.until("fail-back to nn2 once healthy for 1 s", WAIT,
          () -> ha.activeNameNode() == 1 && ha.controller(1).isActive());
      assertFencedNothing(ha.controller(1), "fail-back is a clean hand-over");
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /**
   * With fail-back on, {@code haadmin -failover nn1 nn2} to the lower priority holds: nn1 stood as candidate all
   * along, and fail-back passes over the NameNodes that stood when the operator moved the role (before, nn2's
   * controller handed back to nn1 within milliseconds), also once nn1's candidacy is made anew in a new ZooKeeper session
   * (before, that undid the failover after the fail-back delay). Once nn1 comes back from a failure (gone from the
   * candidates for longer than the session timeout), it is failed back to.
   */
  @Test
  void anOperatorsFailoverToALowerPriorityHoldsUnderFailback() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, conf -> { }, conf -> {
      conf.set("bulwark.hotstandby.priority.ns1.nn1", "5");
      conf.set("bulwark.hotstandby.failback.enabled", "true");
      conf.set("bulwark.hotstandby.failback.delay", "1s");
      // nn2 defers to nn1 this long at the start: nn1 stands only after its first healthy check, which a loaded
      // 2-core machine may hold past the 300 ms the other tests use.
      conf.set("bulwark.hotstandby.election.lower-priority-delay", "5s");
    })) {
      ha.startControllers();
      assertEquals(0, ha.awaitActive(WAIT));
      Await.until("nn2 stands by", WAIT, () -> ha.controller(1).state() == ControllerState.STANDBY);
      Thread.sleep(1500); // nn1 has stood for longer than the fail-back delay
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      DFSHAAdmin admin = new HaAdmin(ha.cluster.conf(), out, out);
      assertEquals(0, admin.run(new String[] {"-failover", "nn1", "nn2"}), out.toString(StandardCharsets.UTF_8));
      assertStaysActive(ha, 1, "the operator's failover was undone");
      assertEquals(1, ha.controller(1).metrics().failovers());

      CuratorFramework nn1Session = ha.controller(0).zooKeeperClient();
      long expired = nn1Session.getZookeeperClient().getZooKeeper().getSessionId();
      KillSession.kill(nn1Session.getZookeeperClient().getZooKeeper());
      String candidacy = new ZNodes("/bulwark-ha", "ns1").candidate("nn1");
      Await.until("nn1 stands anew in a new session", WAIT, () -> {
        Stat stat = nn1Session.checkExists().forPath(candidacy);
        return stat != null && stat.getEphemeralOwner() != expired;
      });
      assertStaysActive(ha, 1, "a candidacy made anew for a new session undid the operator's failover");

      ha.killNameNode(0);
      Thread.sleep(3500); // gone from the candidates for longer than the 2 s session timeout, and a decision after it
      ha.restartNameNode(0);
      Await.until("fail-back to nn1, back from its failure", WAIT,
          () -> ha.activeNameNode() == 0 && ha.controller(0).isActive());
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /** NameNode {@code nn} stays active for 3 s, three times the fail-back delay of the test that asks. */
  private static void assertStaysActive(HotStandbyCluster ha, int nn, String why) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while (System.nanoTime() < until) {
      assertEquals(nn, ha.activeNameNode(), why);
      Thread.sleep(20);
    }
  }

  @Test
  void refusesToRunBesideAStockZkfc() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      Configuration stockConf = ha.controllerConf(0);
      StockZkfc.formatZooKeeper(stockConf);
      try (StockZkfc stock = StockZkfc.start(stockConf)) {
        Await.until("the stock ZKFC made nn1 active", WAIT, () -> ha.activeNameNode() == 0);
        HotStandbyController ours = new HotStandbyController(ha.controllerConf(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ours::start);
        assertEquals("a stock ZKFC (DFSZKFailoverController) manages nameservice ns1 (its lock "
            + "/hadoop-ha/ns1/ActiveStandbyElectorLock exists): stop every zkfc of ns1 (hdfs --daemon stop zkfc) "
            + "before starting hdfs hotstandby", e.getMessage());
        assertEquals(0, ha.activeNameNode(), "the stock ZKFC's active NameNode was left alone");
      }
    }
  }
}
