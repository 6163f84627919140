package org.bulwark.hdfs.hotstandby.health;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;

/**
 * One health check's outcome: the health, the HA state the NameNode reported (null if none), why, and when the
 * check began. The start matters for a timeout: a NameNode takes its HA calls one at a time, so a check that
 * began during a long {@code transitionToActive} times out behind it without the NameNode being hung.
 */
public final class HealthReport {
  private final NameNodeHealth health;
  private final HAServiceState state;
  private final String detail;
  private final long checkStartedNanos;

  /** A report about now (its check, if any, began when it is made). */
  public HealthReport(NameNodeHealth health, HAServiceState state, String detail) {
    this(health, state, detail, System.nanoTime());
  }

  private HealthReport(NameNodeHealth health, HAServiceState state, String detail, long checkStartedNanos) {
    this.health = health;
    this.state = state;
    this.detail = detail;
    this.checkStartedNanos = checkStartedNanos;
  }

  /** This report as the outcome of a check that began at {@code nanos} ({@link System#nanoTime}). */
  public HealthReport ofCheckStartedAt(long nanos) {
    return new HealthReport(health, state, detail, nanos);
  }

  /** {@link System#nanoTime} when the check behind this report began. */
  public long checkStartedNanos() {
    return checkStartedNanos;
  }

  public NameNodeHealth health() {
    return health;
  }

  /** The NameNode's HA state, or null when it did not answer. */
  public HAServiceState state() {
    return state;
  }

  public String detail() {
    return detail;
  }

  boolean sameAs(HealthReport other) {
    return other != null && other.health == health && other.state == state;
  }

  @Override
  public String toString() {
    return health + (state == null ? "" : " (" + state + ")") + (detail == null ? "" : ": " + detail);
  }
}
