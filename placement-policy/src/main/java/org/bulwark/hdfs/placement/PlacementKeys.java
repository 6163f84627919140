package org.bulwark.hdfs.placement;

import org.bulwark.hdfs.common.conf.ConfigKey;

/** Configuration keys of Bulwark's placement policies (read by the NameNode). */
public final class PlacementKeys {
  public static final ConfigKey<Long> RACK_FILL_REFRESH = ConfigKey.durationMillis(
      "bulwark.placement.rack-fill.refresh-interval", "1s", 0,
      "How long the placement policy reuses its per-rack fill snapshot before summing DataNode reports again.");

  private PlacementKeys() {
  }
}
