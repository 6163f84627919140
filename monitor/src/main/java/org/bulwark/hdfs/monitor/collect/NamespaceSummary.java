package org.bulwark.hdfs.monitor.collect;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the UI, the health checks and the metrics keep of a namespace's last scan: counts only. The scan
 * itself (every block with its replicas) is dropped once its changes are recorded, so the monitor's heap
 * between polls does not grow with the namespace.
 */
public final class NamespaceSummary {
  public final String namespace;
  public final long files;
  public final long blocks;
  public final long replicas;
  public final long missing;
  public final long corrupt;
  public final long started;
  public final long finished;
  public final long rpcs;
  /** Blocks by how many racks hold a replica. */
  public final Map<Integer, Long> blocksByRackCount;
  /** Replicas per DataNode (by UUID). */
  public final Map<String, DataNodeReplicas> byDataNode;

  NamespaceSummary(NamespaceScan scan) {
    this.namespace = scan.namespace;
    this.files = scan.files;
    this.blocks = scan.blocks.size();
    this.replicas = scan.replicas;
    this.missing = scan.missing;
    this.corrupt = scan.corrupt;
    this.started = scan.started;
    this.finished = scan.finished;
    this.rpcs = scan.rpcs;
    this.blocksByRackCount = Collections.unmodifiableMap(new TreeMap<>(scan.blocksByRackCount));
    this.byDataNode = Collections.unmodifiableMap(scan.byDataNode);
  }
}
