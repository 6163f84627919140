package org.bulwark.hdfs.balancer.plan;

/**
 * What the balancer knows of one DataNode's storages of one storage type: the input of
 * {@link Classification}. All block pools count together (the datanode policy's view).
 */
public final class NodeUsage {
  private final int node;
  private final long capacity;
  private final long used;
  private final long remaining;
  private final boolean sourceAllowed;
  private final boolean targetAllowed;

  /**
   * @param node the DataNode's index in the plan's node table
   * @param capacity bytes of capacity of its storages of this type
   * @param used capacity minus remaining (DFS and non-DFS use, as the stock datanode policy counts)
   * @param remaining free bytes on storages that can still take a block
   * @param sourceAllowed false when {@code -source} names other DataNodes
   */
  public NodeUsage(int node, long capacity, long used, long remaining, boolean sourceAllowed) {
    this(node, capacity, used, remaining, sourceAllowed, true);
  }

  /**
   * @param targetAllowed false when {@code -target} names other DataNodes or {@code -excludeTarget} this
   *     one (Hadoop 3.5's options)
   */
  public NodeUsage(int node, long capacity, long used, long remaining, boolean sourceAllowed,
      boolean targetAllowed) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("capacity of node " + node + " must be positive: " + capacity);
    }
    this.node = node;
    this.capacity = capacity;
    this.used = used;
    this.remaining = remaining;
    this.sourceAllowed = sourceAllowed;
    this.targetAllowed = targetAllowed;
  }

  public int node() {
    return node;
  }

  public long capacity() {
    return capacity;
  }

  public long used() {
    return used;
  }

  public long remaining() {
    return remaining;
  }

  public boolean sourceAllowed() {
    return sourceAllowed;
  }

  public boolean targetAllowed() {
    return targetAllowed;
  }

  /** Utilisation in percent. */
  public double utilisation() {
    return used * 100.0 / capacity;
  }
}
