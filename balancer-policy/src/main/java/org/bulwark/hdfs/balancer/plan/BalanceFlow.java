package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One iteration's moves chosen as an optimisation: the least bytes that bring every node inside the threshold, and
 * among such plans the most bytes moved by rack-adding moves.
 *
 * <p>A minimum-cost flow: source node (what it must shed to get inside the threshold, then what it may still give
 * down to the average) → one of its fetched blocks → a target that may take it → target node (what it must take,
 * then what it may still take up to the average). The edges of what a node must give or take cost {@code -M}, every
 * moved unit {@code K}, one unit less where the move adds a rack; with {@code M} larger than any plan's other costs
 * and {@code K} larger than any plan's rack-adding units, the cheapest flow first meets as much of every node's need
 * as the blocks allow, then moves the least, then adds the most racks. The rules are the stock balancer's: sources
 * above the average, targets below it, an above-average source only into an under-utilised target, nobody past the
 * average or {@code dfs.balancer.max-size-to-move}; and the policy's: no move lowers a block's rack count, every move
 * passes {@link MoveCheck}.
 *
 * <p>As the stock dispatcher, a node with room left may give or take a block bigger than that room (it ends less than
 * one block past it); the flow allows it where it meets a need, at the cost of moving those bytes once more.
 *
 * <p>Flow units are the blocks' greatest common size, so a flow of equal-sized blocks is integral and the plan exact.
 * Mixed sizes can split a block over two targets: such a block moves whole where most of it went, if that much went,
 * and the flow runs again on what is left (the last round moves every block it touched whole). A block fetched through
 * several sources is offered by each of them; where the flow moves it from two, it moves from the one that carried most
 * of it (a rack-adding move first), and the iteration is planned again without the other offer (the best plan of these
 * attempts is kept). Each attempt's plan is then refined move by move ({@link PlanRefinement}).
 */
final class BalanceFlow {
  /**
   * Block-to-target edges times the moves the sources could make (each move about one shortest-path pass over
   * the edges) beyond which no flow is built: the phases of {@link MovePlanner} plan alone.
   */
  static final long MAX_WORK = 100_000_000L;
  /** Most flow units: beyond it, a unit is more than the blocks' common size and every plan rounds. */
  private static final long MAX_UNITS = 1L << 22;
  private static final int ROUNDS = 4;
  /** Most plans of one iteration, each with the offers that lost a shared block withdrawn. */
  private static final int MAX_ATTEMPTS = 8;
  /** Parts of a flow unit by which a node's need is weighed. */
  private static final long TICKS = 1024;

  /** A block as one of the sources that fetched it offers it. */
  private static final class Offer {
    final BlockCandidate block;
    final int source;

    Offer(BlockCandidate block, int source) {
      this.block = block;
      this.source = source;
    }
  }

  private final RackSpread racks;
  private final MoveCheck check;

  BalanceFlow(RackSpread racks, MoveCheck check) {
    this.racks = racks;
    this.check = check;
  }

  /** What each node must and may give or take in this iteration, by the stock rules. */
  private static final class Needs {
    final long[] giveMust;
    final long[] giveMax;
    final long[] takeMust;
    final long[] takeMax;
    final boolean[] over;
    final boolean[] under;

    Needs(Classification c) {
      int n = c.nodeCount();
      giveMust = new long[n];
      giveMax = new long[n];
      takeMust = new long[n];
      takeMax = new long[n];
      over = new boolean[n];
      under = new boolean[n];
      for (int node = 0; node < n; node++) {
        UtilisationClass cls = c.classOf(node);
        long outside = c.bytesOutside(node, c.threshold());
        if (cls.isSource()) {
          giveMax[node] = c.maxBytesToMove(node);
          over[node] = cls == UtilisationClass.OVER_UTILISED;
          giveMust[node] = over[node] ? Math.min(giveMax[node], outside) : 0;
        } else if (cls.isTarget()) {
          takeMax[node] = c.maxBytesToMove(node);
          under[node] = cls == UtilisationClass.UNDER_UTILISED;
          takeMust[node] = under[node] ? Math.min(takeMax[node], -outside) : 0;
        }
      }
    }

    /** What a node may give (a source) or take (a target): a node is one or the other, never both. */
    long[] room() {
      long[] room = new long[giveMax.length];
      for (int node = 0; node < room.length; node++) {
        room[node] = giveMax[node] + takeMax[node];
      }
      return room;
    }

    int[] targets() {
      int count = 0;
      for (long t : takeMax) {
        count += t > 0 ? 1 : 0;
      }
      int[] out = new int[count];
      for (int node = 0, i = 0; node < takeMax.length; node++) {
        if (takeMax[node] > 0) {
          out[i++] = node;
        }
      }
      return out;
    }

    Map<Integer, List<BlockCandidate>> offersBySource(Map<Integer, List<BlockCandidate>> candidates) {
      Map<Integer, List<BlockCandidate>> out = new HashMap<>();
      for (Map.Entry<Integer, List<BlockCandidate>> e : candidates.entrySet()) {
        if (giveMax[e.getKey()] > 0) {
          out.put(e.getKey(), e.getValue());
        }
      }
      return out;
    }
  }

  /**
   * Another planner's plan (the phases', where the flow's rounding left more outside) refined by the same single
   * changes under the same rules; a node that plan took past its room only loses moves.
   */
  List<PlannedMove> refine(Classification c, Map<Integer, List<BlockCandidate>> candidates, List<PlannedMove> plan) {
    Needs needs = new Needs(c);
    Map<Integer, List<BlockCandidate>> offersBySource = needs.offersBySource(candidates);
    int[] targetNodes = needs.targets();
    long refineWork = PlanRefinement.work(plan.size(), offersBySource, targetNodes.length);
    int passes = (int) Math.min(PlanRefinement.MAX_PASSES, MAX_WORK / Math.max(1, refineWork));
    NodeLoads loads = new NodeLoads(c, needs.room());
    for (PlannedMove m : plan) {
      loads.add(m.source(), m.block().size());
      loads.add(m.target(), m.block().size());
    }
    MoveRules rules = new MoveRules(racks, check, needs.over, needs.under);
    return new PlanRefinement(c, rules, loads, targetNodes, offersBySource, plan).refine(passes);
  }

  /** The plan, or null where the candidate set is too large for a flow ({@link #MAX_WORK}). */
  List<PlannedMove> plan(Classification c, Map<Integer, List<BlockCandidate>> candidates) {
    Needs needs = new Needs(c);
    long[] giveMust = needs.giveMust;
    long[] giveMax = needs.giveMax;
    long[] takeMust = needs.takeMust;
    long[] takeMax = needs.takeMax;
    boolean[] over = needs.over;
    boolean[] under = needs.under;
    List<Offer> offered = new ArrayList<>();
    Map<Integer, List<BlockCandidate>> offersBySource = needs.offersBySource(candidates);
    for (Map.Entry<Integer, List<BlockCandidate>> e : offersBySource.entrySet()) {
      for (BlockCandidate b : e.getValue()) {
        offered.add(new Offer(b, e.getKey()));
      }
    }
    if (offered.isEmpty()) {
      return new ArrayList<>();
    }
    long giving = 0;
    for (long g : giveMax) {
      giving += g;
    }
    int[] targetNodes = needs.targets();
    int targets = targetNodes.length;
    long[] room = needs.room();
    MoveRules rules = new MoveRules(racks, check, over, under);
    long smallest = Long.MAX_VALUE;
    for (Offer o : offered) {
      smallest = Math.min(smallest, Math.max(1, o.block.size()));
    }
    long passes = Math.min(offered.size(), giving / smallest + 1);
    long work = (long) offered.size() * targets * passes;
    if ((long) offered.size() * targets > MAX_WORK / passes) {
      return null;
    }
    // A block fetched through several sources may move once: where the flow moved one from two, the losing offers
    // are withdrawn and the whole iteration planned again around them, while the work allows.
    int attempts = (int) Math.max(1, Math.min(MAX_ATTEMPTS, 2 * MAX_WORK / Math.max(1, work)));
    List<PlannedMove> best = null;
    long[] bestScore = null;
    Set<Offer> withdrawn = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int attempt = 0; attempt < attempts; attempt++) {
      List<Offer> offers = new ArrayList<>();
      for (Offer o : offered) {
        if (!withdrawn.contains(o)) {
          offers.add(o);
        }
      }
      Set<Offer> losers = Collections.newSetFromMap(new IdentityHashMap<>());
      NodeLoads loads = new NodeLoads(c, room);
      List<PlannedMove> moves = attempt(c, rules, offers, giveMust.clone(), takeMust.clone(), takeMax, loads, losers);
      long refineWork = PlanRefinement.work(moves.size(), offersBySource, targets);
      // Each pass weighs about as many changes as the flow's own work; none where one pass would cost more.
      int refinePasses = (int) Math.min(PlanRefinement.MAX_PASSES, MAX_WORK / Math.max(1, refineWork));
      moves = new PlanRefinement(c, rules, loads, targetNodes, offersBySource, moves).refine(refinePasses);
      long[] score = score(c, moves);
      if (best == null || PlanRefinement.better(score, bestScore)) {
        best = moves;
        bestScore = score;
      }
      if (losers.isEmpty()) {
        break;
      }
      withdrawn.addAll(losers);
    }
    return best;
  }

  /** A plan's standing, least best: bytes left outside the threshold, bytes moved, rack-adding moves (negated). */
  private static long[] score(Classification c, List<PlannedMove> moves) {
    long bytes = 0;
    long adding = 0;
    for (PlannedMove m : moves) {
      bytes += m.block().size();
      adding += m.addsRack() ? 1 : 0;
    }
    return new long[] {MovePlanner.bytesOutside(c, moves), bytes, -adding};
  }

  /**
   * One plan over these offers, by flow rounds (their moves added to loads); the offers that lost a block to another
   * go to losers.
   */
  private List<PlannedMove> attempt(Classification c, MoveRules rules, List<Offer> offered, long[] giveMust,
      long[] takeMust, long[] takeMax, NodeLoads loads, Set<Offer> losers) {
    List<PlannedMove> moves = new ArrayList<>();
    List<Offer> left = offered;
    for (int round = 1; round <= ROUNDS && !left.isEmpty(); round++) {
      List<PlannedMove> found = round(c, rules, left, giveMust, takeMust, takeMax, loads, round == ROUNDS, losers);
      Set<BlockCandidate> moved = new HashSet<>();
      for (PlannedMove m : found) {
        // Rounding can let a node's small blocks cross its room; such moves wait for the next round.
        long size = m.block().size();
        if (loads.fits(m.source(), size) && loads.fits(m.target(), size)) {
          accept(m, moves, loads, giveMust, takeMust);
          moved.add(m.block());
        }
      }
      if (moved.isEmpty() && round < ROUNDS - 1) {
        round = ROUNDS - 1; // no block carried half-way or more: the last round moves those it touched whole
      }
      left = without(left, moved);
      if (!needRemains(giveMust) && !needRemains(takeMust)) {
        break;
      }
    }
    return moves;
  }

  private static void accept(PlannedMove m, List<PlannedMove> moves, NodeLoads loads, long[] giveMust,
      long[] takeMust) {
    long size = m.block().size();
    moves.add(m);
    loads.add(m.source(), size);
    loads.add(m.target(), size);
    giveMust[m.source()] = Math.max(0, giveMust[m.source()] - size);
    takeMust[m.target()] = Math.max(0, takeMust[m.target()] - size);
  }

  private static boolean needRemains(long[] must) {
    for (long m : must) {
      if (m > 0) {
        return true;
      }
    }
    return false;
  }

  private static List<Offer> without(List<Offer> offers, Set<BlockCandidate> moved) {
    List<Offer> out = new ArrayList<>();
    for (Offer o : offers) {
      if (!moved.contains(o.block)) {
        out.add(o);
      }
    }
    return out;
  }

  /**
   * One flow over the blocks still unplanned and the needs and rooms still left; the blocks it moves whole, and in
   * the last round every block it touched (to the target that got most of it).
   */
  private List<PlannedMove> round(Classification c, MoveRules rules, List<Offer> offered, long[] giveMust,
      long[] takeMust, long[] takeMax, NodeLoads loads, boolean last, Set<Offer> losers) {
    int n = c.nodeCount();
    long unit = 0;
    long totalBytes = 0;
    for (Offer o : offered) {
      unit = gcd(unit, o.block.size());
      totalBytes += o.block.size();
    }
    unit = Math.max(unit, 1);
    if (totalBytes / unit > MAX_UNITS) {
      unit = (totalBytes + MAX_UNITS - 1) / MAX_UNITS;
    }
    long units = 0;
    for (Offer o : offered) {
      units += unitsOf(o.block.size(), unit);
    }
    long overshoot = 0;
    for (Offer o : offered) {
      overshoot = Math.max(overshoot, unitsOf(o.block.size(), unit) - 1);
    }
    long k = units + 1;
    long m = k * (units + 1) + 1;
    // Nodes: 0 = S, 1 = T, 2 + node = the node as source or target (a node is never both), then the blocks.
    int firstBlock = 2 + n;
    MinCostFlow flow = new MinCostFlow(firstBlock + offered.size());
    for (int node = 0; node < n; node++) {
      long room = loads.left(node);
      if (room <= 0) {
        continue;
      }
      // A node's last block may cross its room (NodeLoads): with blocks of one size, exactly the units up to the room's
      // ceiling. A bigger block crossing it needs more units than that; those cost as much again as a move, so that
      // they are used only where they meet a need.
      long most = ceilDiv(room, unit);
      long past = most + overshoot;
      boolean target = takeMax[node] > 0;
      int from = target ? 2 + node : 0;
      int to = target ? 1 : 2 + node;
      long must = addNeed(flow, from, to, target ? takeMust[node] : giveMust[node], past, unit, m);
      flow.add(from, to, Math.max(0, most - must), 0);
      flow.add(from, to, past - Math.max(must, most), k);
    }
    List<int[]> edges = new ArrayList<>(); // edge, offer index, target
    for (int i = 0; i < offered.size(); i++) {
      BlockCandidate b = offered.get(i).block;
      int s = offered.get(i).source;
      long cap = unitsOf(b.size(), unit);
      flow.add(2 + s, firstBlock + i, cap, 0);
      for (int t = 0; t < n; t++) {
        if (takeMax[t] <= 0 || loads.left(t) <= 0 || !rules.allowed(b, s, t)) {
          continue;
        }
        int delta = racks.delta(b.holders(), s, t);
        edges.add(new int[] {flow.add(firstBlock + i, 2 + t, cap, delta > 0 ? k - 1 : k), i, t});
      }
    }
    flow.solveLeastCost(0, 1);
    Map<Integer, long[]> best = new HashMap<>(); // offer index -> {target, its units, all units}
    for (int[] e : edges) {
      long f = flow.flowOn(e[0]);
      if (f <= 0) {
        continue;
      }
      long[] seen = best.computeIfAbsent(e[1], x -> new long[] {-1, 0, 0});
      seen[2] += f;
      if (f > seen[1]) {
        seen[0] = e[2];
        seen[1] = f;
      }
    }
    // Per block, the offer that carried most of it (a rack-adding move first): a block moves once.
    Map<BlockCandidate, PlannedMove> chosen = new LinkedHashMap<>();
    Map<BlockCandidate, Long> carried = new HashMap<>();
    Map<BlockCandidate, Offer> chosenOffer = new HashMap<>();
    for (Map.Entry<Integer, long[]> e : best.entrySet()) {
      Offer o = offered.get(e.getKey());
      long[] seen = e.getValue();
      if (!last && 2 * seen[2] < unitsOf(o.block.size(), unit)) {
        continue;
      }
      int t = (int) seen[0];
      PlannedMove move = rules.move(o.block, o.source, t);
      PlannedMove other = chosen.get(o.block);
      long otherCarried = carried.getOrDefault(o.block, -1L);
      if (other == null || move.addsRack() && !other.addsRack()
          || move.addsRack() == other.addsRack() && seen[2] > otherCarried) {
        if (other != null) {
          losers.add(chosenOffer.get(o.block));
        }
        chosen.put(o.block, move);
        carried.put(o.block, seen[2]);
        chosenOffer.put(o.block, o);
      } else {
        losers.add(o);
      }
    }
    List<PlannedMove> out = new ArrayList<>(chosen.values());
    out.sort((x, y) -> Long.compare(x.block().blockId(), y.block().blockId()));
    return out;
  }

  /**
   * The edges of a node's need: each unit that meets it earns {@code m} per 1/{@link #TICKS} of a unit it meets (the
   * last, partial unit earns less), so that the flow meets the most bytes of need, not the most units.
   *
   * @return the units of the need edges
   */
  private static long addNeed(MinCostFlow flow, int from, int to, long needBytes, long most, long unit, long m) {
    long full = Math.min(needBytes / unit, most);
    flow.add(from, to, full, -m * TICKS);
    long rest = needBytes - full * unit;
    if (rest > 0 && full < most) {
      flow.add(from, to, 1, -m * Math.min(TICKS, ceilDiv(rest * TICKS, unit)));
      return full + 1;
    }
    return full;
  }

  private static long unitsOf(long size, long unit) {
    return Math.max(1, ceilDiv(size, unit));
  }

  private static long ceilDiv(long a, long b) {
    return a <= 0 ? 0 : (a + b - 1) / b;
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long r = a % b;
      a = b;
      b = r;
    }
    return a;
  }
}
