package org.bulwark.hdfs.monitor.history;

import java.util.List;

/**
 * Forensics for a block that is missing or corrupt now: its file, and the DataNodes that last held it
 * with when each replica went and what state each DataNode has been in since.
 */
public final class MissingBlock {
  public final BlockEvent event;
  public final String path;
  public final List<ReplicaSpan> lastHolders;
  public final List<StateSpan> holderStates;

  public MissingBlock(BlockEvent event, String path, List<ReplicaSpan> lastHolders, List<StateSpan> holderStates) {
    this.event = event;
    this.path = path;
    this.lastHolders = lastHolders;
    this.holderStates = holderStates;
  }
}
