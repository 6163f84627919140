package org.bulwark.hdfs.hotstandby.client;

import java.util.Random;

/**
 * The pauses of one failing-over client between its questions to the NameNodes ("are you active?"): the
 * first pause {@code first}, each next one twice the one before up to {@code cap}, each jittered to between
 * half and one and a half times its nominal length.
 *
 * <p>Why: every client whose call failed asks, for as long as the failover lasts. On a worker host running a
 * hundred client JVMs, asking every 50 ms is 2,000 calls a second on the NameNode that is taking over, and
 * that was measured to time out its controller's health checks, so it was never made active. Most failovers
 * end within a second, so the first questions stay quick; later ones thin out to one per {@code cap}; the
 * jitter keeps JVMs whose calls failed together from asking together. A client whose ZooKeeper session
 * watches the active-NameNode record learns of the new active from the watch, and its questions are only a
 * safety net.
 *
 * <p>One per failover wait, used by the thread that waits.
 */
public final class ProbePacing {
  private final long capMillis;
  private final Random random;
  private long nominalMillis;

  /**
   * @param firstMillis the first pause's nominal length, at least 1
   * @param capMillis the longest nominal pause; a cap below {@code firstMillis} counts as {@code firstMillis}
   * @param random the jitter's source, used by the calling thread only
   */
  public ProbePacing(long firstMillis, long capMillis, Random random) {
    if (firstMillis < 1) {
      throw new IllegalArgumentException("first pause " + firstMillis + " ms: must be at least 1 ms");
    }
    this.nominalMillis = firstMillis;
    this.capMillis = Math.max(firstMillis, capMillis);
    this.random = random;
  }

  /** The next pause in milliseconds: at least 1, between half and one and a half times its nominal length. */
  public long nextPauseMillis() {
    long nominal = nominalMillis;
    nominalMillis = nominal > capMillis / 2 ? capMillis : nominal * 2;
    long half = nominal / 2;
    return Math.max(1, half + (long) (random.nextDouble() * (nominal + 1)));
  }
}
