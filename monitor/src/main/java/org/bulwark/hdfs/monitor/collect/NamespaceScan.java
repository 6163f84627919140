package org.bulwark.hdfs.monitor.collect;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.bulwark.hdfs.monitor.history.ObservedBlock;

/** What one scan of a namespace saw: every block with its file and replicas (for the diff), plus counts. */
public final class NamespaceScan {
  public final String namespace;
  public final Map<Long, ObservedBlock> blocks = new HashMap<>();
  /** Files seen (each also handed to the poll's storage-cost advisor, not kept). */
  public long files;
  /** Blocks by how many racks hold a replica. */
  public final Map<Integer, Long> blocksByRackCount = new TreeMap<>();
  /** Replicas per DataNode (by UUID), for the heat map. */
  public final Map<String, DataNodeReplicas> byDataNode = new HashMap<>();
  public long replicas;
  public long missing;
  public long corrupt;
  public long started;
  public long finished;
  public long rpcs;
  /** The namespace's block pool, from the first block seen; null when it holds no block. */
  public String blockPool;

  NamespaceScan(String namespace) {
    this.namespace = namespace;
  }
}
