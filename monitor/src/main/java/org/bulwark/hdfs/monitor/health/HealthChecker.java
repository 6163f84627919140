package org.bulwark.hdfs.monitor.health;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.bulwark.hdfs.monitor.MonitorKeys;
import org.bulwark.hdfs.monitor.collect.MonitorStatus;
import org.bulwark.hdfs.monitor.collect.NamespaceSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a round of health checks every {@code bulwark.monitor.health.interval}, on its own thread so a slow
 * poll never delays it. Each namespace's questions run in parallel and the round waits for them at most
 * {@code bulwark.monitor.health.timeout}: what has not answered by then is judged as failed, and a canary
 * still hanging from an earlier round is reported as hanging rather than started again.
 */
public final class HealthChecker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HealthChecker.class);

  /** One namespace's probe and what the checker remembers of it between rounds. */
  private static final class Watched {
    final String namespace;
    final NamespaceProbe probe;
    /** When an active NameNode was last seen (the checker's start before the first sighting). */
    long activeSeenAt;
    Future<Long> canary;
    long canaryStartedAt;

    Watched(String namespace, NamespaceProbe probe, long now) {
      this.namespace = namespace;
      this.probe = probe;
      this.activeSeenAt = now;
    }
  }

  private final List<Watched> watched = new ArrayList<>();
  private final MonitorStatus status;
  private final HealthRules rules;
  private final long intervalMillis;
  private final long timeoutMillis;
  private final long pollIntervalMillis;
  private final long startedAt = System.currentTimeMillis();
  private final ExecutorService pool;
  private final Thread thread;
  private volatile HealthReport latest = HealthReport.NONE;
  private volatile boolean running = true;

  /**
   * @param canaryDir the canary's directory in every namespace ({@link #canaryDir(Configuration)}), or null
   *     for no canary
   */
  public HealthChecker(Configuration conf, List<URI> namespaces, MonitorStatus status, String canaryDir) {
    this.status = status;
    this.rules = new HealthRules(HealthThresholds.from(conf));
    this.intervalMillis = MonitorKeys.HEALTH_INTERVAL.get(conf);
    this.timeoutMillis = MonitorKeys.HEALTH_TIMEOUT.get(conf);
    this.pollIntervalMillis = MonitorKeys.POLL_INTERVAL.get(conf);
    for (URI uri : namespaces) {
      watched.add(new Watched(uri.toString(), new NamespaceProbe(conf, uri, canaryDir, timeoutMillis), startedAt));
    }
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "blockmonitor-health-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.thread = new Thread(this::loop, "blockmonitor-health");
    this.thread.setDaemon(true);
  }

  /**
   * {@code bulwark.monitor.health.canary.dir} as an absolute path without a trailing slash, or null when it is
   * empty (no canary); anything else is refused naming the key.
   */
  public static String canaryDir(Configuration conf) {
    String dir = MonitorKeys.CANARY_DIR.get(conf);
    if (dir == null || dir.isEmpty()) {
      return null;
    }
    if (!dir.startsWith("/")) {
      throw new InvalidConfigException(MonitorKeys.CANARY_DIR.getName(), dir,
          "an absolute path such as /tmp/.bulwark-canary, or empty to disable the canary");
    }
    return new Path(dir).toUri().getPath();
  }

  public void start() {
    thread.start();
  }

  /** The namespaces checked, as the checks name them. */
  public List<String> namespaces() {
    List<String> out = new ArrayList<>();
    for (Watched w : watched) {
      out.add(w.namespace);
    }
    return out;
  }

  /** The last complete round ({@link HealthReport#NONE} before the first). */
  public HealthReport latest() {
    return latest;
  }

  private void loop() {
    while (running) {
      try {
        try {
          checkNow();
        } catch (RuntimeException e) {
          LOG.warn("Health check round failed", e);
        }
        TimeUnit.MILLISECONDS.sleep(intervalMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Runs one round now and returns it (tests, and the daemon's own loop). */
  public synchronized HealthReport checkNow() throws InterruptedException {
    long roundStart = System.currentTimeMillis();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    Map<Watched, Future<long[]>> blocks = new LinkedHashMap<>();
    Map<Watched, Future<int[]>> dataNodes = new LinkedHashMap<>();
    Map<Watched, Future<Map<String, String>>> states = new LinkedHashMap<>();
    for (Watched w : watched) {
      if (w.probe.canaryEnabled() && (w.canary == null || w.canary.isDone())) {
        w.canary = pool.submit(w.probe::canary);
        w.canaryStartedAt = roundStart;
      }
      blocks.put(w, pool.submit(w.probe::blockCounts));
      dataNodes.put(w, pool.submit(w.probe::dataNodes));
      states.put(w, pool.submit(w.probe::nameNodeStates));
    }
    Map<String, NamespaceSummary> scans = status.lastScans();
    List<CheckResult> results = new ArrayList<>();
    for (Watched w : watched) {
      NamespaceFacts f = new NamespaceFacts(w.namespace);
      if (!w.probe.canaryEnabled()) {
        f.canaryDisabled();
      } else {
        Answer<Long> c = await(w.canary, deadline, false);
        if (c.error == null) {
          f.canaryPassed(c.value);
        } else {
          f.canaryFailed(c.timedOut ? "no answer for " + (System.currentTimeMillis() - w.canaryStartedAt) / 1000 + " s" : c.error);
        }
      }
      Answer<Map<String, String>> s = await(states.get(w), deadline, true);
      if (s.error == null) {
        s.value.forEach(f::nameNode);
      }
      // Measured between rounds' starts: a round kept waiting by another namespace does not stretch it.
      if (f.activeNameNode() != null) {
        w.activeSeenAt = roundStart;
      }
      f.withoutActiveFor(roundStart - w.activeSeenAt);
      Answer<long[]> b = await(blocks.get(w), deadline, true);
      NamespaceSummary scan = scans.get(w.namespace);
      if (b.error == null) {
        f.blocks(b.value[0], b.value[1], scan == null ? -1 : scan.blocks);
      } else {
        f.blocksUnknown(b.error);
      }
      Answer<int[]> d = await(dataNodes.get(w), deadline, true);
      if (d.error == null) {
        f.dataNodes(d.value[0], d.value[1], d.value[2]);
      } else {
        f.dataNodesUnknown(d.error);
      }
      results.addAll(rules.judge(f));
    }
    long now = System.currentTimeMillis();
    String error = status.lastErrorAt() > status.lastPollFinished() ? status.lastError() : null;
    long longest = status.longestRecentPollMillis();
    results.add(rules.lastPoll(status.lastPollFinished(), startedAt, now, error,
        longest == 0 ? 0 : pollIntervalMillis + longest));
    HealthReport report = new HealthReport(now, results);
    logChanges(latest, report);
    latest = report;
    return report;
  }

  /** Logs each check whose severity changed since the last round, once, as an operator's log should. */
  private static void logChanges(HealthReport before, HealthReport after) {
    for (CheckResult c : after.checks) {
      CheckResult was = before.find(c.namespace, c.check);
      if (was == null ? c.severity != Severity.OK : was.severity != c.severity) {
        if (c.severity == Severity.OK) {
          LOG.info("Health {}", c);
        } else {
          LOG.warn("Health {}", c);
        }
      }
    }
  }

  /** A task's value, or why there is none: its error, or that it had not answered by the deadline. */
  private static final class Answer<T> {
    final T value;
    final String error;
    final boolean timedOut;

    Answer(T value, String error, boolean timedOut) {
      this.value = value;
      this.error = error;
      this.timedOut = timedOut;
    }
  }

  /** Waits for a task until the round's deadline; a late task is interrupted when {@code cancelLate}. */
  private static <T> Answer<T> await(Future<T> task, long deadlineNanos, boolean cancelLate) throws InterruptedException {
    try {
      return new Answer<>(task.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS), null, false);
    } catch (TimeoutException e) {
      if (cancelLate) {
        task.cancel(true);
      }
      return new Answer<>(null, "no answer within the health timeout", true);
    } catch (ExecutionException e) {
      return new Answer<>(null, NamespaceProbe.firstLine(e.getCause()), false);
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    pool.shutdownNow();
    for (Watched w : watched) {
      try {
        w.probe.close();
      } catch (IOException e) {
        LOG.debug("closing the probe of {}", w.namespace, e);
      }
    }
  }
}
