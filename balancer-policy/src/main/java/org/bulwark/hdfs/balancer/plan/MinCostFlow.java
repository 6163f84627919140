package org.bulwark.hdfs.balancer.plan;

import java.util.Arrays;

/**
 * A minimum-cost flow over integer capacities and costs: successive shortest paths, Dijkstra on reduced costs.
 * The iteration's plan ({@link BalanceFlow}) and the move assignment ({@link RackAddingAssignment}) need nothing
 * more: graphs of a few thousand edges, solved a few times per iteration.
 *
 * <p>Negative costs are allowed on a graph without negative cycles (the assignment's graphs are acyclic): the
 * first potentials come from Bellman-Ford.
 */
final class MinCostFlow {
  private static final long INF = Long.MAX_VALUE / 4;

  private final int n;
  private int[] head;
  private int[] next = new int[16];
  private int[] to = new int[16];
  private long[] cap = new long[16];
  private long[] cost = new long[16];
  private int edges;

  MinCostFlow(int nodes) {
    this.n = nodes;
    this.head = new int[nodes];
    Arrays.fill(head, -1);
  }

  /** Adds an edge and returns its index (for {@link #flowOn}). */
  int add(int from, int toNode, long capacity, long edgeCost) {
    int e = edges;
    put(from, toNode, capacity, edgeCost);
    put(toNode, from, 0, -edgeCost);
    return e;
  }

  int edgeCount() {
    return edges / 2;
  }

  long flowOn(int edge) {
    return cap[edge ^ 1];
  }

  /**
   * Sends {@code amount} units from {@code s} to {@code t} at the least total cost.
   *
   * @return the flow sent: less than {@code amount} when the graph cannot carry it
   */
  long solve(int s, int t, long amount) {
    return augment(s, t, amount, false);
  }

  /**
   * Sends flow from {@code s} to {@code t} for as long as a path of negative cost is left: the flow of least
   * total cost over every amount (path costs only rise from one augmentation to the next).
   *
   * @return the flow sent
   */
  long solveLeastCost(int s, int t) {
    return augment(s, t, INF, true);
  }

  private long augment(int s, int t, long amount, boolean whileNegative) {
    long[] potential = bellmanFord(s);
    for (int v = 0; v < n; v++) {
      if (potential[v] >= INF) {
        potential[v] = 0; // unreachable now; reduced costs into it are never read
      }
    }
    long sent = 0;
    long[] dist = new long[n];
    int[] via = new int[n];
    while (sent < amount) {
      dijkstra(s, potential, dist, via);
      if (dist[t] >= INF || whileNegative && dist[t] + potential[t] - potential[s] >= 0) {
        break;
      }
      for (int v = 0; v < n; v++) {
        if (dist[v] < INF) {
          potential[v] += dist[v];
        }
      }
      long push = amount - sent;
      for (int v = t; v != s; v = to[via[v] ^ 1]) {
        push = Math.min(push, cap[via[v]]);
      }
      for (int v = t; v != s; v = to[via[v] ^ 1]) {
        cap[via[v]] -= push;
        cap[via[v] ^ 1] += push;
      }
      sent += push;
    }
    return sent;
  }

  private void put(int from, int toNode, long capacity, long edgeCost) {
    if (edges == to.length) {
      int size = edges * 2;
      next = Arrays.copyOf(next, size);
      to = Arrays.copyOf(to, size);
      cap = Arrays.copyOf(cap, size);
      cost = Arrays.copyOf(cost, size);
    }
    to[edges] = toNode;
    cap[edges] = capacity;
    cost[edges] = edgeCost;
    next[edges] = head[from];
    head[from] = edges;
    edges++;
  }

  private long[] bellmanFord(int s) {
    long[] dist = new long[n];
    Arrays.fill(dist, INF);
    dist[s] = 0;
    for (int round = 0; round < n; round++) {
      boolean changed = false;
      for (int e = 0; e < edges; e++) {
        int from = to[e ^ 1];
        if (cap[e] > 0 && dist[from] < INF && dist[from] + cost[e] < dist[to[e]]) {
          dist[to[e]] = dist[from] + cost[e];
          changed = true;
        }
      }
      if (!changed) {
        break;
      }
    }
    return dist;
  }

  /** Shortest paths on reduced costs, all non-negative under the potentials. */
  private void dijkstra(int s, long[] potential, long[] dist, int[] via) {
    Arrays.fill(dist, INF);
    dist[s] = 0;
    LongHeap heap = new LongHeap();
    heap.push(0, s);
    while (!heap.isEmpty()) {
      long d = heap.peekKey();
      int v = heap.pop();
      if (d > dist[v]) {
        continue;
      }
      for (int e = head[v]; e >= 0; e = next[e]) {
        if (cap[e] <= 0) {
          continue;
        }
        int w = to[e];
        long nd = d + cost[e] + potential[v] - potential[w];
        if (nd < dist[w]) {
          dist[w] = nd;
          via[w] = e;
          heap.push(nd, w);
        }
      }
    }
  }

  /** A binary min-heap of (key, node) pairs. */
  private static final class LongHeap {
    private long[] keys = new long[64];
    private int[] nodes = new int[64];
    private int size;

    boolean isEmpty() {
      return size == 0;
    }

    long peekKey() {
      return keys[0];
    }

    void push(long key, int node) {
      if (size == keys.length) {
        keys = Arrays.copyOf(keys, size * 2);
        nodes = Arrays.copyOf(nodes, size * 2);
      }
      int i = size++;
      while (i > 0) {
        int parent = (i - 1) / 2;
        if (keys[parent] <= key) {
          break;
        }
        keys[i] = keys[parent];
        nodes[i] = nodes[parent];
        i = parent;
      }
      keys[i] = key;
      nodes[i] = node;
    }

    int pop() {
      int top = nodes[0];
      size--;
      long key = keys[size];
      int node = nodes[size];
      int i = 0;
      while (true) {
        int child = 2 * i + 1;
        if (child >= size) {
          break;
        }
        if (child + 1 < size && keys[child + 1] < keys[child]) {
          child++;
        }
        if (keys[child] >= key) {
          break;
        }
        keys[i] = keys[child];
        nodes[i] = nodes[child];
        i = child;
      }
      keys[i] = key;
      nodes[i] = node;
      return top;
    }
  }
}
