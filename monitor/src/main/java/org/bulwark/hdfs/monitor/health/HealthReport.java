package org.bulwark.hdfs.monitor.health;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Every check of one round, and when the round ended. Immutable: the API and metrics read the latest one. */
public final class HealthReport {
  /** What is shown before the first round ends. */
  static final HealthReport NONE = new HealthReport(0, Collections.singletonList(
      new CheckResult("health", "", Severity.UNKNOWN, "no health check has finished yet", Double.NaN)));

  public final long checkedAt;
  public final List<CheckResult> checks;

  public HealthReport(long checkedAt, List<CheckResult> checks) {
    this.checkedAt = checkedAt;
    this.checks = Collections.unmodifiableList(new ArrayList<>(checks));
  }

  /** The worst severity of every check. */
  public Severity overall() {
    Severity worst = Severity.OK;
    for (CheckResult c : checks) {
      worst = worst.worst(c.severity);
    }
    return worst;
  }

  /** The worst severity among one namespace's checks. */
  public Severity of(String namespace) {
    Severity worst = Severity.OK;
    for (CheckResult c : checks) {
      if (c.namespace.equals(namespace)) {
        worst = worst.worst(c.severity);
      }
    }
    return worst;
  }

  /** The result of one check, or null when this round did not run it. */
  public CheckResult find(String namespace, String check) {
    for (CheckResult c : checks) {
      if (c.namespace.equals(namespace) && c.check.equals(check)) {
        return c;
      }
    }
    return null;
  }
}
