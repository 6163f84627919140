package org.bulwark.hdfs.balancer.it;

import static org.bulwark.hdfs.balancer.it.SkewedCluster.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.balancer.cli.BalancerOptions;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.StoppedDataNodes;
import org.bulwark.hdfs.testkit.Utilisation;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Stock options that change which DataNodes take part, and {@code -asService}, on a real cluster.
 *
 * <p>Slow because each stock option is shown by a balancer run of its own on a skewed cluster.
 */
@Tag("compat")
class StockOptionsClusterIT {
  private static BulwarkMiniCluster skewed(SkewedCluster[] data) throws Exception {
    BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2").capacity(96 * MB).build();
    List<DataNodeHandle> dns = c.dataNodes();
    data[0] = new SkewedCluster(c, 2 * MB);
    data[0].write(Arrays.asList(dns.get(0), dns.get(2)), 10, 80);
    return c;
  }

  private static long used(Utilisation u, DataNodeHandle dn) {
    return u.dataNodes().stream().filter(e -> e.name().equals(dn.hostName())).findFirst().orElseThrow().used();
  }

  @Test
  void anExcludedDataNodeNeitherGivesNorTakes() throws Exception {
    SkewedCluster[] data = new SkewedCluster[1];
    try (BulwarkMiniCluster c = skewed(data)) {
      DataNodeHandle writer = c.dataNodes().get(0);
      // Reported use must be steady before it is compared: a replica still waiting for deletion can make
      // the sum look complete while the writer's last block is not yet in its report.
      data[0].awaitMovesSettled();
      // Compared by the blocks the NameNode places on it: its reported use also counts files that are
      // not replicas and has differed by a few bytes between two heartbeats.
      Set<String> before = LayoutDiff.read(c).blocksOn(writer.ipAddress());
      BalancerRuns r = BalancerRuns.run(c.conf(), "-policy", "availability", "-exclude", writer.hostName());
      assertTrue(r.exit == 0 || r.exit == ExitStatus.NO_MOVE_BLOCK.getExitCode()
          || r.exit == ExitStatus.NO_MOVE_PROGRESS.getExitCode(), r.console);
      assertTrue(r.console.contains("Moves adding a rack"), r.console);
      data[0].awaitMovesSettled();
      assertFalse(before.isEmpty());
      assertEquals(before, LayoutDiff.read(c).blocksOn(writer.ipAddress()), "the excluded writer kept its replicas");
      data[0].verifyAll();
    }
  }

  /**
   * Where the stock pairing joins sources and targets but no block can go between them without leaving a rack,
   * both balancers count idle iterations and exit -3 after {@code -idleiterations}, having moved nothing. The
   * two full DataNodes are alone on their racks and every block they hold has its third replica on one of the
   * two emptier DataNodes of the third rack. (Availability once exited -2 here at once, and so on a view whose
   * deletions were not reported yet where the stock balancer looked again and converged: differential seed 12.)
   */
  @Test
  void aPairingNoBlockCanServeEndsAsTheStockBalancerEndsIt() throws Exception {
    // No re-replication: the blocks of the DataNode stopped second must not be copied to the one restarted first.
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:2,/r3:1").capacity(48 * MB)
        .configure(conf -> {
          conf.setInt("dfs.namenode.replication.max-streams", 0);
          conf.setInt("dfs.namenode.replication.max-streams-hard-limit", 0);
        }).build()) {
      List<DataNodeHandle> dns = c.dataNodes();
      int file = 0;
      for (DataNodeHandle away : List.of(dns.get(2), dns.get(1))) {
        StoppedDataNodes stopped = c.stop(List.of(away));
        c.declareDead(stopped);
        for (int f = 0; f < 10; f++, file++) {
          c.writeFile(0, new Path("/data/f" + file), MB, WriteOrigin.fromDataNode(dns.get(0)), 3);
        }
        c.restart(stopped);
      }
      new SkewedCluster(c, MB).awaitNameNodesSettled();
      LayoutDiff before = LayoutDiff.read(c);
      assertEquals(List.of(20, 10, 10, 20), dns.stream().map(dn -> before.blocksOn(dn.ipAddress()).size()).toList());
      for (String policy : List.of("datanode", "availability")) {
        BalancerRuns r = BalancerRuns.run(c.conf(), "-policy", policy, "-threshold", "5", "-idleiterations", "2");
        assertEquals(ExitStatus.NO_MOVE_PROGRESS.getExitCode(), r.exit, policy + "\n" + r.console);
        assertTrue(policy.equals("datanode") || r.console.contains("Looking again"), r.console);
      }
      assertEquals(0, before.movesTo(LayoutDiff.read(c))[0], "nothing moved");
    }
  }

  /**
   * A rolling upgrade prepared on either namespace of a federated cluster stops the run with the stock exit code
   * before anything moves: DataNodes keep what they delete until it is finalized. (Only the first namespace's
   * NameNode was asked once, so an upgrade on the other went unseen.)
   */
  @Test
  void anUpgradeNotFinalizedOnAnyNamespaceStopsTheRun() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2").nameservices(2)
        .capacity(96 * MB).build()) {
      List<DataNodeHandle> dns = c.dataNodes();
      SkewedCluster data = new SkewedCluster(c, 2 * MB);
      data.write(Arrays.asList(dns.get(0), dns.get(2)), 10, 80);
      data.awaitMovesSettled();
      LayoutDiff before = LayoutDiff.read(c);
      for (int ns = 0; ns < 2; ns++) {
        // A NameNode without HA writes the rollback image in safe mode.
        c.fs(ns).setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_ENTER);
        c.fs(ns).rollingUpgrade(HdfsConstants.RollingUpgradeAction.PREPARE);
        c.fs(ns).setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_LEAVE);
        BalancerRuns r = BalancerRuns.run(c.conf(), "-policy", "availability");
        assertEquals(ExitStatus.UNFINALIZED_UPGRADE.getExitCode(), r.exit, "upgrade on namespace " + ns + "\n" + r.console);
        c.fs(ns).rollingUpgrade(HdfsConstants.RollingUpgradeAction.FINALIZE);
      }
      assertEquals(0, before.movesTo(LayoutDiff.read(c))[0], "nothing moved");
    }
  }

  @Test
  void onlyNamedSourcesGive() throws Exception {
    SkewedCluster[] data = new SkewedCluster[1];
    try (BulwarkMiniCluster c = skewed(data)) {
      DataNodeHandle source = c.dataNodes().get(2);
      DataNodeHandle other = c.dataNodes().get(0);
      data[0].awaitMovesSettled();
      Utilisation before = data[0].settledUtilisation();
      BalancerRuns r = BalancerRuns.run(c.conf(), "-policy", "availability", "-source", source.hostName(),
          "-idleiterations", "1");
      assertTrue(r.exit <= 0, r.console);
      data[0].awaitMovesSettled();
      Utilisation after = data[0].settledUtilisation();
      assertTrue(used(after, source) < used(before, source), "the named source gave: " + r.console);
      assertTrue(used(after, other) >= used(before, other), "the other writer gave nothing");
    }
  }

  /**
   * Hadoop 3.5's {@code -excludeSource} and {@code -target}: honoured where the installed stock balancer takes
   * them, refused with the stock balancer's message where it does not.
   */
  @Test
  void hadoop35SourceAndTargetOptionsFollowTheInstalledLine() throws Exception {
    SkewedCluster[] data = new SkewedCluster[1];
    try (BulwarkMiniCluster c = skewed(data)) {
      List<DataNodeHandle> dns = c.dataNodes();
      DataNodeHandle keptWriter = dns.get(0);
      data[0].awaitMovesSettled();
      Utilisation use = data[0].settledUtilisation();
      // The target must be one a balancer would fill: the least used DataNode that wrote nothing. Which one that
      // is depends on where the default placement put replicas 2-3 (a fixed choice once made the target an
      // above-average node on 3.5.0, and then no balancer moves anything to it).
      List<DataNodeHandle> others = Arrays.asList(dns.get(1), dns.get(3), dns.get(4), dns.get(5));
      DataNodeHandle target = others.stream().min(Comparator.comparingLong(dn -> used(use, dn))).orElseThrow();
      String[] args = {"-policy", "availability", "-excludeSource", keptWriter.hostName(),
          "-target", target.hostName(), "-idleiterations", "1"};
      if (!BalancerOptions.takes("-target")) {
        BalancerRuns ours = BalancerRuns.run(c.conf(), args);
        assertEquals(ExitStatus.ILLEGAL_ARGUMENTS.getExitCode(), ours.exit, ours.console);
        assertTrue(ours.console.contains("args = [-policy, availability, -excludeSource"), ours.console);
        args[1] = "datanode";
        // the stock Cli throws it to its main, which logs it and exits -1
        IllegalArgumentException stock = assertThrows(IllegalArgumentException.class,
            () -> BalancerRuns.run(c.conf(), args));
        assertTrue(stock.getMessage().startsWith("args = [-policy, datanode, -excludeSource"), stock.getMessage());
        return;
      }
      LayoutDiff before = LayoutDiff.read(c);
      BalancerRuns r = BalancerRuns.run(c.conf(), args);
      String report = use.table() + r.console;
      assertTrue(r.exit <= 0, report);
      data[0].awaitMovesSettled();
      LayoutDiff after = LayoutDiff.read(c);
      assertEquals(before.blocksOn(keptWriter.ipAddress()), after.blocksOn(keptWriter.ipAddress()),
          "the writer excluded as a source kept its replicas");
      for (DataNodeHandle other : others) {
        if (other != target) {
          // it may give (only the kept writer is excluded as a source) but must take nothing
          Set<String> taken = new HashSet<>(after.blocksOn(other.ipAddress()));
          taken.removeAll(before.blocksOn(other.ipAddress()));
          assertEquals(Set.of(), taken, other.hostName() + " is not a target: " + report);
        }
      }
      assertTrue(after.blocksOn(target.ipAddress()).size() > before.blocksOn(target.ipAddress()).size(),
          "the one target took blocks: " + report);
      data[0].verifyAll();
    }
  }

  @Test
  void asServiceRunsRoundsUntilStopped() throws Exception {
    SkewedCluster[] data = new SkewedCluster[1];
    try (BulwarkMiniCluster c = skewed(data)) {
      Configuration conf = c.conf();
      conf.set("dfs.balancer.service.interval", "1s");
      ByteArrayOutputStream console = new ByteArrayOutputStream(); // synchronized: read while written
      PrintStream print = new PrintStream(console, true, "UTF-8");
      Thread[] runner = new Thread[1];
      CompletableFuture<Integer> service = CompletableFuture.supplyAsync(() -> {
        runner[0] = Thread.currentThread();
        try {
          return ToolRunner.run(conf, new BalancerLauncher(print, print), new String[] {"-policy", "availability", "-asService"});
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Await.until("two service rounds", SkewedCluster.WAIT,
          () -> console.toString("UTF-8").split("The cluster is balanced").length > 2);
      // Hadoop's dispatcher swallows an interrupt that lands while it waits for moves: interrupt until stopped
      Await.until("the service stops", SkewedCluster.WAIT, () -> {
        runner[0].interrupt();
        return service.isDone();
      });
      int exit = service.get(1, TimeUnit.SECONDS);
      assertEquals(ExitStatus.INTERRUPTED.getExitCode(), exit, console.toString("UTF-8"));
      data[0].verifyAll();
    }
  }
}
