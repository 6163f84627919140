package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.Interruptions.assertNothingLost;
import static org.bulwark.hdfs.balancer.it.Interruptions.fourRacks;
import static org.bulwark.hdfs.balancer.it.Interruptions.reportedUse;
import static org.bulwark.hdfs.balancer.it.Interruptions.skew;
import static org.bulwark.hdfs.balancer.it.Interruptions.slowMoves;
import static org.bulwark.hdfs.balancer.it.SkewedCluster.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.bulwark.hdfs.balancer.BalancerKeys;
import org.bulwark.hdfs.balancer.exec.ActiveNameNodeState;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.junit.jupiter.api.Test;

/**
 * A run whose NameNode fails over mid-run, or that starts right after a failover, loses no block, waits for the new
 * active NameNode to have every storage's report before it moves anything (or exits saying what settles it), and ends
 * balanced.
 *
 * <p>Slow because the new active NameNode's figures are not trusted for 15 s after its activation, which a run waits
 * out, and the mid-run failover lands while moves are slowed to 512 KB/s.
 */
class BalancerAcrossFailoverIT {
  @Test
  void nameNodeFailoverMidRun() throws Exception {
    try (BulwarkMiniCluster c = slowMoves(BulwarkMiniCluster.builder()).nameNodesPerNameservice(2).build()) {
      SkewedCluster data = skew(c);
      long baseline = reportedUse(c);
      CompletableFuture<BalancerRuns> run = CompletableFuture.supplyAsync(() -> {
        try {
          return BalancerRuns.run(c.conf(), "-policy", "availability");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Await.until("a move landed", WAIT, () -> reportedUse(c) != baseline || run.isDone());
      c.mini().transitionToStandby(0);
      c.mini().transitionToActive(1);
      // The new active NameNode holds back deletions until every storage has reported: the run waits
      // for that (bulwark.balancer.reported-storages.wait) instead of piling up copies, and goes on
      // once the DataNodes have sent their reports.
      Thread.sleep(3000);
      c.mini().triggerBlockReports();
      BalancerRuns during = run.get();
      assertEquals(0, during.exit, during.console);
      assertTrue(during.console.contains("The cluster is balanced. Exiting..."), during.console);

      assertNothingLost(c, data);
      data.awaitMovesSettled();
      data.verifyAll();
    }
  }

  @Test
  void afterAFailoverARunWaitsForTheStoragesReportsOrExitsSayingWhatSettlesIt() throws Exception {
    // Moves at full speed: what is tested here happens before any move (slowed, the last run balanced 20 s later).
    try (BulwarkMiniCluster c = fourRacks(BulwarkMiniCluster.builder()).nameNodesPerNameservice(2).build()) {
      SkewedCluster data = skew(c);
      c.mini().transitionToStandby(0);
      c.mini().transitionToActive(1);
      // The NameNode refreshes its stale-storage count every few seconds (every recheck interval on a
      // real one): the run is started once the count it reads shows the failover.
      ActiveNameNodeState state = new ActiveNameNodeState(c.conf());
      Await.until("the active NameNode counts its unreported storages", WAIT, () -> {
        ActiveNameNodeState.Reading r = state.read(c.uri(0));
        return r != null && r.staleStorages > 0;
      });
      LayoutDiff before = LayoutDiff.read(c);
      Configuration shortWait = new Configuration(c.conf());
      // Longer than the 15 s after an activation in which a NameNode's figures are not trusted yet.
      shortWait.set(BalancerKeys.REPORTED_STORAGES_WAIT.getName(), "20s");
      BalancerRuns gaveUp = BalancerRuns.run(shortWait, "-policy", "availability");
      assertEquals(ExitStatus.NO_MOVE_PROGRESS.getExitCode(), gaveUp.exit, gaveUp.console);
      assertTrue(gaveUp.console.contains("storages' block reports since it became active")
          && gaveUp.console.contains("exiting without moving") && gaveUp.console.contains("-triggerBlockReport"),
          gaveUp.console);
      assertEquals(0, before.movesTo(LayoutDiff.read(c))[0], "nothing was copied");

      CompletableFuture<BalancerRuns> run = CompletableFuture.supplyAsync(() -> {
        try {
          return BalancerRuns.run(c.conf(), "-policy", "availability");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Thread.sleep(5000);
      assertFalse(run.isDone(), "still waiting for the reports");
      c.mini().triggerBlockReports();
      BalancerRuns waited = run.get();
      assertEquals(0, waited.exit, waited.console);
      assertTrue(waited.console.contains("Every storage has reported to the active NameNodes: balancing."), waited.console);
      assertTrue(waited.console.contains("The cluster is balanced. Exiting..."), waited.console);
      assertNothingLost(c, data);
    }
  }
}
