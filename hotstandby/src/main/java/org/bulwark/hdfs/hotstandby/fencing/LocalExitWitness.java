package org.bulwark.hdfs.hotstandby.fencing;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sees, on the NameNode's own host, that its process has exited: then there is nothing left to fence,
 * and the next leader can skip the fencing methods (a forked script, an ssh round trip) for it. While
 * the NameNode answers, the witness learns which process listens on its port (its pid and start time,
 * from {@code /proc}). When the NameNode is gone, it says the process exited only if that very process
 * has ended (not only closed its port; a zombie counts as ended) and nothing else listens on the port.
 * Anything less (another user's process, no {@code /proc}, a process still alive) is no evidence, and
 * the NameNode is fenced as always.
 *
 * <p>A process whose every thread is exiting counts as ended: none of them will run the program's code
 * again. That matters for a killed NameNode with a large heap: the kernel releases its memory before its
 * descriptors, so its sockets close, and its port refuses, only after that (30 ms for a 100 MB heap, 460 ms
 * for 6 GB, measured on a 2-core VM); its main thread shows the exit within 2-5 ms. {@link #watchLeaving}
 * reports that first sign, so the controller need not wait for the sockets.
 *
 * <p>Whether anything listens is asked by connecting, not by reading {@code /proc/net/tcp}: on a busy
 * host that table takes tens of milliseconds to read (measured: 13-27 ms), longer than the fencing it saves.
 */
public final class LocalExitWitness implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalExitWitness.class);
  private static final long POLL_MILLIS = 2;
  private static final int CONNECT_TIMEOUT_MILLIS = 100;
  /** After a lookup that found no process, the next waits this long (it reads every process's descriptors). */
  static final long LOOKUP_RETRY_MILLIS = 60_000;

  /** Whether something accepts connections on the NameNode's port. */
  @FunctionalInterface
  interface PortProbe {
    boolean accepting() throws IOException;
  }

  private final ProcessTable table;
  private final int port;
  private final PortProbe probe;
  private final String nameNode;
  private final LongSupplier clock;
  /** Runs the lookups and the polls of {@link #watchLeaving}, one at a time. */
  private final ScheduledExecutorService lookups;
  private final AtomicBoolean lookingUp = new AtomicBoolean();
  private volatile ProcessTable.Process known;
  private volatile boolean warned;
  private volatile long nextLookupAt;
  /** The process whose leaving was last reported: each is reported once. */
  private volatile ProcessTable.Process leavingReported;

  LocalExitWitness(ProcessTable table, int port, PortProbe probe, String nameNode, LongSupplier clock) {
    this.table = table;
    this.port = port;
    this.probe = probe;
    this.nameNode = nameNode;
    this.clock = clock;
    this.lookups = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "exit-witness-" + nameNode);
      t.setDaemon(true);
      return t;
    });
  }

  /** A witness of the NameNode listening on {@code address} of this host; null where there is no {@code /proc}. */
  public static LocalExitWitness forAddress(InetSocketAddress address, String nameNode) {
    ProcessTable table = ProcessTable.system();
    if (!table.readable()) {
      LOG.info("No /proc on this host: NameNode {} is fenced by the fencing methods whenever it fails", nameNode);
      return null;
    }
    // Monotonic: a wall clock stepped back would stretch the exit wait, which holds up the decision thread.
    return new LocalExitWitness(table, address.getPort(), () -> accepts(address), nameNode, Time::monotonicNow);
  }

  /** True when a connection to {@code address} is accepted; false only when it is refused. */
  private static boolean accepts(InetSocketAddress address) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(address, CONNECT_TIMEOUT_MILLIS);
      return true;
    } catch (ConnectException e) {
      return false;
    }
  }

  /**
   * The NameNode answered a health check: learns its process if it is not known yet or the known one
   * has exited (a restarted NameNode), in the background. A known process that has exited is forgotten
   * at once, so its exit is never taken for the restarted NameNode's.
   */
  public void answered() {
    ProcessTable.Process p = known;
    try {
      if (p != null) {
        if (!table.lifeOf(p).exited()) {
          return;
        }
        known = null;
        nextLookupAt = 0;
      }
    } catch (IOException e) {
      return;
    }
    if (clock.getAsLong() < nextLookupAt) {
      return;
    }
    if (lookingUp.compareAndSet(false, true)) {
      try {
        lookups.execute(this::lookUp);
      } catch (RejectedExecutionException e) {
        lookingUp.set(false);
      }
    }
  }

  /** The process last seen listening, or null. */
  ProcessTable.Process known() {
    return known;
  }

  /** Finds the process listening on the port (on the caller's thread; {@link #answered} runs it in the background). */
  void lookUp() {
    try {
      ProcessTable.Process found = table.owner(table.listeners(port));
      if (found != null) {
        known = found;
        LOG.info("NameNode {} runs as {} on this host", nameNode, found);
        return;
      }
      nextLookupAt = clock.getAsLong() + LOOKUP_RETRY_MILLIS;
      if (!warned) {
        warned = true;
        LOG.info("Cannot tell which process of this host listens on port {} (NameNode {}; another user's process?): "
            + "it is fenced by the fencing methods whenever it fails", port, nameNode);
      }
    } catch (IOException | RuntimeException e) {
      nextLookupAt = clock.getAsLong() + LOOKUP_RETRY_MILLIS;
      if (!warned) {
        warned = true;
        LOG.info("Cannot read this host's processes ({}): NameNode {} is fenced by the fencing methods whenever it fails",
            e.toString(), nameNode);
      }
    } finally {
      lookingUp.set(false);
    }
  }

  /**
   * Checks every {@code pollMillis} whether the NameNode's known process has begun to exit (its main thread
   * exiting, a kill's first sign) or has exited, and then calls {@code onLeaving} once for that process. One
   * small file read per poll.
   */
  public void watchLeaving(Runnable onLeaving, long pollMillis) {
    lookups.scheduleWithFixedDelay(() -> pollLeaving(onLeaving), pollMillis, pollMillis, TimeUnit.MILLISECONDS);
  }

  void pollLeaving(Runnable onLeaving) {
    ProcessTable.Process p = known;
    if (p == null || p == leavingReported) {
      return;
    }
    try {
      if (table.lifeOf(p).leaving()) {
        leavingReported = p;
        LOG.info("The process of NameNode {} ({}) is exiting", nameNode, p);
        onLeaving.run();
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Cannot read the state of {}: {}", p, e.toString());
    }
  }

  /**
   * The NameNode's process ("pid N") if it has exited, waiting up to {@code waitMillis} for a process the
   * kernel is tearing down to finish; null when it has not, is not known, or something listens on its
   * port. A process that is not exiting is not waited for: nothing says it will (the controller's own JVM
   * in an embedded cluster, a NameNode that closed its port but runs on); waiting for it cost every such
   * failover the whole wait (100 ms in the embedded benchmark).
   */
  public String exitedProcess(long waitMillis) {
    ProcessTable.Process p = known;
    if (p == null) {
      return null;
    }
    long deadline = clock.getAsLong() + waitMillis;
    try {
      while (true) {
        ProcessTable.Life life = table.lifeOf(p);
        if (life.exited() && refused()) {
          return p.toString();
        }
        if (life == ProcessTable.Life.EVERY_THREAD_EXITING || life == ProcessTable.Life.FINISHED) {
          // Its port may still take connections into the kernel's queue (its memory is released first): no matter.
          return p + ", every thread exiting";
        }
        if (life != ProcessTable.Life.EXITING || clock.getAsLong() >= deadline) {
          return null;
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (IOException | RuntimeException e) {
      return null; // no evidence: the NameNode is fenced
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Whether the port refuses connections; a connection taken, or one that timed out, is not a refusal. */
  private boolean refused() {
    try {
      return !probe.accepting();
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    lookups.shutdownNow();
  }
}
