package org.bulwark.hdfs.monitor.health;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.common.conf.ConfigKey;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.bulwark.hdfs.monitor.MonitorKeys;

/** Where each check turns WARNING and CRITICAL, read and checked once from {@code bulwark.monitor.health.*}. */
public final class HealthThresholds {
  final double missingWarning;
  final double missingCritical;
  final double corruptWarning;
  final double corruptCritical;
  final double deadWarning;
  final double deadCritical;
  final double staleWarning;
  final double staleCritical;
  final long canaryWarningMillis;
  final long activeWindowMillis;
  final long pollAgeWarningMillis;
  final long pollAgeCriticalMillis;

  HealthThresholds(double missingWarning, double missingCritical, double corruptWarning, double corruptCritical,
      double deadWarning, double deadCritical, double staleWarning, double staleCritical, long canaryWarningMillis,
      long activeWindowMillis, long pollAgeWarningMillis, long pollAgeCriticalMillis) {
    this.missingWarning = missingWarning;
    this.missingCritical = missingCritical;
    this.corruptWarning = corruptWarning;
    this.corruptCritical = corruptCritical;
    this.deadWarning = deadWarning;
    this.deadCritical = deadCritical;
    this.staleWarning = staleWarning;
    this.staleCritical = staleCritical;
    this.canaryWarningMillis = canaryWarningMillis;
    this.activeWindowMillis = activeWindowMillis;
    this.pollAgeWarningMillis = pollAgeWarningMillis;
    this.pollAgeCriticalMillis = pollAgeCriticalMillis;
  }

  /** Reads every threshold; a warning above its critical twin is refused, naming both keys. */
  public static HealthThresholds from(Configuration conf) {
    return new HealthThresholds(
        ordered(conf, MonitorKeys.MISSING_WARNING, MonitorKeys.MISSING_CRITICAL),
        MonitorKeys.MISSING_CRITICAL.get(conf),
        ordered(conf, MonitorKeys.CORRUPT_WARNING, MonitorKeys.CORRUPT_CRITICAL),
        MonitorKeys.CORRUPT_CRITICAL.get(conf),
        ordered(conf, MonitorKeys.DEAD_WARNING, MonitorKeys.DEAD_CRITICAL),
        MonitorKeys.DEAD_CRITICAL.get(conf),
        ordered(conf, MonitorKeys.STALE_WARNING, MonitorKeys.STALE_CRITICAL),
        MonitorKeys.STALE_CRITICAL.get(conf),
        MonitorKeys.CANARY_WARNING.get(conf),
        MonitorKeys.ACTIVE_WINDOW.get(conf),
        ordered(conf, MonitorKeys.POLL_AGE_WARNING, MonitorKeys.POLL_AGE_CRITICAL),
        MonitorKeys.POLL_AGE_CRITICAL.get(conf));
  }

  private static <T extends Comparable<T>> T ordered(Configuration conf, ConfigKey<T> warning, ConfigKey<T> critical) {
    T w = warning.get(conf);
    T c = critical.get(conf);
    if (w.compareTo(c) > 0) {
      throw new InvalidConfigException(warning.getName(), conf.getTrimmed(warning.getName(), warning.getDefaultText()),
          "a value no higher than " + critical.getName() + " (" + conf.getTrimmed(critical.getName(), critical.getDefaultText()) + ")");
    }
    return w;
  }
}
