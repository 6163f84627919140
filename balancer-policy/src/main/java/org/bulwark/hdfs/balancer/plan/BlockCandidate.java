package org.bulwark.hdfs.balancer.plan;

/**
 * A block as {@code getBlocks} returns it: its pool, id, length and the nodes holding a replica.
 * Identity is (pool, id), so the same block fetched through two of its holders plans once.
 */
public final class BlockCandidate {
  private final int pool;
  private final long blockId;
  private final long size;
  private final int[] holders;

  /**
   * @param pool index of the block pool (NameNode connector) the block belongs to
   * @param holders node-table indices of every replica's DataNode
   */
  public BlockCandidate(int pool, long blockId, long size, int[] holders) {
    this.pool = pool;
    this.blockId = blockId;
    this.size = size;
    this.holders = holders;
  }

  public int pool() {
    return pool;
  }

  public long blockId() {
    return blockId;
  }

  public long size() {
    return size;
  }

  public int[] holders() {
    return holders;
  }

  public boolean isHeldBy(int node) {
    for (int h : holders) {
      if (h == node) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BlockCandidate)) {
      return false;
    }
    BlockCandidate other = (BlockCandidate) o;
    return pool == other.pool && blockId == other.blockId;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(blockId) * 31 + pool;
  }

  @Override
  public String toString() {
    return "blk_" + blockId + "@pool" + pool;
  }
}
