package org.bulwark.hdfs.monitor.store;

/** What one poll of a namespace covered, kept with its changes. */
public final class PollSummary {
  public final long started;
  public final long finished;
  public final long files;
  public final long blocks;
  public final long replicas;
  public final long rpcs;

  public PollSummary(long started, long finished, long files, long blocks, long replicas, long rpcs) {
    this.started = started;
    this.finished = finished;
    this.files = files;
    this.blocks = blocks;
    this.replicas = replicas;
    this.rpcs = rpcs;
  }
}
