package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A model of one iteration of the stock {@code datanode} policy on a {@link SimulatedCluster}, for
 * comparing the planner with it on thousands of layouts without a cluster: the stock pairing
 * (over-utilised to under-utilised, over-utilised to below-average, above-average to under-utilised;
 * same rack before any rack), tasks of the smaller of the two nodes' amounts, and the dispatcher's
 * block choice (the first candidate not on the target whose move keeps the rack count; a task takes
 * whole blocks while its size is above zero, so it may overshoot by less than one block).
 * Timing, proxies and concurrency are left out: every chosen move succeeds.
 */
final class StockBalancerModel {
  private final SimulatedCluster cluster;
  private final RackSpread racks;

  StockBalancerModel(SimulatedCluster cluster) {
    this.cluster = cluster;
    this.racks = new RackSpread(cluster.rackOf);
  }

  /** One iteration; the moves made (already applied to the cluster). */
  List<PlannedMove> iterate(Classification c, java.util.Random random) {
    int n = cluster.nodes();
    long[] left = new long[n];
    List<Integer> over = new ArrayList<>();
    List<Integer> above = new ArrayList<>();
    List<Integer> below = new ArrayList<>();
    List<Integer> under = new ArrayList<>();
    for (int node = 0; node < n; node++) {
      left[node] = c.maxBytesToMove(node);
      switch (c.classOf(node)) {
        case OVER_UTILISED -> over.add(node);
        case ABOVE_AVERAGE -> above.add(node);
        case BELOW_AVERAGE -> below.add(node);
        case UNDER_UTILISED -> under.add(node);
        default -> { }
      }
    }
    List<long[]> tasks = new ArrayList<>(); // {source, target, size}
    for (boolean sameRack : new boolean[] {true, false}) {
      pair(over, under, sameRack, left, tasks, false);
      pair(over, below, sameRack, left, tasks, false);
      pair(under, above, sameRack, left, tasks, true);
    }
    Set<Integer> moved = new HashSet<>();
    List<PlannedMove> moves = new ArrayList<>();
    for (long[] task : tasks) {
      int s = (int) task[0];
      int t = (int) task[1];
      List<Integer> blocks = new ArrayList<>();
      for (int b = 0; b < cluster.blocks(); b++) {
        if (contains(cluster.holders(b), s)) {
          blocks.add(b);
        }
      }
      java.util.Collections.shuffle(blocks, random);
      for (int b : blocks) {
        if (task[2] <= 0) {
          break;
        }
        int[] h = cluster.holders(b);
        if (moved.contains(b) || contains(h, t) || racks.delta(h, s, t) < 0) {
          continue;
        }
        moved.add(b);
        PlannedMove m = new PlannedMove(new BlockCandidate(0, b, cluster.blockSize, h.clone()), s, t,
            racks.delta(h, s, t));
        moves.add(m);
        task[2] -= cluster.blockSize;
      }
    }
    cluster.apply(moves);
    return moves;
  }

  private void pair(List<Integer> firsts, List<Integer> seconds, boolean sameRack, long[] left, List<long[]> tasks,
      boolean firstIsTarget) {
    for (int a : firsts) {
      for (int b : seconds) {
        if (left[a] <= 0) {
          break;
        }
        if (left[b] <= 0 || (cluster.rackOf[a] == cluster.rackOf[b]) != sameRack) {
          continue;
        }
        long size = Math.min(left[a], left[b]);
        left[a] -= size;
        left[b] -= size;
        tasks.add(firstIsTarget ? new long[] {b, a, size} : new long[] {a, b, size});
      }
    }
  }

  private static boolean contains(int[] holders, int node) {
    for (int h : holders) {
      if (h == node) {
        return true;
      }
    }
    return false;
  }
}
