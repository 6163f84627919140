package org.bulwark.hdfs.common.conf;

/** A key holder as a module would write one; listed in this module's test catalog resource. */
public final class SampleKeys {
  public static final ConfigKey<Long> INTERVAL =
      ConfigKey.durationMillis("bulwark.monitor.sample.poll.interval", "30s", 1, "How often the sample polls.");
  public static final ConfigKey<Boolean> ENABLED =
      ConfigKey.flag("bulwark.monitor.sample.enabled", false, "Whether the sample <runs> & reports.");
  public static final ConfigKey<Long> PRIORITY =
      ConfigKey.number("bulwark.monitor.sample.priority.<ns>.<nn>", 0, -100, 100, "Priority of NameNode <nn> of nameservice <ns>.");

  /** Not a key: package-private fields are ignored by the catalog. */
  static final ConfigKey<String> HIDDEN = ConfigKey.text("bulwark.monitor.sample.hidden", "", "Never documented.");

  private SampleKeys() {
  }
}
