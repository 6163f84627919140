package org.bulwark.hdfs.balancer;

import org.bulwark.hdfs.common.conf.ConfigKey;

/** Configuration keys of {@code hdfs balancer -policy availability} (read by the balancer). */
public final class BalancerKeys {
  public static final ConfigKey<Long> REPORTED_STORAGES_WAIT = ConfigKey.durationMillis(
      "bulwark.balancer.reported-storages.wait", "5m", 0,
      "How long a run waits for a newly active NameNode to hear every storage's block report (it postpones deletions until then) before it exits.");

  private BalancerKeys() {
  }
}
