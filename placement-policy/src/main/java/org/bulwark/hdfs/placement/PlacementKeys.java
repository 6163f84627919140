package org.bulwark.hdfs.placement;

import org.bulwark.hdfs.common.conf.ConfigKey;
import org.bulwark.hdfs.placement.rules.WriterDatacenterReplicas;

/** Configuration keys of Bulwark's placement policies (read by the NameNode). */
public final class PlacementKeys {
  public static final ConfigKey<Long> RACK_FILL_REFRESH = ConfigKey.durationMillis(
      "bulwark.placement.rack-fill.refresh-interval", "1s", 0,
      "How long the placement policy reuses its per-rack fill snapshot before summing DataNode reports again.");

  public static final ConfigKey<Long> FALLBACK_LOG_INTERVAL = ConfigKey.durationMillis(
      "bulwark.placement.fallback.log-interval", "5m", 0,
      "A placement that falls back from the rules is logged at most once per cause per this interval (every one is counted in metrics).");

  public static final ConfigKey<WriterDatacenterReplicas> WRITER_DATACENTER_REPLICAS = ConfigKey.choice(
      "bulwark.placement.hierarchical.writer-datacenter-replicas", WriterDatacenterReplicas.ONE,
      "Replicas HierarchicalPlacementPolicy keeps in the writer's datacenter: one (the rest remote) or half (ceil(RF/2), as HDFS-17868).");

  private PlacementKeys() {
  }
}
