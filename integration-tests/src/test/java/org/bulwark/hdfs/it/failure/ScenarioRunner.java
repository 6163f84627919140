package org.bulwark.hdfs.it.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.bulwark.hdfs.testkit.Await;

/**
 * Runs failure scenarios on an {@link AllPluginsCluster}: the workload starts, the scenario injects
 * and heals its faults while the workload must keep completing operations, the workload stops, and the
 * {@link ClusterAudit} report is checked (no block lost, no file changed, no split brain, the monitor
 * agreeing) and appended to {@code target/failure-suite.txt} as soon as it is known. A scenario that
 * fails leaves its faults to the next run, which heals what is still broken and waits for a whole
 * cluster first: later scenarios run on their own, or fail saying which scenario broke the cluster.
 */
final class ScenarioRunner implements AutoCloseable {
  /** Operations the workload completes under a fault before it is undone: it carried on. */
  static final int OPERATIONS_UNDER_FAULT = 40;
  private static final Duration WAIT = Duration.ofMinutes(3);
  private static final File TABLE = new File("target/failure-suite.txt");

  final AllPluginsCluster c;
  final MixedWorkload workload;
  private final ClusterAudit audit;
  /** Faults injected by the scenario under way, in order. */
  private final List<Fault> injected = new ArrayList<>();
  /** The scenario that failed last, or null when the last one passed. */
  private String broken;

  ScenarioRunner(AllPluginsCluster c) {
    this.c = c;
    this.workload = new MixedWorkload(c.cluster, AllPluginsCluster.NAMESERVICES);
    this.audit = new ClusterAudit(c, workload);
  }

  /** A scenario's faults; returns when the cluster should count as healed from ({@link System#nanoTime}). */
  @FunctionalInterface
  interface Body {
    long run() throws Exception;
  }

  ScenarioReport run(String name, Body body) throws Exception {
    if (broken != null) {
      recoverFrom(broken);
    }
    broken = name;
    ScenarioReport r = runOnWholeCluster(name, body);
    broken = null;
    injected.clear();
    return r;
  }

  /**
   * After scenario {@code failed} broke off: heals what its faults still break, then waits until every
   * nameservice has an active NameNode, every DataNode is live and every block fully replicated, and
   * the monitor polls. Fails, naming {@code failed}, when the cluster does not come back.
   */
  private void recoverFrom(String failed) throws Exception {
    String step = "healing its faults";
    try {
      for (int i = injected.size() - 1; i >= 0; i--) {
        injected.get(i).healIfStillBroken();
      }
      injected.clear();
      step = "waiting for an active NameNode in every nameservice";
      for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
        c.ha.awaitActive(ns, -1);
      }
      step = "waiting for every DataNode to be live";
      int dataNodes = c.cluster.dataNodes().size();
      Await.until("every DataNode live at every active NameNode", WAIT, () -> {
        for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
          if (c.cluster.liveDataNodes(ns) != dataNodes) {
            return false;
          }
        }
        return true;
      });
      step = "waiting for every block to be fully replicated";
      c.awaitFullyReplicated(WAIT);
      step = "waiting for the monitor to poll";
      if (!c.monitor.isRunning()) {
        c.monitor.restart(1000);
      }
      c.monitor.awaitFreshPoll();
    } catch (Exception | AssertionError e) {
      String line = "the cluster did not recover after scenario '" + failed + "' failed (" + step + "): "
          + MixedWorkload.oneLine(e);
      throw new AssertionError(line, e);
    }
    System.out.println("Recovered the cluster after scenario '" + failed + "' failed");
  }

  private ScenarioReport runOnWholeCluster(String name, Body body) throws Exception {
    long written = workload.filesWritten();
    long split = c.splitBrainObservations();
    long ops = workload.operations();
    long failed = workload.failures();
    workload.start();
    long healedAt;
    try {
      carriesOn("the workload is under way");
      healedAt = body.run();
      carriesOn("the workload carries on after " + name);
    } catch (Exception | AssertionError e) {
      append(String.format("%-46s failed: %s", name, MixedWorkload.oneLine(e)));
      throw e;
    } finally {
      workload.fault("none");
      workload.stop();
    }
    ScenarioReport r;
    try {
      r = audit.run(name, healedAt, written, split, ops, failed);
    } catch (Exception | AssertionError e) {
      append(String.format("%-46s audit failed: %s", name, MixedWorkload.oneLine(e)));
      throw e;
    }
    append(r.line());
    System.out.println(ScenarioReport.header() + "\n" + r.line());
    assertEquals(0, r.blocksLost(), name + ": blocks lost");
    assertEquals(List.of(), r.damagedFiles(), name + ": files not as written");
    assertEquals(0, r.splitBrainObservations(), name + ": samples with two active NameNodes");
    assertTrue(r.filesVerified() > 0 && r.monitorFilesCompared() == r.filesVerified(), r.toString());
    return r;
  }

  /** Waits until the workload has completed more operations: it is not stuck. */
  void carriesOn(String what) throws Exception {
    long ops = workload.operations();
    Await.until(what, WAIT, () -> workload.operations() >= ops + OPERATIONS_UNDER_FAULT);
  }

  /** Tells the workload which fault is under way (its outages are kept per fault). */
  <F extends Fault> F inject(F f) {
    workload.fault(f.name());
    injected.add(f);
    return f;
  }

  ClusterAudit audit() {
    return audit;
  }

  /** Appends one line to the suite's table, with the header first in a new file. */
  private static void append(String line) throws IOException {
    String text = (TABLE.exists() ? "" : ScenarioReport.header() + "\n") + line + "\n";
    Files.writeString(TABLE.toPath(), text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Override
  public void close() throws InterruptedException {
    workload.close();
    List<String> slow = workload.slowOperations();
    List<String> failed = workload.firstFailures();
    if (!failed.isEmpty()) {
      System.out.println("The workload's first failed operations:\n" + String.join("\n", failed));
    }
    if (!slow.isEmpty()) {
      System.out.println("Where client operations slower than a second waited:\n" + String.join("\n", slow));
    }
  }
}
