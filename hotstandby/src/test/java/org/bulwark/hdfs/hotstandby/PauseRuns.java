package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.tools.NNHAServiceTarget;
import org.bulwark.hdfs.hotstandby.ProcessHaCluster.ControllerKind;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FreePorts;

/**
 * The failover benchmark's pause suite: what must not be a failover. Process mode (every NameNode and controller a JVM
 * of its own), the stock ZKFC and ours with the same keys: health checks every 200 ms with a 1 s timeout, 10 s
 * ZooKeeper sessions (the stock default). Each pause is made again and again on the active NameNode, or on what it
 * depends on, while a sampler asks both NameNodes for their HA state every 10 ms; a run counts as a failover when the
 * other NameNode answered active or the paused one standby at any sample until well after the pause.
 * <ul>
 *   <li>{@code pause-sigstop}: the active NameNode stopped (kill -STOP) for half the health timeout, then resumed;
 *   <li>{@code pause-write-lock}: its namesystem write lock held for half the health timeout, with more client calls
 *       than it has handlers queued behind it ({@link WriteLockHold});
 *   <li>{@code pause-write-lock-lifeline}: the same with {@code dfs.namenode.lifeline.rpc-address} set, so health checks
 *       bypass the queue (HDFS-9311), for three health timeouts;
 *   <li>{@code zookeeper-restart}: the ZooKeeper server stopped for 2 s and started again, within the session timeout;
 *   <li>{@code controller-restart}: the active NameNode's controller killed with kill -9 and started again at once.
 * </ul>
 * The sigstop and write-lock pauses are shown real by a client call made during each, whose wait is reported.
 */
final class PauseRuns {
  private static final Duration WAIT = Duration.ofSeconds(90);
  static final long HEALTH_TIMEOUT_MS = 1000;
  static final long SESSION_TIMEOUT_MS = 10_000;
  private static final Duration ZOOKEEPER_DOWN = Duration.ofSeconds(2);
  /** More client calls than a NameNode has handlers ({@code dfs.namenode.handler.count}, 10). */
  private static final int QUEUED_CALLS = 24;

  /** A pause the controllers must ride out. */
  enum Pause {
    SIGSTOP("pause-sigstop", HEALTH_TIMEOUT_MS / 2, false),
    WRITE_LOCK("pause-write-lock", HEALTH_TIMEOUT_MS / 2, false),
    WRITE_LOCK_LIFELINE("pause-write-lock-lifeline", 3 * HEALTH_TIMEOUT_MS, true),
    ZOOKEEPER_RESTART("zookeeper-restart", ZOOKEEPER_DOWN.toMillis(), false),
    CONTROLLER_RESTART("controller-restart", 0, false);

    final String label;
    final long millis;
    final boolean lifeline;

    Pause(String label, long millis, boolean lifeline) {
      this.label = label;
      this.millis = millis;
      this.lifeline = lifeline;
    }

    /** How long after the pause a failover it caused would have shown. */
    Duration window() {
      return this == ZOOKEEPER_RESTART || this == CONTROLLER_RESTART
          ? Duration.ofMillis(SESSION_TIMEOUT_MS + 5 * HEALTH_TIMEOUT_MS)
          : Duration.ofMillis(5 * HEALTH_TIMEOUT_MS);
    }
  }

  /** What one pause kind did under one controller. */
  static final class Result {
    final String name;
    final Pause pause;
    int runs;
    int failovers;
    long splitBrain;
    /** How long the client call made during each pause waited (sigstop and write-lock pauses). */
    final List<Double> probeMillis = new ArrayList<>();

    Result(String name, Pause pause) {
      this.name = name;
      this.pause = pause;
    }
  }

  private final File dir;
  private final ControllerKind kind;
  private final int runs;

  PauseRuns(File dir, ControllerKind kind, int runs) {
    this.dir = dir;
    this.kind = kind;
    this.runs = runs;
  }

  String name(Pause pause) {
    return (kind == ControllerKind.BULWARK ? "bulwark-" : "stock-") + pause.label;
  }

  /** Runs {@code pauses} in order, on one cluster for those without a lifeline and one for those with. */
  List<Result> run(List<Pause> pauses) throws Exception {
    List<Result> results = new ArrayList<>();
    for (boolean lifeline : new boolean[] {false, true}) {
      List<Pause> these = new ArrayList<>();
      for (Pause p : pauses) {
        if (p.lifeline == lifeline) {
          these.add(p);
        }
      }
      if (!these.isEmpty()) {
        results.addAll(runOnOneCluster(these, lifeline));
      }
    }
    return results;
  }

  private List<Result> runOnOneCluster(List<Pause> pauses, boolean lifeline) throws Exception {
    File runDir = new File(dir, (kind == ControllerKind.BULWARK ? "bulwark" : "stock") + "-pauses" + (lifeline ? "-lifeline" : ""));
    File triggers = new File(runDir, "write-lock-holds");
    int[] lifelinePorts = lifeline ? FreePorts.pick(2) : new int[0];
    List<Result> results = new ArrayList<>();
    try (ProcessHaCluster ha = ProcessHaCluster.start(runDir, 2, 3, -1, ProcessFailoverRuns.JOURNAL_PROCESSES, false,
        c -> settings(c, triggers, lifelinePorts))) {
      Files.createDirectories(triggers.toPath());
      if (kind == ControllerKind.STOCK) {
        StockZkfc.formatZooKeeper(ha.controllerConf(0));
      }
      for (int i = 0; i < 2; i++) {
        ha.startController(i, kind, ha.controllerConf(i));
      }
      // The queued calls wait out the longest hold rather than time out and fail over to the standby.
      Configuration clientConf = new Configuration(ha.conf());
      clientConf.setLong("ipc.client.rpc-timeout.ms", WAIT.toMillis());
      try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://" + ProcessHaCluster.NS), clientConf)) {
        for (Pause pause : pauses) {
          Result r = new Result(name(pause), pause);
          long splitBefore = ha.splitBrain.observations();
          for (int run = 0; run < runs; run++) {
            pauseOnce(ha, fs, triggers, r);
          }
          r.splitBrain = ha.splitBrain.observations() - splitBefore;
          results.add(r);
          System.out.printf("%s: %d failovers in %d pauses, %d split-brain samples, client calls waited %s ms%n",
              r.name, r.failovers, r.runs, r.splitBrain, r.probeMillis);
        }
      }
    }
    return results;
  }

  /** The same keys for both controllers: the failover benchmark's, with the stock ZKFC's default 10 s sessions. */
  private static void settings(Configuration c, File triggers, int[] lifelinePorts) {
    ProcessFailoverRuns.sameControllerSettings(c, 200, 2000);
    c.set(HotStandbyKeys.ZK_SESSION_TIMEOUT.getName(), SESSION_TIMEOUT_MS + "ms");
    c.setLong("ha.zookeeper.session-timeout.ms", SESSION_TIMEOUT_MS);
    String plugins = c.get("dfs.namenode.plugins", "");
    c.set("dfs.namenode.plugins", (plugins.isEmpty() ? "" : plugins + ",") + WriteLockHold.class.getName());
    c.set(WriteLockHold.DIRECTORY_KEY, triggers.getAbsolutePath());
    for (int i = 0; i < lifelinePorts.length; i++) {
      c.set("dfs.namenode.lifeline.rpc-address." + ProcessHaCluster.NS + "." + ProcessHaCluster.id(i),
          "127.0.0.1:" + lifelinePorts[i]);
    }
  }

  private void pauseOnce(ProcessHaCluster ha, FileSystem fs, File triggers, Result r) throws Exception {
    int active = ha.awaitPair();
    int other = 1 - active;
    Await.until(r.name + ": the standby's controller ready", WAIT,
        () -> ProcessFailoverRuns.standbyReady(kind, ha.controller(other)));
    if (kind == ControllerKind.BULWARK) {
      Await.until(r.name + ": the active's controller leads", WAIT,
          () -> "ACTIVE".equals(DaemonLog.lastGroup(ha.controller(active).log(), ProcessFailoverRuns.OUR_STATE)));
    }
    boolean failedOver;
    try (ActiveStateWatch watch = new ActiveStateWatch(ha::state, 2, active)) {
      switch (r.pause) {
        case SIGSTOP:
          r.probeMillis.add(sigstop(ha, fs, active, r.pause.millis));
          break;
        case WRITE_LOCK:
        case WRITE_LOCK_LIFELINE:
          r.probeMillis.add(holdWriteLock(ha, fs, triggers, active, r.pause.millis));
          break;
        case ZOOKEEPER_RESTART:
          ha.restartZooKeeper(ZOOKEEPER_DOWN);
          break;
        case CONTROLLER_RESTART:
          ha.controller(active).kill();
          ha.startController(active, kind, ha.controllerConf(active));
          break;
        default:
          throw new IllegalStateException(r.pause.name());
      }
      TimeUnit.MILLISECONDS.sleep(r.pause.window().toMillis());
      failedOver = watch.otherActive.get() > 0 || watch.notActive.get() > 0;
    }
    r.runs++;
    if (failedOver) {
      r.failovers++;
      System.out.println(r.name + ": " + ProcessHaCluster.id(active) + " lost the active state");
    }
    for (int i = 0; i < 2; i++) {
      if (!ha.nameNode(i).isAlive()) { // stopped by the quorum journal after a failover, as an old active is
        ha.startNameNode(i);
      }
    }
  }

  /** kill -STOP of the active for {@code millis}, then -CONT; returns how long a client call made meanwhile waited. */
  private static double sigstop(ProcessHaCluster ha, FileSystem fs, int nn, long millis) throws Exception {
    ExecutorService probe = Executors.newSingleThreadExecutor();
    try {
      ha.nameNode(nn).freeze();
      Future<Double> waited;
      try {
        waited = probe.submit(() -> timedCall(fs));
        TimeUnit.MILLISECONDS.sleep(millis);
      } finally {
        ha.nameNode(nn).resume();
      }
      return waited.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      probe.shutdownNow();
    }
  }

  /**
   * Asks NameNode {@code nn}'s {@link WriteLockHold} to hold its write lock for {@code millis} while more client calls
   * than it has handlers wait behind it; returns how long one client call made during the hold waited.
   */
  private static double holdWriteLock(ProcessHaCluster ha, FileSystem fs, File triggers, int nn, long millis)
      throws Exception {
    int port = new NNHAServiceTarget(ha.conf(), ProcessHaCluster.NS, ProcessHaCluster.id(nn)).getAddress().getPort();
    File done = WriteLockHold.done(triggers, port);
    Files.deleteIfExists(done.toPath());
    File written = new File(triggers, "next-" + port);
    Files.write(written.toPath(), Long.toString(millis).getBytes(StandardCharsets.UTF_8));
    Files.move(written.toPath(), WriteLockHold.trigger(triggers, port).toPath(), StandardCopyOption.ATOMIC_MOVE);
    Await.until("the write lock held", WAIT, () -> !WriteLockHold.trigger(triggers, port).exists());
    ExecutorService clients = Executors.newFixedThreadPool(QUEUED_CALLS + 1);
    try {
      List<Future<?>> calls = new ArrayList<>();
      for (int i = 0; i < QUEUED_CALLS; i++) {
        Path d = new Path("/paused/" + i);
        calls.add(clients.submit(() -> fs.mkdirs(d)));
      }
      Future<Double> waited = clients.submit(() -> timedCall(fs));
      for (Future<?> call : calls) {
        call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      }
      Await.until("the write lock released", WAIT, done::exists);
      return waited.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      clients.shutdownNow();
    }
  }

  private static double timedCall(FileSystem fs) throws Exception {
    long start = System.nanoTime();
    fs.getFileStatus(new Path("/"));
    return Math.round((System.nanoTime() - start) / 1e5) / 10.0;
  }
}
