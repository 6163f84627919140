package org.bulwark.hdfs.balancer.exec;

import java.net.URI;

/** One block pool's line of an iteration: the stock progress columns plus the rack-adding share. */
public final class PoolProgress {
  private final URI nameNode;
  private final long bytesAlreadyMoved;
  private final long bytesBeingMoved;
  private final long blocksMoved;
  private final long movesThisIteration;
  private final long addingThisIteration;

  PoolProgress(URI nameNode, long bytesAlreadyMoved, long bytesBeingMoved, long blocksMoved,
      long movesThisIteration, long addingThisIteration) {
    this.nameNode = nameNode;
    this.bytesAlreadyMoved = bytesAlreadyMoved;
    this.bytesBeingMoved = bytesBeingMoved;
    this.blocksMoved = blocksMoved;
    this.movesThisIteration = movesThisIteration;
    this.addingThisIteration = addingThisIteration;
  }

  public URI nameNode() {
    return nameNode;
  }

  public long bytesAlreadyMoved() {
    return bytesAlreadyMoved;
  }

  public long bytesBeingMoved() {
    return bytesBeingMoved;
  }

  public long blocksMoved() {
    return blocksMoved;
  }

  public long movesThisIteration() {
    return movesThisIteration;
  }

  public long addingThisIteration() {
    return addingThisIteration;
  }
}
