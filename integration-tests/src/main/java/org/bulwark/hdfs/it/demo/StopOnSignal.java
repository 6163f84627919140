package org.bulwark.hdfs.it.demo;

import java.io.Closeable;
import java.util.LinkedHashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP as a request to stop the demo, taken on the JVM's signal thread rather than in
 * a shutdown hook, so that the embedded cluster is closed while the JVM still runs normally. Closed from a shutdown
 * hook, its DataNode and ZooKeeper threads failed on Hadoop's own hooks ("Shutdown in progress, cannot remove a
 * shutdownHook") and the JVM stayed up for a minute. A second signal halts the JVM at once. A signal ignored when the
 * JVM started (nohup, a job a script put in the background) stays ignored: the JVM installs no handler for it.
 */
final class StopOnSignal implements Closeable {
  private static final String[] NAMES = {"INT", "TERM", "HUP"};

  private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
  private volatile boolean signalled;

  private StopOnSignal() {
  }

  /** Handles the signals until {@link #close()}: the first runs {@code stop}, a second halts. */
  static StopOnSignal install(Runnable stop) {
    StopOnSignal s = new StopOnSignal();
    SignalHandler handler = signal -> {
      if (s.signalled) {
        Runtime.getRuntime().halt(128 + signal.getNumber());
      }
      s.signalled = true;
      System.err.println("bulwark demo: SIG" + signal.getName() + ": stopping the cluster (again to halt at once)");
      stop.run();
    };
    for (String name : NAMES) {
      try {
        Signal signal = new Signal(name);
        s.previous.put(signal, Signal.handle(signal, handler));
      } catch (IllegalArgumentException notHere) {
        // HUP ignored by nohup, or a signal the platform lacks: left as it is
      }
    }
    return s;
  }

  /** Whether a signal asked the demo to stop. */
  boolean signalled() {
    return signalled;
  }

  @Override
  public void close() {
    previous.forEach(Signal::handle);
  }
}
