package org.bulwark.hdfs.monitor.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one poll of a namespace covered, kept with its changes: the figures the charts draw over time. */
public final class PollSummary {
  public final long started;
  public final long finished;
  public final long files;
  public final long blocks;
  public final long replicas;
  public final long rpcs;
  public final long missing;
  public final long corrupt;
  /** Blocks with replicas on one rack, on two, on three or more (a missing block counts in none). */
  public final long[] blocksByRacks;
  /** Each rack's capacity and use at this poll ({@code [capacity, used]}); empty when not read this time. */
  public final Map<String, long[]> rackFill;

  public PollSummary(long started, long finished, long files, long blocks, long replicas, long rpcs) {
    this(started, finished, files, blocks, replicas, rpcs, 0, 0, new long[3], Collections.emptyMap());
  }

  public PollSummary(long started, long finished, long files, long blocks, long replicas, long rpcs, long missing,
      long corrupt, long[] blocksByRacks, Map<String, long[]> rackFill) {
    if (blocksByRacks.length != 3) {
      throw new IllegalArgumentException("blocks by racks: one, two, three or more; got " + blocksByRacks.length);
    }
    this.started = started;
    this.finished = finished;
    this.files = files;
    this.blocks = blocks;
    this.replicas = replicas;
    this.rpcs = rpcs;
    this.missing = missing;
    this.corrupt = corrupt;
    this.blocksByRacks = blocksByRacks.clone();
    this.rackFill = Collections.unmodifiableMap(new LinkedHashMap<>(rackFill));
  }
}
