package org.bulwark.hdfs.balancer.plan;

/**
 * Counts the distinct racks of a block's replicas, before and after a move: the ranking of the
 * availability policy. Replica sets are a handful of nodes, so plain loops beat any set.
 */
public final class RackSpread {
  private final int[] rackOf;

  /** @param rackOf rack index of every node of the node table */
  public RackSpread(int[] rackOf) {
    this.rackOf = rackOf;
  }

  public int rackOf(int node) {
    return rackOf[node];
  }

  /** Distinct racks holding a replica. */
  public int racks(int[] holders) {
    int distinct = 0;
    for (int i = 0; i < holders.length; i++) {
      int r = rackOf[holders[i]];
      boolean seen = false;
      for (int j = 0; j < i && !seen; j++) {
        seen = rackOf[holders[j]] == r;
      }
      if (!seen) {
        distinct++;
      }
    }
    return distinct;
  }

  /**
   * Change in distinct racks when the replica on {@code source} moves to {@code target}:
   * +1, 0 or -1.
   */
  public int delta(int[] holders, int source, int target) {
    boolean sourceRackStays = false;
    boolean targetRackNew = true;
    int sourceRack = rackOf[source];
    int targetRack = rackOf[target];
    for (int h : holders) {
      if (h == source) {
        continue;
      }
      int r = rackOf[h];
      if (r == sourceRack) {
        sourceRackStays = true;
      }
      if (r == targetRack) {
        targetRackNew = false;
      }
    }
    if (targetRack == sourceRack) {
      return 0;
    }
    return (targetRackNew ? 1 : 0) - (sourceRackStays ? 0 : 1);
  }

  /** True when another replica shares the source's rack: the only case where a move can add a rack. */
  public boolean sourceRackShared(int[] holders, int source) {
    int sourceRack = rackOf[source];
    for (int h : holders) {
      if (h != source && rackOf[h] == sourceRack) {
        return true;
      }
    }
    return false;
  }

  /** True when no replica's node is on the target's rack. */
  public boolean rackIsNew(int[] holders, int target) {
    int targetRack = rackOf[target];
    for (int h : holders) {
      if (rackOf[h] == targetRack) {
        return false;
      }
    }
    return true;
  }
}
