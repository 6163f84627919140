package org.bulwark.hdfs.monitor.history;

/** One replica of a block on one DataNode storage, from when it was first seen until it went (0: still there). */
public final class ReplicaSpan {
  public final String namespace;
  public final long blockId;
  public final String dataNode;
  public final String host;
  public final String rack;
  public final String storage;
  public final String storageType;
  public final long firstSeen;
  public final long goneSince;

  public ReplicaSpan(String namespace, long blockId, String dataNode, String host, String rack, String storage,
      String storageType, long firstSeen, long goneSince) {
    this.namespace = namespace;
    this.blockId = blockId;
    this.dataNode = dataNode;
    this.host = host;
    this.rack = rack;
    this.storage = storage;
    this.storageType = storageType;
    this.firstSeen = firstSeen;
    this.goneSince = goneSince;
  }

  public boolean isOpen() {
    return goneSince == 0;
  }
}
