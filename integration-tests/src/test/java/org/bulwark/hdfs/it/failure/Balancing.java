package org.bulwark.hdfs.it.failure;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.ForkedJvm;
import org.bulwark.hdfs.testkit.WriteOrigin;

/**
 * {@code hdfs balancer -policy availability} on the all-plugins cluster: a skewed write that gives it
 * work, runs in this JVM or in one of its own (to be killed with kill -9), and the runbook step after a
 * killed run (recovering the lease on its lock file, {@code hdfs debug recoverLease}).
 */
final class Balancing {
  static final String[] ARGS = {"-policy", "availability", "-threshold", "5"};
  private static final Duration WAIT = Duration.ofMinutes(3);
  private static final Path LOCK = new Path("/system/balancer.id");

  private final AllPluginsCluster c;
  private int skewedWrites;

  Balancing(AllPluginsCluster c) {
    this.c = c;
  }

  /** What one run printed and returned. */
  record Run(int exit, String console) {
  }

  /** Writes {@code megabytes} MB from a task on {@code dataNode}'s host: its first replicas all land there. */
  void skewedWrite(DataNodeHandle dataNode, int megabytes) throws Exception {
    skewedWrites++;
    for (int i = 0; i < megabytes; i++) {
      c.cluster.writeFile(i % AllPluginsCluster.NAMESERVICES, new Path("/skewed/" + skewedWrites + "/part-" + i),
          1L << 20, WriteOrigin.fromDataNode(dataNode));
    }
    for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
      c.cluster.awaitReplication(ns, new Path("/skewed"), WAIT);
    }
  }

  /** Runs the balancer in this JVM. */
  Run run() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int exit;
    try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      exit = ToolRunner.run(c.cluster.conf(), new BalancerLauncher(out, out), ARGS.clone());
    }
    return new Run(exit, buf.toString(StandardCharsets.UTF_8));
  }

  /** Starts the balancer in a JVM of its own, as {@code hdfs balancer} would run. */
  Process fork(File dir) throws IOException {
    File site = new File(dir, "balancer-site.xml");
    try (OutputStream out = new FileOutputStream(site)) {
      c.cluster.conf().writeXml(out);
    }
    String[] args = new String[ARGS.length + 2];
    args[0] = "-conf";
    args[1] = site.getPath();
    System.arraycopy(ARGS, 0, args, 2, ARGS.length);
    return ForkedJvm.start(BalancerLauncher.class, new File(dir, "balancer.log"), args);
  }

  /** Waits until a replica move changed what the DataNodes report, or the balancer is no longer running. */
  void awaitFirstMove(BooleanSupplier running) throws TimeoutException, InterruptedException, IOException {
    long before = reportedUse();
    Await.until("the balancer moved a replica", WAIT, () -> reportedUse() != before || !running.getAsBoolean());
  }

  private long reportedUse() throws IOException {
    long sum = 0;
    for (DatanodeInfo dn : c.cluster.fs(0).getDataNodeStats(DatanodeReportType.LIVE)) {
      sum += dn.getDfsUsed();
    }
    return sum;
  }

  /** After a kill -9: the dead balancer's lease on each nameservice's lock file, recovered by hand. */
  void recoverLocks() throws TimeoutException, InterruptedException {
    for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
      int n = ns;
      Await.until("the lease on " + LOCK + " of ns" + (ns + 1) + " is recovered", WAIT, () -> {
        var fs = c.cluster.fs(n);
        return !fs.exists(LOCK) || fs.recoverLease(LOCK);
      });
    }
  }

  /**
   * Runs the balancer until a run is not turned away (another run's lock, or a new active NameNode
   * still waiting for block reports) and returns that run.
   */
  Run rerun() throws Exception {
    for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
      c.cluster.fs(ns).setBalancerBandwidth(64L << 20);
    }
    Run[] last = new Run[1];
    try {
      Await.until("a balancer run that is not turned away", WAIT, () -> {
        last[0] = run();
        return last[0].exit() != ExitStatus.IO_EXCEPTION.getExitCode()
            && last[0].exit() != ExitStatus.NO_MOVE_BLOCK.getExitCode()
            && last[0].exit() != ExitStatus.NO_MOVE_PROGRESS.getExitCode();
      });
    } catch (TimeoutException e) {
      throw new AssertionError("last run: " + (last[0] == null ? "none" : last[0].console()), e);
    } finally {
      slowDown();
    }
    return last[0];
  }

  /** Balancer moves at {@link AllPluginsCluster#SLOW_BALANCING_BYTES_PER_SEC}, so that a run lasts long enough to be hit. */
  void slowDown() throws IOException {
    for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
      c.cluster.fs(ns).setBalancerBandwidth(AllPluginsCluster.SLOW_BALANCING_BYTES_PER_SEC);
    }
  }
}
