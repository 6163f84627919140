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

  public static final ConfigKey<Long> RESCAN_CHECK_INTERVAL = ConfigKey.durationMillis(
      "bulwark.placement.rescan.check-interval", "5s", 10,
      "How often TopologyGrowthRescan (a NameNode plugin) counts the racks and datacenters in service.");

  public static final ConfigKey<Long> RESCAN_SETTLE = ConfigKey.durationMillis(
      "bulwark.placement.rescan.settle", "30s", 0,
      "How long the topology must hold still after racks or datacenters came back before every block's placement is checked again.");

  public static final ConfigKey<Long> RESCAN_MIN_INTERVAL = ConfigKey.durationMillis(
      "bulwark.placement.rescan.min-interval", "10m", 0,
      "Least time between two such checks (each walks every block, as a failover does).");

  private PlacementKeys() {
  }
}
