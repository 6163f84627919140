package org.bulwark.hdfs.monitor.store;

/** One poll of one namespace as the charts draw it: when it finished and what it counted. */
public final class TrendPoint {
  public final String namespace;
  public final long finished;
  public final long blocks;
  public final long missing;
  public final long corrupt;
  public final long oneRack;
  public final long twoRacks;
  public final long moreRacks;

  public TrendPoint(String namespace, long finished, long blocks, long missing, long corrupt, long oneRack, long twoRacks,
      long moreRacks) {
    this.namespace = namespace;
    this.finished = finished;
    this.blocks = blocks;
    this.missing = missing;
    this.corrupt = corrupt;
    this.oneRack = oneRack;
    this.twoRacks = twoRacks;
    this.moreRacks = moreRacks;
  }
}
