package org.bulwark.hdfs.monitor.store;

import org.bulwark.hdfs.monitor.MonitorKeys;

/**
 * Whether a store opened for writing may take the writer lease, from the lease row as the database shows it.
 * Pure, so every case is unit-tested; {@link WriterLease} reads the row and carries the decision out. Two
 * monitors recording the same store would open intervals twice and duplicate events, so a lease another
 * instance renewed within the lease timeout is refused: that monitor may be alive, however quiet. Only the
 * database's clock is compared with itself, so the hosts' clocks do not matter.
 */
final class LeaseDecision {
  /** Why the lease may be taken, or that it may not. */
  enum Outcome {
    /** No monitor holds it (never taken, or released by a clean shutdown). */
    FREE,
    /** This instance holds it already. */
    OURS,
    /** Its holder has not renewed it for longer than the lease timeout: hung, cut off or gone. */
    EXPIRED,
    /** Its holder is known to be gone although the lease is fresh (see {@link #decide}). */
    ABANDONED,
    /** Another instance renewed it within the lease timeout. */
    HELD
  }

  /** The lease row: which store instance holds it (null: none), where, and how long ago it renewed it. */
  static final class Holder {
    final String instance;
    final String host;
    final long pid;
    final long renewedAgoMillis;

    Holder(String instance, String host, long pid, long renewedAgoMillis) {
      this.instance = instance;
      this.host = host;
      this.pid = pid;
      this.renewedAgoMillis = renewedAgoMillis;
    }
  }

  final Outcome outcome;
  /** HELD: the refusal, one line. EXPIRED and ABANDONED: the takeover, to log. Otherwise null. */
  final String message;

  private LeaseDecision(Outcome outcome, String message) {
    this.outcome = outcome;
    this.message = message;
  }

  boolean take() {
    return outcome != Outcome.HELD;
  }

  /**
   * @param holder the lease row, or null when there is none
   * @param instance the instance asking
   * @param timeoutMillis {@code bulwark.monitor.store.lease-timeout}
   * @param holderGone why the holder is known to be gone whatever its lease says (the embedded store's file is
   *     locked by this process and the holder is open in no store of this JVM; or the holder's process, on this
   *     host, no longer runs), or null when it may be alive
   * @param store the store, as the messages name it
   */
  static LeaseDecision decide(Holder holder, String instance, long timeoutMillis, String holderGone, String store) {
    if (holder == null || holder.instance == null) {
      return new LeaseDecision(Outcome.FREE, null);
    }
    if (holder.instance.equals(instance)) {
      return new LeaseDecision(Outcome.OURS, null);
    }
    // A renewal ahead of the clock read (a transaction's time is its start) is fresh, not from the future.
    long agoMillis = Math.max(0, holder.renewedAgoMillis);
    long ago = agoMillis / 1000;
    String who = "host " + holder.host + ", pid " + holder.pid;
    if (agoMillis > timeoutMillis) {
      return new LeaseDecision(Outcome.EXPIRED, "Took over the writer lease of the history store (" + store + ") from "
          + who + ": not renewed for " + ago + " s, longer than " + MonitorKeys.LEASE_TIMEOUT.getName() + " ("
          + timeoutMillis / 1000 + " s); that monitor, if it wakes, records nothing more");
    }
    if (holderGone != null) {
      return new LeaseDecision(Outcome.ABANDONED, "Took over the writer lease of the history store (" + store + ") from "
          + who + ", renewed " + ago + " s ago: " + holderGone);
    }
    long left = Math.max(1, (timeoutMillis - agoMillis + 999) / 1000);
    return new LeaseDecision(Outcome.HELD, "the history store (" + store + ") is written by another block monitor ("
        + who + ", lease renewed " + ago + " s ago): stop that monitor, or if it is gone wait until its lease expires, in "
        + left + " s (" + MonitorKeys.LEASE_TIMEOUT.getName() + " = " + timeoutMillis / 1000 + " s)");
  }
}
