package org.bulwark.hdfs.monitor.health;

/** One check's outcome for one namespace (or for the monitor itself: namespace empty). */
public final class CheckResult {
  public final String check;
  public final String namespace;
  public final Severity severity;
  public final String reason;
  /** The measured figure the severity was judged on (a count, a latency); NaN when none was measured. */
  public final double value;

  public CheckResult(String check, String namespace, Severity severity, String reason, double value) {
    this.check = check;
    this.namespace = namespace;
    this.severity = severity;
    this.reason = reason;
    this.value = value;
  }

  @Override
  public String toString() {
    return (namespace.isEmpty() ? "" : namespace + " ") + check + " " + severity + ": " + reason;
  }
}
