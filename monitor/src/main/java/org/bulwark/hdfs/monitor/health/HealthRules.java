package org.bulwark.hdfs.monitor.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Judges what a round saw against the thresholds: pure, so every boundary is unit-tested. A share check
 * is WARNING when the count is above zero and its share above the warning percentage (0 means "any"),
 * CRITICAL likewise above the critical one.
 */
public final class HealthRules {
  public static final String CANARY = "canary";
  public static final String MISSING = "missing-blocks";
  public static final String CORRUPT = "corrupt-blocks";
  public static final String DEAD = "dead-datanodes";
  public static final String STALE = "stale-datanodes";
  public static final String ACTIVE = "active-namenode";
  public static final String LAST_POLL = "last-poll";

  private final HealthThresholds t;

  public HealthRules(HealthThresholds thresholds) {
    this.t = thresholds;
  }

  /** Every check of one namespace. */
  public List<CheckResult> judge(NamespaceFacts f) {
    List<CheckResult> out = new ArrayList<>();
    if (!f.canaryDisabled) {
      out.add(canary(f));
    }
    if (f.blocksError != null) {
      out.add(unknown(MISSING, f.namespace, f.blocksError));
      out.add(unknown(CORRUPT, f.namespace, f.blocksError));
    } else {
      out.add(blocks(MISSING, "missing", f.namespace, f.missingBlocks, f.totalBlocks, t.missingWarning, t.missingCritical));
      out.add(blocks(CORRUPT, "with a corrupt replica", f.namespace, f.corruptBlocks, f.totalBlocks, t.corruptWarning,
          t.corruptCritical));
    }
    if (f.dataNodesError != null) {
      out.add(unknown(DEAD, f.namespace, f.dataNodesError));
      out.add(unknown(STALE, f.namespace, f.dataNodesError));
    } else {
      int registered = f.liveDataNodes + f.deadDataNodes;
      out.add(share(DEAD, f.namespace, f.deadDataNodes, registered, t.deadWarning, t.deadCritical,
          f.deadDataNodes + " of " + registered + " DataNodes dead"));
      out.add(share(STALE, f.namespace, f.staleDataNodes, f.liveDataNodes, t.staleWarning, t.staleCritical,
          f.staleDataNodes + " of " + f.liveDataNodes + " live DataNodes without a recent heartbeat"));
    }
    out.add(activeNameNode(f));
    return out;
  }

  CheckResult canary(NamespaceFacts f) {
    if (f.canaryError != null) {
      return new CheckResult(CANARY, f.namespace, Severity.CRITICAL, "canary failed: " + f.canaryError, Double.NaN);
    }
    String took = "create, write, read back and delete took " + f.canaryMillis + " ms";
    if (f.canaryMillis > t.canaryWarningMillis) {
      return new CheckResult(CANARY, f.namespace, Severity.WARNING, took + " (warning above " + t.canaryWarningMillis + " ms)",
          f.canaryMillis);
    }
    return new CheckResult(CANARY, f.namespace, Severity.OK, took, f.canaryMillis);
  }

  private CheckResult blocks(String check, String what, String ns, long count, long total, double warning, double critical) {
    if (total < 0) {
      // No complete poll yet: the share is unknown, so any such block counts as all of them.
      return share(check, ns, count, count, warning, critical,
          count + " blocks " + what + " (share unknown until the first complete poll)");
    }
    long all = Math.max(total, count);
    return share(check, ns, count, all, warning, critical, count + " of " + all + " blocks " + what);
  }

  private static CheckResult share(String check, String ns, long count, long all, double warning, double critical,
      String text) {
    double pct = all <= 0 ? 0 : 100.0 * count / all;
    String reason = text + (all > 0 ? String.format(Locale.ROOT, " (%.3g %%)", pct) : "");
    Severity s = Severity.OK;
    if (count > 0 && pct > critical) {
      s = Severity.CRITICAL;
      reason += String.format(Locale.ROOT, ", critical above %s %%", plain(critical));
    } else if (count > 0 && pct > warning) {
      s = Severity.WARNING;
      reason += String.format(Locale.ROOT, ", warning above %s %%", plain(warning));
    }
    return new CheckResult(check, ns, s, reason, count);
  }

  private static String plain(double pct) {
    return pct == Math.rint(pct) ? Long.toString((long) pct) : Double.toString(pct);
  }

  CheckResult activeNameNode(NamespaceFacts f) {
    String active = f.activeNameNode();
    if (active != null) {
      return new CheckResult(ACTIVE, f.namespace, Severity.OK, active + " is active" + others(f, active), 1);
    }
    long seconds = f.withoutActiveMillis / 1000;
    String reason = "no active NameNode for " + seconds + " s" + others(f, null);
    if (f.withoutActiveMillis > t.activeWindowMillis) {
      return new CheckResult(ACTIVE, f.namespace, Severity.CRITICAL,
          reason + " (critical after " + t.activeWindowMillis / 1000 + " s)", 0);
    }
    return new CheckResult(ACTIVE, f.namespace, Severity.WARNING,
        reason + " (a failover may be under way; critical after " + t.activeWindowMillis / 1000 + " s)", 0);
  }

  private static String others(NamespaceFacts f, String active) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, String> e : f.nameNodeStates.entrySet()) {
      if (!e.getKey().equals(active)) {
        out.append(out.length() == 0 ? "; " : ", ").append(e.getKey()).append(' ').append(e.getValue());
      }
    }
    return out.toString();
  }

  /**
   * The monitor's own freshness: time since its last complete poll, or since it started when none has completed,
   * with the last poll error as the reason when there is one. Judged past the time a poll cycle takes
   * ({@code cycleMillis}: the poll interval plus the longest of the last complete polls, 0 before the first), so that a
   * namespace whose polls take hours is not CRITICAL at every poll, while one whose polls stop is.
   */
  public CheckResult lastPoll(long lastFinished, long startedAt, long now, String lastError, long cycleMillis) {
    boolean never = lastFinished == 0;
    long age = now - (never ? startedAt : lastFinished);
    String reason = (never ? "no complete poll in the " + age / 1000 + " s since the monitor started"
        : "last complete poll " + age / 1000 + " s ago") + (cycleMillis == 0 ? "" : " (a poll cycle takes up to "
        + cycleMillis / 1000 + " s)") + (lastError == null ? "" : "; last error: " + lastError);
    long overdue = age - cycleMillis;
    Severity s = overdue > t.pollAgeCriticalMillis ? Severity.CRITICAL
        : overdue > t.pollAgeWarningMillis ? Severity.WARNING : Severity.OK;
    return new CheckResult(LAST_POLL, "", s, reason, age / 1000.0);
  }

  private static CheckResult unknown(String check, String ns, String error) {
    return new CheckResult(check, ns, Severity.UNKNOWN, "not measured: " + error, Double.NaN);
  }
}
