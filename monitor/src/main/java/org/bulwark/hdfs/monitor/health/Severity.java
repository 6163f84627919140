package org.bulwark.hdfs.monitor.health;

/**
 * How a check ended, in increasing order of concern. The codes are Nagios's (0 OK, 1 WARNING, 2 CRITICAL,
 * 3 UNKNOWN) so an existing alerting rule can read the metric; the order ranks UNKNOWN above OK and below
 * WARNING: a check that could not run hides nothing worse than what the other checks already show.
 */
public enum Severity {
  OK(0), UNKNOWN(3), WARNING(1), CRITICAL(2);

  private final int code;

  Severity(int code) {
    this.code = code;
  }

  /** The Nagios exit code of this severity. */
  public int code() {
    return code;
  }

  /** The more concerning of the two. */
  public Severity worst(Severity other) {
    return other.ordinal() > ordinal() ? other : this;
  }
}
