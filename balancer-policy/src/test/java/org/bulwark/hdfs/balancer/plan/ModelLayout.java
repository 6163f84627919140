package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A small seeded cluster for judging one plan against the exact reference: 2-8 racks of 1-6 DataNodes in one to three
 * datacenters, files written by 1-3 DataNode-local writers (placed as the stock policy places them: the writer, a node
 * on another rack, one beside it) and by clients off the cluster, replication 2-4, default or one-per-rack placement,
 * full blocks only or with shorter last blocks. Small enough (a few hundred candidate moves) for an integer program.
 */
final class ModelLayout {
  static final long MB = 1L << 20;
  static final long BLOCK = 8 * MB;

  final int[] rackOf;
  final int[] dcOf;
  final long[] capacity;
  final long[] used;
  final String description;
  final double threshold;
  final long maxSizeToMove;
  private final List<long[]> sizes = new ArrayList<>(); // per block: {size}
  private final List<int[]> holders = new ArrayList<>();

  private ModelLayout(int[] rackOf, int[] dcOf, long[] capacity, String description, double threshold,
      long maxSizeToMove) {
    this.rackOf = rackOf;
    this.dcOf = dcOf;
    this.capacity = capacity;
    this.used = new long[rackOf.length];
    this.description = description;
    this.threshold = threshold;
    this.maxSizeToMove = maxSizeToMove;
  }

  /** A layout read from a cluster: every DataNode's rack, capacity and use (one datacenter). */
  static ModelLayout observed(int[] rackOf, long[] capacity, long[] used, String description, double threshold,
      long maxSizeToMove) {
    ModelLayout layout = new ModelLayout(rackOf, new int[rackOf.length], capacity.clone(), description, threshold,
        maxSizeToMove);
    System.arraycopy(used, 0, layout.used, 0, used.length);
    return layout;
  }

  static ModelLayout generate(long seed) {
    Random random = new Random(seed);
    boolean mixedSizes = seed % 2 == 1;
    int racks = 2 + random.nextInt(7);
    int dcs = random.nextInt(3) == 0 ? 1 : 1 + random.nextInt(3);
    dcs = Math.min(dcs, racks);
    List<Integer> rackList = new ArrayList<>();
    int[] perRack = new int[racks];
    for (int r = 0; r < racks; r++) {
      perRack[r] = 1 + random.nextInt(6);
      for (int i = 0; i < perRack[r]; i++) {
        rackList.add(r);
      }
    }
    int n = rackList.size();
    int[] rackOf = rackList.stream().mapToInt(Integer::intValue).toArray();
    int[] dcOf = new int[n];
    for (int v = 0; v < n; v++) {
      dcOf[v] = rackOf[v] % dcs;
    }
    int writers = 1 + random.nextInt(3);
    boolean onePerRack = random.nextBoolean();
    int maxRf = 2 + random.nextInt(3);
    double threshold = 5 + random.nextInt(6);
    int blocksPerNode = 2 + random.nextInt(3);
    long blocks = (long) n * blocksPerNode;
    long[] capacity = new long[n];
    long maxSizeToMove = random.nextInt(4) == 0 ? 3 * BLOCK : 10L << 30;
    String description = Arrays.toString(perRack) + " in " + dcs + " dc, " + writers + " writers, rf<=" + maxRf + ", "
        + (onePerRack ? "one-per-rack" : "default") + ", threshold " + threshold
        + (maxSizeToMove < (1L << 30) ? ", max-size-to-move 24 MB" : "") + (mixedSizes ? ", mixed sizes" : "");
    ModelLayout layout = new ModelLayout(rackOf, dcOf, capacity, description, threshold, maxSizeToMove);
    int[] writerNodes = new int[writers];
    for (int w = 0; w < writers; w++) {
      writerNodes[w] = random.nextInt(n);
    }
    for (int b = 0; b < blocks; b++) {
      int rf = Math.min(n, 2 + random.nextInt(maxRf - 1));
      // Three files in four come from the DataNode-local writers, the rest from off the cluster.
      int writer = random.nextInt(4) == 0 ? random.nextInt(n) : writerNodes[b % writers];
      long size = mixedSizes && random.nextInt(4) == 0 ? MB * (1 + random.nextInt(7)) : BLOCK;
      layout.add(size, onePerRack ? layout.onePerRack(writer, rf, random) : layout.stockDefault(writer, rf, random));
    }
    // Capacities: two or three times the average use, and a quarter free at least (a writer's node fills first).
    long total = 0;
    for (long u : layout.used) {
      total += u;
    }
    for (int v = 0; v < n; v++) {
      capacity[v] = Math.max(total / n * (2 + random.nextInt(2)), layout.used[v] * 4 / 3);
    }
    return layout;
  }

  int nodes() {
    return rackOf.length;
  }

  double average() {
    long c = 0;
    long u = 0;
    for (int v = 0; v < nodes(); v++) {
      c += capacity[v];
      u += used[v];
    }
    return u * 100.0 / c;
  }

  double utilisation(int node) {
    return used[node] * 100.0 / capacity[node];
  }

  Classification classify() {
    List<NodeUsage> usages = new ArrayList<>();
    for (int v = 0; v < nodes(); v++) {
      usages.add(new NodeUsage(v, capacity[v], used[v], capacity[v] - used[v], true));
    }
    return Classification.classify(nodes(), usages, threshold, maxSizeToMove);
  }

  /** The NameNode's check of a datacenter-aware policy: no move lowers the block's datacenter count. */
  MoveCheck datacenterCheck() {
    return (block, source, target) -> {
      Set<Integer> before = new HashSet<>();
      Set<Integer> after = new HashSet<>();
      for (int h : block.holders()) {
        before.add(dcOf[h]);
        after.add(dcOf[h == source ? target : h]);
      }
      return after.size() >= before.size();
    };
  }

  /**
   * What {@code getBlocks} hands the balancer for every node above the average: from a random block on, blocks up to
   * twice what the node may give (the stock balancer's fetch), as the NameNode returns them.
   */
  Map<Integer, List<BlockCandidate>> candidates(Classification c, Random random) {
    Map<Integer, List<Integer>> blocksOf = new HashMap<>();
    for (int b = 0; b < holders.size(); b++) {
      for (int h : holders.get(b)) {
        if (c.classOf(h).isSource() && c.maxBytesToMove(h) > 0) {
          blocksOf.computeIfAbsent(h, k -> new ArrayList<>()).add(b);
        }
      }
    }
    Map<Integer, List<BlockCandidate>> out = new HashMap<>();
    for (Map.Entry<Integer, List<Integer>> e : blocksOf.entrySet()) {
      List<Integer> list = e.getValue();
      long want = 2 * c.maxBytesToMove(e.getKey());
      int start = random.nextInt(list.size());
      List<BlockCandidate> fetched = new ArrayList<>();
      long bytes = 0;
      for (int i = 0; i < list.size() && bytes < want; i++) {
        int b = list.get((start + i) % list.size());
        fetched.add(new BlockCandidate(0, b, sizes.get(b)[0], holders.get(b).clone()));
        bytes += sizes.get(b)[0];
      }
      out.put(e.getKey(), fetched);
    }
    return out;
  }

  /** Every block of every node above the average: the candidates of the complete move set, with no fetch window. */
  Map<Integer, List<BlockCandidate>> everyBlockOfSources() {
    double average = average();
    Map<Integer, List<BlockCandidate>> out = new HashMap<>();
    for (int b = 0; b < holders.size(); b++) {
      for (int h : holders.get(b)) {
        if (utilisation(h) > average) {
          out.computeIfAbsent(h, k -> new ArrayList<>()).add(new BlockCandidate(0, b, sizes.get(b)[0],
              holders.get(b).clone()));
        }
      }
    }
    return out;
  }

  void apply(List<PlannedMove> moves) {
    for (PlannedMove m : moves) {
      int b = (int) m.block().blockId();
      int[] h = holders.get(b);
      for (int i = 0; i < h.length; i++) {
        if (h[i] == m.source()) {
          h[i] = m.target();
        }
      }
      used[m.source()] -= sizes.get(b)[0];
      used[m.target()] += sizes.get(b)[0];
    }
  }

  private void add(long size, int[] replicaHolders) {
    sizes.add(new long[] {size});
    holders.add(replicaHolders);
    for (int h : replicaHolders) {
      used[h] += size;
    }
  }

  /** The stock default: the writer, a node on another rack, another node on that rack, then anywhere new. */
  private int[] stockDefault(int writer, int rf, Random random) {
    List<Integer> chosen = new ArrayList<>();
    chosen.add(writer);
    if (rf >= 2) {
      int second = any(random, v -> rackOf[v] != rackOf[writer], chosen);
      chosen.add(second >= 0 ? second : any(random, v -> true, chosen));
    }
    if (rf >= 3) {
      int beside = any(random, v -> rackOf[v] == rackOf[chosen.get(1)], chosen);
      chosen.add(beside >= 0 ? beside : any(random, v -> true, chosen));
    }
    while (chosen.size() < rf) {
      chosen.add(any(random, v -> true, chosen));
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }

  /** One replica per rack while racks last (Bulwark's policy), the writer's node first. */
  private int[] onePerRack(int writer, int rf, Random random) {
    List<Integer> chosen = new ArrayList<>();
    chosen.add(writer);
    while (chosen.size() < rf) {
      int next = any(random, v -> chosen.stream().noneMatch(c -> rackOf[c] == rackOf[v]), chosen);
      chosen.add(next >= 0 ? next : any(random, v -> true, chosen));
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }

  private int any(Random random, java.util.function.IntPredicate wanted, List<Integer> chosen) {
    List<Integer> options = new ArrayList<>();
    for (int v = 0; v < nodes(); v++) {
      if (wanted.test(v) && !chosen.contains(v)) {
        options.add(v);
      }
    }
    return options.isEmpty() ? -1 : options.get(random.nextInt(options.size()));
  }
}
