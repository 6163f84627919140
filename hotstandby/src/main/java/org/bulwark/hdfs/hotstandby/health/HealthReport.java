package org.bulwark.hdfs.hotstandby.health;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;

/** One health check's outcome: the health, the HA state the NameNode reported (null if none) and why. */
public final class HealthReport {
  private final NameNodeHealth health;
  private final HAServiceState state;
  private final String detail;

  public HealthReport(NameNodeHealth health, HAServiceState state, String detail) {
    this.health = health;
    this.state = state;
    this.detail = detail;
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
