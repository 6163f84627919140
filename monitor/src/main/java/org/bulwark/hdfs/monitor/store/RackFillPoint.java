package org.bulwark.hdfs.monitor.store;

/** A rack's capacity and use at one poll. */
public final class RackFillPoint {
  public final long finished;
  public final String rack;
  public final long capacity;
  public final long used;

  public RackFillPoint(long finished, String rack, long capacity, long used) {
    this.finished = finished;
    this.rack = rack;
    this.capacity = capacity;
    this.used = used;
  }
}
