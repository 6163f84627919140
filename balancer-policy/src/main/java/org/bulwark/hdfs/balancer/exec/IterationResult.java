package org.bulwark.hdfs.balancer.exec;

import java.util.List;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;

/** What one iteration did: the stock status, and a progress line per block pool. */
public final class IterationResult {
  private final ExitStatus status;
  private final long bytesLeftToMove;
  private final boolean spreading;
  private final List<PoolProgress> pools;

  IterationResult(ExitStatus status, long bytesLeftToMove, boolean spreading, List<PoolProgress> pools) {
    this.status = status;
    this.bytesLeftToMove = bytesLeftToMove;
    this.spreading = spreading;
    this.pools = pools;
  }

  /** {@code IN_PROGRESS} to go on, {@code SUCCESS} when balanced (and spread), else the error. */
  public ExitStatus status() {
    return status;
  }

  public long bytesLeftToMove() {
    return bytesLeftToMove;
  }

  /** True when this was a {@code -spreadRacks} iteration on a balanced cluster. */
  public boolean spreading() {
    return spreading;
  }

  /** True when no block pool planned a move: with {@code IN_PROGRESS}, an idle iteration that looks again. */
  public boolean nothingPlanned() {
    return pools.stream().allMatch(p -> p.bytesBeingMoved() == 0);
  }

  public List<PoolProgress> pools() {
    return pools;
  }
}
