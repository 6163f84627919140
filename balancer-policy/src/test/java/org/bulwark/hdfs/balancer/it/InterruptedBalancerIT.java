package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.Interruptions.assertNothingLost;
import static org.bulwark.hdfs.balancer.it.Interruptions.reportedUse;
import static org.bulwark.hdfs.balancer.it.Interruptions.skew;
import static org.bulwark.hdfs.balancer.it.Interruptions.slowMoves;
import static org.bulwark.hdfs.balancer.it.SkewedCluster.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A balancer stopped mid-iteration (kill -9, Ctrl-C) loses no block and leaves none under-replicated, and a rerun
 * converges (a NameNode failing over mid-run: {@link BalancerAcrossFailoverIT}). Moves are slowed
 * ({@code dfs.datanode.balance.bandwidthPerSec} 512 KB/s) so that the interruption lands while
 * blocks are being copied (not where the run is to wait before any move).
 *
 * <p>Slow because moves are slowed to 512 KB/s on purpose, so that each interruption lands mid-copy, and every rerun
 * is waited out until balanced.
 */
class InterruptedBalancerIT {
  @TempDir
  File tmp;

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
}
