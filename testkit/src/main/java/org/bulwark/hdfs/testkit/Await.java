package org.bulwark.hdfs.testkit;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Polls a condition until it holds or a deadline passes: the kit's only way to wait. */
public final class Await {
  /** A condition that may throw while the cluster is in flux (a failover, a restarting node). */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  private Await() {
  }

  /**
   * Returns once {@code condition} holds; throws TimeoutException naming {@code what} after
   * {@code timeout}. Exceptions from the condition count as "not yet" and the last one is attached.
   */
  public static void until(String what, Duration timeout, Condition condition) throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    long pauseMillis = 10;
    while (true) {
      try {
        if (condition.holds()) {
          return;
        }
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() > deadline) {
        TimeoutException t = new TimeoutException("timed out after " + timeout.toMillis() + " ms waiting until " + what);
        if (last != null) {
          t.initCause(last);
        }
        throw t;
      }
      Thread.sleep(pauseMillis);
      pauseMillis = Math.min(200, pauseMillis * 2);
    }
  }
}
