package org.bulwark.hdfs.monitor.history;

import java.util.List;

/** Everything recorded about one block: where its replicas were, which files it belonged to, its events. */
public final class BlockHistory {
  public final String namespace;
  public final long blockId;
  public final List<ReplicaSpan> replicas;
  public final List<FileSpan> files;
  public final List<BlockEvent> events;

  public BlockHistory(String namespace, long blockId, List<ReplicaSpan> replicas, List<FileSpan> files,
      List<BlockEvent> events) {
    this.namespace = namespace;
    this.blockId = blockId;
    this.replicas = replicas;
    this.files = files;
    this.events = events;
  }
}
