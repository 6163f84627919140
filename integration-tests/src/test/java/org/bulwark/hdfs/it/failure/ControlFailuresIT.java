package org.bulwark.hdfs.it.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The failure suite's scenarios 3, 4 and 5: an active NameNode (also under the balancer), ZooKeeper and the
 * balancer lost under the workload.
 *
 * <p>Slow because each scenario waits for a workload to carry on under a fault and for the audit after it, on
 * a federated HA cluster of 12 DataNodes.
 */
class ControlFailuresIT extends FailureSuite {
  @Test
  @Order(3)
  void activeNameNodeKilledDuringWritesThenUnderTheBalancer() throws Exception {
    Faults.NameNodeKilledUnderBalancer[] underBalancer = new Faults.NameNodeKilledUnderBalancer[1];
    scenarios.run("3 active NameNode killed, then under the balancer", () -> {
      for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
        Fault killed = scenarios.inject(faults.activeNameNodeKilled(ns));
        scenarios.carriesOn("the workload carries on after " + killed.name());
        killed.heal();
      }
      underBalancer[0] = faults.activeNameNodeKilledUnderBalancer(0);
      scenarios.inject(underBalancer[0]);
      scenarios.carriesOn("the workload carries on after " + underBalancer[0].name());
      underBalancer[0].heal();
      return System.nanoTime();
    });
    assertTrue(underBalancer[0].endedCleanly(), "the balancer that lost its NameNode: " + underBalancer[0].during);
  }

  @Test
  @Order(4)
  void zooKeeperRestartedThenLeaderSessionExpired() throws Exception {
    scenarios.run("4 ZooKeeper restarted, leader session expired", () -> {
      int before = c.ha.awaitActive(0, -1);
      Fault zk = scenarios.inject(faults.zooKeeperRestarted());
      scenarios.carriesOn("the workload carries on after " + zk.name());
      zk.heal();
      assertEquals(before, c.ha.awaitActive(0, -1), "a ZooKeeper restart shorter than a session changes no active NameNode");
      Fault expired = scenarios.inject(faults.leaderSessionExpired(0));
      scenarios.carriesOn("the workload carries on after " + expired.name());
      expired.heal();
      return System.nanoTime();
    });
  }

  @Test
  @Order(5)
  void balancerKilledMidIterationAndRunAgain() throws Exception {
    Faults.BalancerKilled[] killed = new Faults.BalancerKilled[1];
    scenarios.run("5 balancer killed with kill -9, run again", () -> {
      killed[0] = faults.balancerKilled();
      scenarios.inject(killed[0]);
      scenarios.carriesOn("the workload carries on after " + killed[0].name());
      killed[0].heal();
      return System.nanoTime();
    });
    assertTrue(killed[0].wasMoving(), "the balancer was killed while it was moving replicas");
    assertEquals(ExitStatus.SUCCESS.getExitCode(), killed[0].rerun.exit(), killed[0].rerun.console());
  }
}
