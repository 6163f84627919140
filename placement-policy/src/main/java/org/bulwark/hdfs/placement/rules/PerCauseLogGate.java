package org.bulwark.hdfs.placement.rules;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Lets a fallback be logged once per cause per interval: a NameNode placing thousands of blocks a
 * second on a cluster short of racks must not log thousands of lines, yet an operator must learn of
 * each new cause and that the old one persists. Counts the fallbacks it held back, so the next line can
 * say how many there were. Thread-safe; the clock is passed in.
 */
public final class PerCauseLogGate {
  private static final int CAUSES = FallbackCause.values().length;
  private final long intervalMillis;
  private final AtomicLongArray lastLogged = new AtomicLongArray(CAUSES);
  private final AtomicLongArray heldBack = new AtomicLongArray(CAUSES);

  public PerCauseLogGate(long intervalMillis) {
    this.intervalMillis = intervalMillis;
    for (int i = 0; i < CAUSES; i++) {
      lastLogged.set(i, Long.MIN_VALUE);
    }
  }

  /**
   * Whether a fallback for {@code cause} at {@code nowMillis} is to be logged. Returns -1 when not (it
   * is counted as held back), otherwise how many were held back since the last line for that cause.
   */
  public long admit(FallbackCause cause, long nowMillis) {
    int i = cause.ordinal();
    long last = lastLogged.get(i);
    if (last != Long.MIN_VALUE && nowMillis - last < intervalMillis || !lastLogged.compareAndSet(i, last, nowMillis)) {
      heldBack.incrementAndGet(i);
      return -1;
    }
    return heldBack.getAndSet(i, 0);
  }
}
