package org.bulwark.hdfs.monitor.history;

/** A DataNode's admin/liveness state (live, dead, decommissioning, in maintenance...) with its capacity and use. */
public final class StateSpan {
  public final String dataNode;
  public final String host;
  public final String rack;
  public final String state;
  public final long capacity;
  public final long used;
  public final long firstSeen;
  public final long goneSince;

  public StateSpan(String dataNode, String host, String rack, String state, long capacity, long used, long firstSeen,
      long goneSince) {
    this.dataNode = dataNode;
    this.host = host;
    this.rack = rack;
    this.state = state;
    this.capacity = capacity;
    this.used = used;
    this.firstSeen = firstSeen;
    this.goneSince = goneSince;
  }
}
