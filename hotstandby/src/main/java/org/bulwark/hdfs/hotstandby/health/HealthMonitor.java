package org.bulwark.hdfs.hotstandby.health;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

import javax.net.SocketFactory;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.HealthCheckFailedException;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks one NameNode's health over {@link HAServiceProtocol} at a fixed interval on its own thread
 * and reports every change (health or HA state) to a listener. A refused connection is told apart
 * from a timeout: the first means the process is gone (nobody can be served by it, leadership can go
 * at once), the second that it may be hung and still think itself active (it must be fenced). A
 * {@link ConnectionWatch} brings the next check forward the moment the NameNode closes its connections,
 * and reports the NameNode gone when its port then refuses, without waiting for a check still in flight.
 * It also says how long the NameNode has left its checks unanswered ({@link #unansweredMillis}): a controller
 * watching the active NameNode from a standby's side learns whether a graceful fence could still work.
 */
public final class HealthMonitor implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HealthMonitor.class);
  private static final HealthReport REFUSED = new HealthReport(NameNodeHealth.GONE, null, "connection refused");
  private static final HealthReport LEAVING = new HealthReport(NameNodeHealth.GONE, null, "its process is exiting");

  private final Configuration conf;
  private final InetSocketAddress address;
  private final long intervalMillis;
  private final long rpcTimeoutMillis;
  private final Consumer<HealthReport> listener;
  private volatile Consumer<Throwable> fatal = error -> { };
  private final Thread thread;
  private final ConnectionWatch watch;
  private final Object wake = new Object();
  /** Set by the watch: the kept proxy's connection is dead, the next check must run now and dial afresh. */
  private volatile boolean connectionLost;
  private volatile boolean running = true;
  private volatile HealthReport last;
  /** {@link System#nanoTime} when the watch last found the port refusing, 0 if never: see {@link #refused}. */
  private volatile long refusedAt;
  private final Object publishing = new Object();
  /** Set by {@link #processLeaving}, cleared by the next answer: the NameNode's process is on its way out. */
  private volatile boolean leaving;
  /** Set by {@link #reportNextCheck}: the first check begun at or after this nanoTime is reported; 0 when none is asked for. */
  private volatile long publishChecksFrom;
  /** {@link System#nanoTime} at the start of the first check since the NameNode last answered; 0 once it answers. */
  private volatile long unansweredSince;
  private HAServiceProtocol proxy;
  /** This monitor's own IPC client: see {@link HaServiceProxies#privateSockets}. */
  private final SocketFactory sockets = HaServiceProxies.privateSockets();

  public HealthMonitor(Configuration conf, InetSocketAddress address, long intervalMillis, long rpcTimeoutMillis,
      Consumer<HealthReport> listener, String name) {
    this.conf = conf;
    this.address = address;
    this.intervalMillis = intervalMillis;
    this.rpcTimeoutMillis = rpcTimeoutMillis;
    this.listener = listener;
    this.thread = new Thread(this::loop, "health-" + name);
    this.thread.setDaemon(true);
    this.watch = new ConnectionWatch(address, intervalMillis, this::checkNow, this::refused, name);
  }

  /**
   * Who is told of an Error (out of memory, a class that cannot be loaded) that ended the checks, on the thread it
   * broke: its owner learns nothing of the NameNode any more (set before {@link #start}).
   */
  public void onFatalError(Consumer<Throwable> handler) {
    fatal = handler;
  }

  public void start() {
    thread.start();
    watch.start();
  }

  /** Runs the next check now instead of at the end of the interval. */
  void checkNow() {
    synchronized (wake) {
      connectionLost = true;
      wake.notifyAll();
    }
  }

  /** The last report, or null before the first check finished. */
  public HealthReport last() {
    return last;
  }

  private void loop() {
    try {
      checkUntilClosed();
    } catch (Throwable t) {
      failed(t);
    }
  }

  private void checkUntilClosed() {
    while (running) {
      long started = System.nanoTime();
      if (connectionLost) {
        // A call on the closed connection would fail as a reset (read as a hang); a new one tells
        // "refused" (gone) from "accepted" (restarted already).
        connectionLost = false;
        dropProxy();
      }
      HealthReport report = check().ofCheckStartedAt(started);
      long refused = refusedAt;
      if (report.health() == NameNodeHealth.UNRESPONSIVE && refused != 0 && refused - started > 0) {
        // The check hung on a connection the dying process had accepted; its port refused since: gone.
        report = REFUSED;
      } else if (report.health() == NameNodeHealth.UNRESPONSIVE && leaving) {
        report = LEAVING; // the check timed out or broke on a process being torn down: not a hang
      }
      long from = publishChecksFrom;
      boolean asked = from != 0 && started - from >= 0;
      if (asked) {
        publishChecksFrom = 0;
      }
      publish(report, asked);
      long sleep = intervalMillis - (System.nanoTime() - started) / 1_000_000;
      try {
        synchronized (wake) {
          if (!connectionLost && sleep > 0) {
            wake.wait(sleep);
          }
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * The watch found the port refusing after the NameNode closed its connection: nothing listens there, so
   * the NameNode is reported gone now, even while a check is still waiting for its answer.
   */
  private void refused() {
    refusedAt = System.nanoTime() | 1;
    publish(REFUSED, false);
    checkNow();
  }

  /**
   * The NameNode's process was seen exiting on this host (its sockets close only once the kernel has
   * released its memory): it is reported gone now, without waiting for them or for a check.
   */
  public void processLeaving() {
    leaving = true;
    publish(LEAVING, false);
  }

  /**
   * Reports the outcome of the next check that begins from now even if nothing changed: a listener that has
   * set a report aside (one that only waited behind the listener's own call) learns what holds now.
   */
  public void reportNextCheck() {
    publishChecksFrom = System.nanoTime() | 1;
  }

  /** Tells the listener of a change, or of this report when {@code asked}; the checks' thread and the watch's both report. */
  private void publish(HealthReport report, boolean asked) {
    if (!running) {
      return; // closed: a check cut short by the close says nothing of the NameNode
    }
    synchronized (publishing) {
      boolean changed = !report.sameAs(last);
      last = report;
      if (changed) {
        LOG.info("NameNode at {}: {}", address, report);
      }
      if (changed || asked) {
        try {
          listener.accept(report);
        } catch (RuntimeException e) {
          LOG.warn("NameNode at {}: passing on the report {} failed", address, report, e);
        } catch (Throwable t) {
          failed(t); // on the watch's thread or the exit witness's too
        }
      }
    }
  }

  /** An Error on a thread that reports: the checks end, and the owner is told (see {@link #onFatalError}). */
  private void failed(Throwable t) {
    if (!running) {
      return; // closed, or told already
    }
    running = false;
    LOG.error("Health checks of the NameNode at {} end", address, t);
    fatal.accept(t);
  }

  /**
   * How long the NameNode has left this monitor's checks unanswered: since the start of the first check
   * after its last answer (a refusal, a timeout or a check still waiting), 0 when the last check was
   * answered. An error the NameNode sent back (unhealthy, say) is an answer.
   */
  public long unansweredMillis() {
    long since = unansweredSince;
    return since == 0 ? 0 : Math.max(0, (System.nanoTime() - since) / 1_000_000);
  }

  private HealthReport check() {
    if (unansweredSince == 0) {
      unansweredSince = System.nanoTime() | 1;
    }
    try {
      if (proxy == null) {
        proxy = HaServiceProxies.open(conf, address, rpcTimeoutMillis, sockets);
      }
      proxy.monitorHealth();
      HealthReport healthy = new HealthReport(NameNodeHealth.HEALTHY, proxy.getServiceStatus().getState(), null);
      unansweredSince = 0;
      leaving = false;
      return healthy;
    } catch (Throwable t) {
      if (t instanceof RemoteException) {
        unansweredSince = 0;
        leaving = false;
      }
      dropProxy();
      return classify(t);
    }
  }

  /** How a failed check is read: see the class comment. */
  static HealthReport classify(Throwable t) {
    Throwable cause = t instanceof RemoteException
        ? ((RemoteException) t).unwrapRemoteException(HealthCheckFailedException.class)
        : t;
    if (cause instanceof HealthCheckFailedException) {
      return new HealthReport(NameNodeHealth.UNHEALTHY, null, firstLine(cause.getMessage()));
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ConnectException) {
        return REFUSED;
      }
    }
    return new HealthReport(NameNodeHealth.UNRESPONSIVE, null, t.getClass().getSimpleName() + ": " + firstLine(t.getMessage()));
  }

  /** A RemoteException's message carries the server's stack trace after its first line: the report keeps the line. */
  private static String firstLine(String message) {
    return message == null ? null : message.split("\n")[0];
  }

  private void dropProxy() {
    if (proxy != null) {
      RPC.stopProxy(proxy);
      proxy = null;
    }
  }

  @Override
  public void close() throws IOException {
    running = false;
    watch.close();
    thread.interrupt();
    try {
      thread.join(rpcTimeoutMillis + 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    dropProxy();
  }
}
