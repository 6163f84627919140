package org.bulwark.hdfs.balancer.plan;

import java.util.Map;
import java.util.TreeMap;

/**
 * What each node gives or takes in one iteration against its room. As the stock dispatcher moves blocks while a node
 * has room left, a node's last block may cross that room: a set of moves fits while its bytes less its largest block
 * stay below the room, and the node does not end outside the threshold on the other side of the average.
 */
final class NodeLoads {
  private final long[] room;
  private final long[] farSide;
  private final long[] moved;
  /** Per node, the sizes it moves and how many of each: the largest after a removal. */
  private final Map<Integer, TreeMap<Long, Integer>> sizes = new TreeMap<>();

  /** @param room per node, what it may give (a source) or take (a target) in this iteration */
  NodeLoads(Classification c, long[] room) {
    int n = room.length;
    this.room = room.clone();
    farSide = new long[n];
    for (int node = 0; node < n; node++) {
      if (room[node] > 0) {
        double diff = Math.abs(c.utilisation(node) - c.average());
        farSide[node] = Classification.percentToBytes(diff + c.threshold(), c.capacity(node));
      }
    }
    moved = new long[n];
  }

  boolean fits(int node, long size) {
    return fitsReplacing(node, 0, size);
  }

  /** Whether the node's moves still fit with one of {@code removed} bytes taken out and one of {@code added} put in. */
  boolean fitsReplacing(int node, long removed, long added) {
    long total = moved[node] - removed + added;
    if (total == 0) {
      return true;
    }
    TreeMap<Long, Integer> mine = sizes.get(node);
    long largest = added;
    if (mine != null && !mine.isEmpty()) {
      long top = mine.lastKey();
      if (top != removed || mine.get(top) > 1) {
        largest = Math.max(largest, top);
      } else {
        Long next = mine.lowerKey(top);
        largest = Math.max(largest, next == null ? 0 : next);
      }
    }
    return total - largest < room[node] && total <= farSide[node];
  }

  /** Room left before the last block, at most 0 when the node is done. */
  long left(int node) {
    return room[node] - moved[node];
  }

  void add(int node, long size) {
    moved[node] += size;
    sizes.computeIfAbsent(node, k -> new TreeMap<>()).merge(size, 1, Integer::sum);
  }

  void remove(int node, long size) {
    moved[node] -= size;
    TreeMap<Long, Integer> mine = sizes.get(node);
    if (mine.merge(size, -1, Integer::sum) == 0) {
      mine.remove(size);
    }
  }
}
