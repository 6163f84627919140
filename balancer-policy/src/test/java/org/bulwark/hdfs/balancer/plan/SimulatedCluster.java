package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * An in-memory cluster for the planner: nodes on racks, blocks with replica holders laid out as
 * Hadoop's default policy lays them out for a writer on a DataNode (replica 1 on the writer,
 * 2 and 3 on two nodes of one other rack). Compact arrays, so ten million replicas fit easily.
 */
final class SimulatedCluster {
  final int[] rackOf;
  final long[] capacity;
  final long[] used;
  final long blockSize;
  private int blockCount;
  private int[][] holders = new int[1024][];
  private final int[][] nodesOfRack;

  /** @param rackSizes nodes per rack, in order */
  SimulatedCluster(int[] rackSizes, long capacityPerNode, long blockSize) {
    int n = Arrays.stream(rackSizes).sum();
    rackOf = new int[n];
    nodesOfRack = new int[rackSizes.length][];
    int node = 0;
    for (int r = 0; r < rackSizes.length; r++) {
      nodesOfRack[r] = new int[rackSizes[r]];
      for (int i = 0; i < rackSizes[r]; i++) {
        nodesOfRack[r][i] = node;
        rackOf[node++] = r;
      }
    }
    capacity = new long[n];
    Arrays.fill(capacity, capacityPerNode);
    used = new long[n];
    this.blockSize = blockSize;
  }

  /** An independent copy: same nodes, racks and replicas. */
  SimulatedCluster copy() {
    SimulatedCluster c = new SimulatedCluster(rackOf, nodesOfRack, capacity.clone(), used.clone(), blockSize);
    c.blockCount = blockCount;
    c.holders = new int[holders.length][];
    for (int b = 0; b < blockCount; b++) {
      c.holders[b] = holders[b].clone();
    }
    return c;
  }

  private SimulatedCluster(int[] rackOf, int[][] nodesOfRack, long[] capacity, long[] used, long blockSize) {
    this.rackOf = rackOf;
    this.nodesOfRack = nodesOfRack;
    this.capacity = capacity;
    this.used = used;
    this.blockSize = blockSize;
  }

  int nodes() {
    return rackOf.length;
  }

  int blocks() {
    return blockCount;
  }

  int[] holders(int block) {
    return holders[block];
  }

  /** Writes one block the way the default policy does for a writer on {@code writer}. */
  void writeFrom(int writer, Random random) {
    int writerRack = rackOf[writer];
    int rack;
    do {
      rack = random.nextInt(nodesOfRack.length);
    } while (rack == writerRack || nodesOfRack[rack].length < 2);
    int[] rackNodes = nodesOfRack[rack];
    int second = rackNodes[random.nextInt(rackNodes.length)];
    int third;
    do {
      third = rackNodes[random.nextInt(rackNodes.length)];
    } while (third == second);
    add(new int[] {writer, second, third});
  }

  /**
   * Writes one block of {@code rf} replicas as the default policy does on any layout: the writer's
   * node, then a node on another rack, then another node on that rack (or, lacking one, on a third
   * rack), further replicas anywhere not used yet.
   */
  void writeDefault(int writer, int rf, Random random) {
    List<Integer> chosen = new ArrayList<>();
    chosen.add(writer);
    if (rf >= 2) {
      int second = anyNode(random, n -> rackOf[n] != rackOf[writer], chosen);
      chosen.add(second < 0 ? anyNode(random, n -> true, chosen) : second);
    }
    if (rf >= 3) {
      int onSecondRack = anyNode(random, n -> rackOf[n] == rackOf[chosen.get(1)], chosen);
      chosen.add(onSecondRack >= 0 ? onSecondRack : anyNode(random, n -> true, chosen));
    }
    while (chosen.size() < rf) {
      chosen.add(anyNode(random, n -> true, chosen));
    }
    add(chosen.stream().mapToInt(Integer::intValue).toArray());
  }

  /** Writes one block of {@code rf} replicas one per rack (Bulwark's policy): the writer's node, then new racks. */
  void writeOnePerRack(int writer, int rf, Random random) {
    List<Integer> chosen = new ArrayList<>();
    chosen.add(writer);
    while (chosen.size() < rf) {
      int next = anyNode(random, n -> chosen.stream().noneMatch(c -> rackOf[c] == rackOf[n]), chosen);
      chosen.add(next >= 0 ? next : anyNode(random, n -> true, chosen));
    }
    add(chosen.stream().mapToInt(Integer::intValue).toArray());
  }

  private int anyNode(Random random, java.util.function.IntPredicate wanted, List<Integer> chosen) {
    List<Integer> options = new ArrayList<>();
    for (int n = 0; n < nodes(); n++) {
      if (wanted.test(n) && !chosen.contains(n)) {
        options.add(n);
      }
    }
    return options.isEmpty() ? -1 : options.get(random.nextInt(options.size()));
  }

  void add(int[] replicaHolders) {
    if (blockCount == holders.length) {
      holders = Arrays.copyOf(holders, holders.length * 2);
    }
    holders[blockCount++] = replicaHolders;
    for (int h : replicaHolders) {
      used[h] += blockSize;
    }
  }

  double utilisation(int node) {
    return used[node] * 100.0 / capacity[node];
  }

  double stdDev() {
    double mean = 0;
    for (int i = 0; i < nodes(); i++) {
      mean += utilisation(i);
    }
    mean /= nodes();
    double sq = 0;
    for (int i = 0; i < nodes(); i++) {
      sq += Math.pow(utilisation(i) - mean, 2);
    }
    return Math.sqrt(sq / nodes());
  }

  double maxDeviation() {
    Classification c = classify(10);
    double max = 0;
    for (int i = 0; i < nodes(); i++) {
      max = Math.max(max, Math.abs(utilisation(i) - c.average()));
    }
    return max;
  }

  Classification classify(double threshold) {
    List<NodeUsage> usages = new ArrayList<>();
    for (int i = 0; i < nodes(); i++) {
      usages.add(new NodeUsage(i, capacity[i], used[i], capacity[i] - used[i], true));
    }
    return Classification.classify(nodes(), usages, threshold, 10L << 30);
  }

  /**
   * Blocks of every source, as {@code getBlocks} would return them: up to {@code fetchBytes}
   * per source, starting at a random block as the NameNode does.
   */
  Map<Integer, List<BlockCandidate>> candidates(Classification c, long fetchFactor, Random random) {
    Map<Integer, List<Integer>> blocksOf = new HashMap<>();
    for (int b = 0; b < blockCount; b++) {
      for (int h : holders[b]) {
        if (c.classOf(h).isSource()) {
          blocksOf.computeIfAbsent(h, k -> new ArrayList<>()).add(b);
        }
      }
    }
    Map<Integer, List<BlockCandidate>> out = new HashMap<>();
    for (Map.Entry<Integer, List<Integer>> e : blocksOf.entrySet()) {
      List<Integer> list = e.getValue();
      long want = fetchFactor * c.maxBytesToMove(e.getKey());
      int start = random.nextInt(list.size());
      List<BlockCandidate> fetched = new ArrayList<>();
      long bytes = 0;
      for (int i = 0; i < list.size() && bytes < want; i++) {
        int b = list.get((start + i) % list.size());
        fetched.add(new BlockCandidate(0, b, blockSize, holders[b]));
        bytes += blockSize;
      }
      out.put(e.getKey(), fetched);
    }
    return out;
  }

  /** Applies a plan as the DataNodes would carry it out. */
  void apply(Plan plan) {
    apply(plan.moves());
  }

  /** Applies moves as the DataNodes would carry them out. */
  void apply(List<PlannedMove> moves) {
    for (PlannedMove m : moves) {
      int b = (int) m.block().blockId();
      int[] h = holders[b];
      for (int i = 0; i < h.length; i++) {
        if (h[i] == m.source()) {
          h[i] = m.target();
        }
      }
      used[m.source()] -= blockSize;
      used[m.target()] += blockSize;
    }
  }

  int[] blocksByRackCount() {
    RackSpread spread = new RackSpread(rackOf);
    int[] counts = new int[4];
    for (int b = 0; b < blockCount; b++) {
      counts[Math.min(3, spread.racks(holders[b]))]++;
    }
    return counts;
  }
}
