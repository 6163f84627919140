package org.bulwark.hdfs.hotstandby.controller;

import java.util.Map;

/** What the operator chose for one controller (priorities, fail-back, delays, back-off), read from its configuration. */
public final class ControllerSettings {
  final int priority;
  final boolean failback;
  final long failbackDelayMillis;
  final long lowerPriorityDelayMillis;
  final long retryBackoffMillis;
  final Map<String, Integer> configuredPriorities;
  /** The ZooKeeper session timeout: how long a candidate must be gone to count as failed (see FailbackPassOver). */
  final long sessionTimeoutMillis;
  /** How long a standby leaves a free leadership to an unclaimed active NameNode's own controller. */
  final long unclaimedActiveWaitMillis;

  public ControllerSettings(int priority, Map<String, Integer> configuredPriorities, boolean failback, long failbackDelayMillis,
      long lowerPriorityDelayMillis, long retryBackoffMillis, long sessionTimeoutMillis, long unclaimedActiveWaitMillis) {
    this.priority = priority;
    this.configuredPriorities = configuredPriorities;
    this.failback = failback;
    this.failbackDelayMillis = failbackDelayMillis;
    this.lowerPriorityDelayMillis = lowerPriorityDelayMillis;
    this.retryBackoffMillis = retryBackoffMillis;
    this.sessionTimeoutMillis = sessionTimeoutMillis;
    this.unclaimedActiveWaitMillis = unclaimedActiveWaitMillis;
  }

  public int priority() {
    return priority;
  }
}
