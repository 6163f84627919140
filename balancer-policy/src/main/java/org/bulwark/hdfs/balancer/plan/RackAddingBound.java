package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The most rack-adding moves any plan could make in one iteration: a maximum flow from the sources
 * (each giving at most its budget, in blocks) through the blocks that could add a rack (one move each)
 * to the racks that lack them (each taking at most its room, in blocks). Blocks of one source that lack
 * the same racks are one node of the flow, so the graph stays as small as the cluster's racks make it.
 * As in the stock pairing, a source that is only above average gives to under-utilised nodes only: its
 * blocks reach a rack through the room of the rack's under-utilised nodes.
 * A greedy planner is judged against this: it is what no valid plan could beat.
 */
final class RackAddingBound {
  private final Map<Integer, Integer> sourceNode = new HashMap<>();
  private final Map<String, Integer> kindNode = new HashMap<>();
  private final Map<Integer, Integer> rackNode = new HashMap<>();
  private final Map<Integer, Integer> underNode = new HashMap<>();
  private final Map<Integer, Long> underRoom = new HashMap<>();
  private final List<Boolean> kindUnderOnly = new ArrayList<>();
  private final List<long[]> kindCounts = new ArrayList<>();
  private final List<int[]> kindTargets = new ArrayList<>();
  private final List<Integer> kindSource = new ArrayList<>();
  private final Map<Integer, Long> sourceBudget = new HashMap<>();
  private final Map<Integer, Long> rackRoom = new HashMap<>();
  private long flow = -1;
  private final Map<Integer, Long> flowFromSource = new HashMap<>();
  private final Map<Integer, Long> flowIntoRack = new HashMap<>();

  /** Source {@code source} may give at most {@code blocks} blocks. */
  void sourceBudget(int source, long blocks) {
    sourceBudget.put(source, blocks);
  }

  /** A node of {@code rack} may take at most {@code blocks} blocks; {@code underUtilised} as the stock classes it. */
  void room(int rack, long blocks, boolean underUtilised) {
    rackRoom.merge(rack, blocks, Long::sum);
    if (underUtilised) {
      underRoom.merge(rack, blocks, Long::sum);
    }
  }

  /**
   * One block on {@code source} that a move to any of {@code racksLacking} would add a rack to;
   * {@code underOnly} for a source that may give to under-utilised nodes only.
   */
  void block(int source, int[] racksLacking, boolean underOnly) {
    String key = source + ":" + Arrays.toString(racksLacking);
    Integer k = kindNode.get(key);
    if (k == null) {
      k = kindCounts.size();
      kindNode.put(key, k);
      kindCounts.add(new long[1]);
      kindTargets.add(racksLacking);
      kindSource.add(source);
      kindUnderOnly.add(underOnly);
    }
    kindCounts.get(k)[0]++;
  }

  /** The maximum number of rack-adding moves. */
  long max() {
    solve();
    return flow;
  }

  /** How many of the maximum's moves come from {@code source}. */
  long fromSource(int source) {
    solve();
    return flowFromSource.getOrDefault(source, 0L);
  }

  /** How many of the maximum's moves go to {@code rack}. */
  long intoRack(int rack) {
    solve();
    return flowIntoRack.getOrDefault(rack, 0L);
  }

  /** Kind-to-rack edges beyond which the bound is summed instead of solved (clusters of hundreds of racks). */
  static final long MAX_EDGES = 400_000;

  private void solve() {
    if (flow >= 0) {
      return;
    }
    long kindEdges = 0;
    for (int[] racks : kindTargets) {
      kindEdges += racks.length;
    }
    if (kindEdges > MAX_EDGES) {
      summed();
      return;
    }
    // Nodes: 0 = S, 1 = T, then sources, kinds, racks.
    int next = 2;
    for (int s : kindSource) {
      if (!sourceNode.containsKey(s)) {
        sourceNode.put(s, next++);
      }
    }
    int firstKind = next;
    next += kindCounts.size();
    for (int[] racks : kindTargets) {
      for (int r : racks) {
        if (!rackNode.containsKey(r) && rackRoom.getOrDefault(r, 0L) > 0) {
          rackNode.put(r, next++);
          if (underRoom.getOrDefault(r, 0L) > 0) {
            underNode.put(r, next++);
          }
        }
      }
    }
    Graph g = new Graph(next);
    Map<Integer, Integer> sourceEdge = new HashMap<>();
    for (Map.Entry<Integer, Integer> e : sourceNode.entrySet()) {
      sourceEdge.put(e.getKey(), g.add(0, e.getValue(), sourceBudget.getOrDefault(e.getKey(), 0L)));
    }
    for (int k = 0; k < kindCounts.size(); k++) {
      g.add(sourceNode.get(kindSource.get(k)), firstKind + k, kindCounts.get(k)[0]);
      for (int r : kindTargets.get(k)) {
        Integer rn = kindUnderOnly.get(k) ? underNode.get(r) : rackNode.get(r);
        if (rn != null) {
          g.add(firstKind + k, rn, Long.MAX_VALUE / 4);
        }
      }
    }
    for (Map.Entry<Integer, Integer> e : underNode.entrySet()) {
      g.add(e.getValue(), rackNode.get(e.getKey()), underRoom.get(e.getKey()));
    }
    Map<Integer, Integer> rackEdge = new HashMap<>();
    for (Map.Entry<Integer, Integer> e : rackNode.entrySet()) {
      rackEdge.put(e.getKey(), g.add(e.getValue(), 1, rackRoom.get(e.getKey())));
    }
    flow = g.maxFlow(0, 1);
    sourceEdge.forEach((s, edge) -> flowFromSource.put(s, g.flowOn(edge)));
    rackEdge.forEach((r, edge) -> flowIntoRack.put(r, g.flowOn(edge)));
  }

  /**
   * A looser bound for very large graphs: each source gives at most its budget and its blocks, each
   * rack takes at most its room and the blocks not on it; the smaller of the two sums, shared out in
   * proportion (it may overstate what a plan can reach, never understate it).
   */
  private void summed() {
    Map<Integer, Long> blocksOfSource = new HashMap<>();
    Map<Integer, Long> blocksForRack = new HashMap<>();
    for (int k = 0; k < kindCounts.size(); k++) {
      long count = kindCounts.get(k)[0];
      blocksOfSource.merge(kindSource.get(k), count, Long::sum);
      for (int r : kindTargets.get(k)) {
        blocksForRack.merge(r, count, Long::sum);
      }
    }
    long sourceSide = 0;
    for (Map.Entry<Integer, Long> e : blocksOfSource.entrySet()) {
      long f = Math.min(e.getValue(), sourceBudget.getOrDefault(e.getKey(), 0L));
      flowFromSource.put(e.getKey(), f);
      sourceSide += f;
    }
    long rackSide = 0;
    for (Map.Entry<Integer, Long> e : blocksForRack.entrySet()) {
      long f = Math.min(e.getValue(), rackRoom.getOrDefault(e.getKey(), 0L));
      flowIntoRack.put(e.getKey(), f);
      rackSide += f;
    }
    flow = Math.min(sourceSide, rackSide);
  }

  /** Dinic's maximum flow over an edge list. */
  private static final class Graph {
    private final int n;
    private final int[][] adjacency;
    private final int[] degree;
    private int[] to = new int[16];
    private long[] cap = new long[16];
    private long[] original = new long[16];
    private int edges;
    private int[] level;
    private int[] iter;

    Graph(int n) {
      this.n = n;
      this.adjacency = new int[n][];
      this.degree = new int[n];
    }

    int add(int from, int toNode, long capacity) {
      int e = edges;
      put(toNode, capacity);
      put(from, 0);
      link(from, e);
      link(toNode, e + 1);
      return e;
    }

    private void put(int node, long capacity) {
      if (edges == to.length) {
        to = Arrays.copyOf(to, edges * 2);
        cap = Arrays.copyOf(cap, edges * 2);
        original = Arrays.copyOf(original, edges * 2);
      }
      to[edges] = node;
      cap[edges] = capacity;
      original[edges] = capacity;
      edges++;
    }

    private void link(int node, int edge) {
      int[] a = adjacency[node];
      if (a == null) {
        a = new int[4];
      } else if (degree[node] == a.length) {
        a = Arrays.copyOf(a, a.length * 2);
      }
      a[degree[node]++] = edge;
      adjacency[node] = a;
    }

    long flowOn(int edge) {
      return original[edge] - cap[edge];
    }

    long maxFlow(int s, int t) {
      long total = 0;
      while (bfs(s, t)) {
        iter = new int[n];
        long f;
        while ((f = dfs(s, t, Long.MAX_VALUE)) > 0) {
          total += f;
        }
      }
      return total;
    }

    private boolean bfs(int s, int t) {
      level = new int[n];
      Arrays.fill(level, -1);
      level[s] = 0;
      ArrayDeque<Integer> queue = new ArrayDeque<>();
      queue.add(s);
      while (!queue.isEmpty()) {
        int v = queue.poll();
        for (int i = 0; i < degree[v]; i++) {
          int e = adjacency[v][i];
          if (cap[e] > 0 && level[to[e]] < 0) {
            level[to[e]] = level[v] + 1;
            queue.add(to[e]);
          }
        }
      }
      return level[t] >= 0;
    }

    private long dfs(int v, int t, long pushed) {
      if (v == t) {
        return pushed;
      }
      int[] out = adjacency[v];
      for (; iter[v] < degree[v]; iter[v]++) {
        int e = out[iter[v]];
        int w = to[e];
        if (cap[e] > 0 && level[w] == level[v] + 1) {
          long d = dfs(w, t, Math.min(pushed, cap[e]));
          if (d > 0) {
            cap[e] -= d;
            cap[e ^ 1] += d;
            return d;
          }
        }
      }
      return 0;
    }
  }
}
