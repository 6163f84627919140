package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
 * <p>As the stock dispatcher, a target with room left may take a block bigger than that room (it ends less than one
 * block past it); the flow allows it where it meets a need, at the cost of moving those bytes once more.
 *
 * <p>Flow units are the blocks' greatest common size, so a flow of equal-sized blocks is integral and the plan exact.
 * Mixed sizes can split a block over two targets: such a block moves whole where most of it went, if that much went,
 * and the flow runs again on what is left (the last round moves every block it touched whole). A block fetched through
 * several sources is offered by each of them; where the flow moves it from two, it moves from the one that carried most
 * of it (a rack-adding move first), and the next round plans what the other source still needs.
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

  /** The plan, or null where the candidate set is too large for a flow ({@link #MAX_WORK}). */
  List<PlannedMove> plan(Classification c, Map<Integer, List<BlockCandidate>> candidates) {
    int n = c.nodeCount();
    long[] giveMust = new long[n];
    long[] giveMax = new long[n];
    long[] takeMust = new long[n];
    long[] takeMax = new long[n];
    boolean[] over = new boolean[n];
    boolean[] under = new boolean[n];
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
    List<Offer> offered = new ArrayList<>();
    for (Map.Entry<Integer, List<BlockCandidate>> e : candidates.entrySet()) {
      if (giveMax[e.getKey()] > 0) {
        for (BlockCandidate b : e.getValue()) {
          offered.add(new Offer(b, e.getKey()));
        }
      }
    }
    if (offered.isEmpty()) {
      return new ArrayList<>();
    }
    int targets = 0;
    long giving = 0;
    for (int node = 0; node < n; node++) {
      targets += takeMax[node] > 0 ? 1 : 0;
      giving += giveMax[node];
    }
    long smallest = Long.MAX_VALUE;
    for (Offer o : offered) {
      smallest = Math.min(smallest, Math.max(1, o.block.size()));
    }
    long passes = Math.min(offered.size(), giving / smallest + 1);
    if ((long) offered.size() * targets > MAX_WORK / passes) {
      return null;
    }
    List<PlannedMove> moves = new ArrayList<>();
    List<Offer> left = offered;
    for (int round = 1; round <= ROUNDS && !left.isEmpty(); round++) {
      List<PlannedMove> found = round(c, left, giveMust, giveMax, takeMust, takeMax, over, under, round == ROUNDS);
      if (found.isEmpty()) {
        break;
      }
      Set<BlockCandidate> moved = new HashSet<>();
      for (PlannedMove m : found) {
        moves.add(m);
        moved.add(m.block());
        long size = m.block().size();
        giveMust[m.source()] = Math.max(0, giveMust[m.source()] - size);
        giveMax[m.source()] = Math.max(0, giveMax[m.source()] - size);
        takeMust[m.target()] = Math.max(0, takeMust[m.target()] - size);
        takeMax[m.target()] = Math.max(0, takeMax[m.target()] - size);
      }
      left = without(left, moved);
      if (!needRemains(giveMust) && !needRemains(takeMust)) {
        break;
      }
    }
    topUp(moves, left, giveMust, giveMax, takeMust, takeMax, over, under);
    return moves;
  }

  /**
   * What rounding left unmet, one whole block at a time: the move that meets the most bytes of need (then adds a
   * rack, then moves the fewest bytes), as long as one meets any.
   */
  private void topUp(List<PlannedMove> moves, List<Offer> left, long[] giveMust, long[] giveMax, long[] takeMust,
      long[] takeMax, boolean[] over, boolean[] under) {
    Set<BlockCandidate> moved = new HashSet<>();
    while (needRemains(giveMust) || needRemains(takeMust)) {
      PlannedMove best = null;
      long bestMet = 0;
      for (Offer o : left) {
        long size = o.block.size();
        if (moved.contains(o.block) || giveMax[o.source] < size) {
          continue;
        }
        for (int t = 0; t < takeMax.length; t++) {
          if (takeMax[t] <= 0) {
            continue;
          }
          long met = Math.min(size, giveMust[o.source]) + Math.min(size, takeMust[t]);
          if (met == 0 || met < bestMet || !allowed(o.block, o.source, t, over, under)) {
            continue;
          }
          PlannedMove m = new PlannedMove(o.block, o.source, t, racks.delta(o.block.holders(), o.source, t));
          if (best == null || met > bestMet || m.addsRack() && !best.addsRack()
              || m.addsRack() == best.addsRack() && size < best.block().size()) {
            best = m;
            bestMet = met;
          }
        }
      }
      if (best == null) {
        return;
      }
      moves.add(best);
      moved.add(best.block());
      long size = best.block().size();
      giveMust[best.source()] = Math.max(0, giveMust[best.source()] - size);
      giveMax[best.source()] -= size;
      takeMust[best.target()] = Math.max(0, takeMust[best.target()] - size);
      takeMax[best.target()] = Math.max(0, takeMax[best.target()] - size);
    }
  }

  /** The stock pairing, the policy's rack rule and the NameNode's check, for one move. */
  private boolean allowed(BlockCandidate b, int s, int t, boolean[] over, boolean[] under) {
    return t != s && !b.isHeldBy(t) && (over[s] || under[t]) && racks.delta(b.holders(), s, t) >= 0
        && check.isMovable(b, s, t);
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
  private List<PlannedMove> round(Classification c, List<Offer> offered, long[] giveMust,
      long[] giveMax, long[] takeMust, long[] takeMax, boolean[] over, boolean[] under, boolean last) {
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
      if (giveMax[node] > 0) {
        long most = giveMax[node] / unit;
        long must = addNeed(flow, 0, 2 + node, giveMust[node], most, unit, m);
        flow.add(0, 2 + node, most - must, 0);
      } else if (takeMax[node] > 0) {
        long most = takeMax[node] / unit;
        // As the stock dispatcher, a target with room left takes a block bigger than that room: it ends less than
        // one block past it; those units cost as much again as a move (used only where they meet a need).
        long past = ceilDiv(takeMax[node], unit) + overshoot;
        long must = addNeed(flow, 2 + node, 1, takeMust[node], past, unit, m);
        flow.add(2 + node, 1, Math.max(0, most - must), 0);
        flow.add(2 + node, 1, past - Math.max(must, most), k);
      }
    }
    List<int[]> edges = new ArrayList<>(); // edge, offer index, target
    for (int i = 0; i < offered.size(); i++) {
      BlockCandidate b = offered.get(i).block;
      int s = offered.get(i).source;
      long cap = unitsOf(b.size(), unit);
      flow.add(2 + s, firstBlock + i, cap, 0);
      for (int t = 0; t < n; t++) {
        if (takeMax[t] <= 0 || !allowed(b, s, t, over, under)) {
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
    for (Map.Entry<Integer, long[]> e : best.entrySet()) {
      Offer o = offered.get(e.getKey());
      long[] seen = e.getValue();
      if (!last && 2 * seen[2] < unitsOf(o.block.size(), unit)) {
        continue;
      }
      int t = (int) seen[0];
      PlannedMove move = new PlannedMove(o.block, o.source, t, racks.delta(o.block.holders(), o.source, t));
      PlannedMove other = chosen.get(o.block);
      long otherCarried = carried.getOrDefault(o.block, -1L);
      if (other == null || move.addsRack() && !other.addsRack()
          || move.addsRack() == other.addsRack() && seen[2] > otherCarried) {
        chosen.put(o.block, move);
        carried.put(o.block, seen[2]);
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
