package org.bulwark.hdfs.balancer.plan;

/** One decided move: a block's replica from a source node to a target node, with its rank. */
public final class PlannedMove {
  private final BlockCandidate block;
  private final int source;
  private final int target;
  private final int rackDelta;

  public PlannedMove(BlockCandidate block, int source, int target, int rackDelta) {
    this.block = block;
    this.source = source;
    this.target = target;
    this.rackDelta = rackDelta;
  }

  public BlockCandidate block() {
    return block;
  }

  public int source() {
    return source;
  }

  public int target() {
    return target;
  }

  /** +1 when the move adds a rack to the block, 0 when it keeps the count. */
  public int rackDelta() {
    return rackDelta;
  }

  public boolean addsRack() {
    return rackDelta > 0;
  }

  @Override
  public String toString() {
    return block + " " + source + "->" + target + (addsRack() ? " (+rack)" : "");
  }
}
