package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.SkewedCluster.MB;
import static org.bulwark.hdfs.balancer.it.SkewedCluster.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.bulwark.hdfs.balancer.BalancerKeys;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.balancer.exec.ActiveNameNodeState;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A balancer stopped mid-iteration (kill -9, Ctrl-C) or whose NameNode fails over mid-run loses
 * no block and leaves none under-replicated, and a rerun converges. Moves are slowed
 * ({@code dfs.datanode.balance.bandwidthPerSec} 512 KB/s) so that the interruption lands while
 * blocks are being copied (not where the run is to wait before any move).
 *
 * <p>Slow because moves are slowed to 512 KB/s on purpose, so that each interruption lands mid-copy, and every rerun
 * is waited out until balanced.
 */
class InterruptedBalancerIT {
  @TempDir
  File tmp;

  private static BulwarkMiniCluster.Builder fourRacks(BulwarkMiniCluster.Builder b) {
    return b.topology("/r1:2,/r2:2,/r3:2,/r4:2").capacity(96 * MB);
  }

  private static BulwarkMiniCluster.Builder slowMoves(BulwarkMiniCluster.Builder b) {
    return fourRacks(b).configure(conf -> conf.setLong("dfs.datanode.balance.bandwidthPerSec", 512 * 1024));
  }

  private static SkewedCluster skew(BulwarkMiniCluster c) throws Exception {
    List<DataNodeHandle> dns = c.dataNodes();
    SkewedCluster data = new SkewedCluster(c, 2 * MB);
    data.write(Arrays.asList(dns.get(0), dns.get(2), dns.get(4), dns.get(6)), 10, 120);
    return data;
  }

  @Test
  void killedWithSigkillMidIterationThenRerunConverges() throws Exception {
    try (BulwarkMiniCluster c = slowMoves(BulwarkMiniCluster.builder()).build()) {
      SkewedCluster data = skew(c);
      Process child = startInOwnJvm(c);
      long baseline = reportedUse(c);
      Await.until("a move landed", WAIT, () -> reportedUse(c) != baseline || !child.isAlive());
      assertTrue(child.isAlive(), "the balancer was still moving blocks: " + output());
      child.destroyForcibly().waitFor();

      assertNothingLost(c, data);
      c.mini().setLeasePeriod(1000, 2000); // the dead balancer's lock file lease
      rerunConverges(c, data);
    }
  }

  @Test
  void stoppedWithCtrlCThenRerunAtOnce() throws Exception {
    try (BulwarkMiniCluster c = slowMoves(BulwarkMiniCluster.builder()).build()) {
      SkewedCluster data = skew(c);
      Process child = startInOwnJvm(c);
      long baseline = reportedUse(c);
      Await.until("a move landed", WAIT, () -> reportedUse(c) != baseline || !child.isAlive());
      child.destroy(); // SIGTERM, as Ctrl-C: shutdown hooks run and release the lock file
      child.waitFor();

      assertNothingLost(c, data);
      BalancerRuns rerun = BalancerRuns.run(c.conf(), "-policy", "availability");
      assertEquals(0, rerun.exit, rerun.console);
    }
  }

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

  private Process startInOwnJvm(BulwarkMiniCluster c) throws IOException {
    File conf = new File(tmp, "balancer-site.xml");
    try (OutputStream out = new FileOutputStream(conf)) {
      c.conf().writeXml(out);
    }
    List<String> cmd = new ArrayList<>(Arrays.asList(
        new File(System.getProperty("java.home"), "bin/java").getPath(), "-cp", System.getProperty("java.class.path")));
    if (System.getProperty("log4j.configuration") != null) {
      cmd.add("-Dlog4j.configuration=" + System.getProperty("log4j.configuration"));
    }
    cmd.addAll(Arrays.asList(BalancerLauncher.class.getName(), "-conf", conf.getPath(), "-policy", "availability"));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(new File(tmp, "balancer.out")).start();
  }

  private String output() throws IOException {
    return new String(Files.readAllBytes(new File(tmp, "balancer.out").toPath()), StandardCharsets.UTF_8);
  }

  private static void assertNothingLost(BulwarkMiniCluster c, SkewedCluster data) throws Exception {
    // the interrupted run is over: let the DataNodes copy at full speed again
    c.fs(0).setBalancerBandwidth(100L << 20);
    for (int ns = 0; ns < c.nameservices().size(); ns++) {
      c.awaitFullyReplicated(ns, WAIT);
    }
    data.verifyAll();
    Map<Integer, Integer> racks = data.blocksByRacks();
    assertEquals(0, racks.getOrDefault(1, 0), "no block was left on one rack: " + racks);
  }

  private static void rerunConverges(BulwarkMiniCluster c, SkewedCluster data) throws Exception {
    BalancerRuns[] last = new BalancerRuns[1];
    // Until the lock file of the interrupted run is recovered, a rerun ends with "Another Balancer is
    // running" (IO_EXCEPTION); after a failover, until the DataNodes' block reports reach the new
    // active NameNode, with "No block can be moved" (NO_MOVE_BLOCK) or idle iterations (NO_MOVE_PROGRESS).
    try {
      Await.until("a rerun that is not locked out", WAIT, () -> {
        last[0] = BalancerRuns.run(c.conf(), "-policy", "availability");
        return last[0].exit != ExitStatus.IO_EXCEPTION.getExitCode()
            && last[0].exit != ExitStatus.NO_MOVE_BLOCK.getExitCode()
            && last[0].exit != ExitStatus.NO_MOVE_PROGRESS.getExitCode();
      });
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("last rerun: " + last[0].console, e);
    }
    assertEquals(0, last[0].exit, last[0].console);
    assertTrue(last[0].console.contains("The cluster is balanced. Exiting..."), last[0].console);
    data.awaitMovesSettled();
    data.verifyAll();
  }

  private static long reportedUse(BulwarkMiniCluster c) throws IOException {
    long sum = 0;
    for (DatanodeInfo dn : c.fs(0).getDataNodeStats(DatanodeReportType.LIVE)) {
      sum += dn.getDfsUsed();
    }
    return sum;
  }
}
