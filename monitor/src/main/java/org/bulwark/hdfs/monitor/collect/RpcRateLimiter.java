package org.bulwark.hdfs.monitor.collect;

import java.util.concurrent.TimeUnit;

/**
 * Spaces NameNode RPCs at least {@code 1/rate} seconds apart, so a poll never takes more than its share
 * of the NameNode ({@code bulwark.monitor.max-rpc-per-sec}). Counts the calls it let through.
 */
public final class RpcRateLimiter {
  private final long intervalNanos;
  private long next;
  private long calls;

  public RpcRateLimiter(long maxPerSecond) {
    this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / Math.max(1, maxPerSecond);
  }

  public synchronized void acquire() throws InterruptedException {
    long now = System.nanoTime();
    if (next > now) {
      TimeUnit.NANOSECONDS.sleep(next - now);
      now = next;
    }
    next = now + intervalNanos;
    calls++;
  }

  public synchronized long calls() {
    return calls;
  }
}
