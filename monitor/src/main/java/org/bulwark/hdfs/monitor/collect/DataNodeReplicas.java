package org.bulwark.hdfs.monitor.collect;

/** How many replicas (or internal blocks) one DataNode held at a scan: a cell of the replica heat map. */
public final class DataNodeReplicas {
  public final String uuid;
  public final String host;
  public final String rack;
  long replicas;

  DataNodeReplicas(String uuid, String host, String rack) {
    this.uuid = uuid;
    this.host = host;
    this.rack = rack;
  }

  public long replicas() {
    return replicas;
  }
}
