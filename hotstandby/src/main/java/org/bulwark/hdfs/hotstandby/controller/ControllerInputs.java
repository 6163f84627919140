package org.bulwark.hdfs.hotstandby.controller;

import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;

/**
 * What the controller's inputs last said: written by the threads that hear them (the health monitor, Curator's
 * connection listener, an operator's request), read by the decision thread, which decides from the latest of each
 * rather than from a queue of events (a lost event cannot leave it stuck).
 */
final class ControllerInputs {
  private volatile HealthReport health = new HealthReport(NameNodeHealth.UNKNOWN, null, null);
  /** Health reports received so far (written by the health monitor's thread only). */
  private volatile long healthReports;
  /** Wall-clock time of the last change of health: written as {@code failedAt} into the record. */
  private volatile long healthChangedAt;
  private volatile boolean zooKeeperConnected;
  /** Monotonic time until which this NameNode stays out of the election (an operator's cede, a back-off). */
  private volatile long cededUntil;

  /** The health monitor's latest report. */
  void health(HealthReport report) {
    if (report.health() != health.health()) {
      healthChangedAt = System.currentTimeMillis();
    }
    health = report;
    healthReports++;
  }

  HealthReport health() {
    return health;
  }

  long healthReports() {
    return healthReports;
  }

  long healthChangedAt() {
    return healthChangedAt;
  }

  void zooKeeperConnected(boolean connected) {
    zooKeeperConnected = connected;
  }

  boolean zooKeeperConnected() {
    return zooKeeperConnected;
  }

  void cedeUntil(long monotonicMillis) {
    cededUntil = monotonicMillis;
  }

  long cededUntil() {
    return cededUntil;
  }
}
