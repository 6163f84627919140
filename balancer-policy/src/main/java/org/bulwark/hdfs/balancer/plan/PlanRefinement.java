package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Improves a plan by single changes for as long as one makes it better: less left outside the threshold, then fewer
 * bytes moved, then more rack-adding moves. A change drops a move, replaces it by another (any block any source may give,
 * to any target), adds a move, or has two moves trade targets.
 *
 * <p>Why: the flow ({@link BalanceFlow}) counts in the blocks' common size, so with mixed sizes it may carry a few
 * units of a big block where a small block would do, and rounding then moves the big one whole; a block fetched
 * through two sources leaves the same kind of slack. One pass of these changes finds such moves where the exact
 * optimum does not have them.
 */
final class PlanRefinement {
  /** Most passes over the plan: each pass that changes anything improves the score, so this only bounds the time. */
  static final int MAX_PASSES = 50;

  private final Classification c;
  private final MoveRules rules;
  private final NodeLoads loads;
  private final int[] targets;
  private final Map<Integer, List<BlockCandidate>> offers;
  private final long[] net;
  private final Set<BlockCandidate> planned = new HashSet<>();
  private final List<PlannedMove> moves;

  /**
   * @param loads the plan's loads, updated as the plan changes
   * @param offers blocks each source may give, by source
   */
  PlanRefinement(Classification c, MoveRules rules, NodeLoads loads, int[] targets,
      Map<Integer, List<BlockCandidate>> offers, List<PlannedMove> plan) {
    this.c = c;
    this.rules = rules;
    this.loads = loads;
    this.targets = targets;
    this.offers = offers;
    this.moves = new ArrayList<>(plan);
    this.net = new long[c.nodeCount()];
    for (PlannedMove m : plan) {
      planned.add(m.block());
      net[m.source()] -= m.block().size();
      net[m.target()] += m.block().size();
    }
  }

  /** Candidate changes one pass weighs: beyond it, refining costs more than planning did and is left out. */
  static long work(int planSize, Map<Integer, List<BlockCandidate>> offers, int targets) {
    long offered = 0;
    for (List<BlockCandidate> blocks : offers.values()) {
      offered += blocks.size();
    }
    return (planSize + 1L) * offered * targets;
  }

  /** The refined plan, after at most this many passes (none: the plan as it came). */
  List<PlannedMove> refine(int passes) {
    for (int pass = 0; pass < Math.min(passes, MAX_PASSES); pass++) {
      boolean changed = false;
      for (int i = 0; i < moves.size(); i++) {
        changed |= improveMove(i);
      }
      changed |= addOne();
      changed |= exchangeTargets();
      if (!changed) {
        break;
      }
    }
    List<PlannedMove> out = new ArrayList<>(moves);
    Collections.sort(out, (x, y) -> Long.compare(x.block().blockId(), y.block().blockId()));
    return out;
  }

  /** The best change of move i (dropped, or replaced by another block or target), if it improves the plan. */
  private boolean improveMove(int i) {
    PlannedMove m = moves.get(i);
    long[] best = {0, 0, 0};
    PlannedMove replacement = null;
    boolean drop = false;
    long[] dropped = delta(m, null);
    if (better(dropped, best)) {
      best = dropped;
      drop = true;
    }
    for (Map.Entry<Integer, List<BlockCandidate>> e : offers.entrySet()) {
      int s = e.getKey();
      for (BlockCandidate b : e.getValue()) {
        if (b != m.block() && planned.contains(b)) {
          continue;
        }
        for (int t : targets) {
          if (b == m.block() && s == m.source() && t == m.target() || !rules.allowed(b, s, t)) {
            continue;
          }
          PlannedMove other = rules.move(b, s, t);
          if (!fitsSwap(m, other)) {
            continue;
          }
          long[] d = delta(m, other);
          if (better(d, best)) {
            best = d;
            replacement = other;
            drop = false;
          }
        }
      }
    }
    if (!drop && replacement == null) {
      return false;
    }
    remove(m);
    moves.remove(i);
    if (replacement != null) {
      put(replacement);
      moves.add(i, replacement);
    }
    return true;
  }

  /**
   * Two moves trade targets wherever that improves the plan: a block that would add a rack at another move's target
   * goes there, and that move's block takes its place, which no single change can do while both targets are full.
   * Sources and bytes stay; only the targets' loads change. Returns whether any pair traded.
   */
  private boolean exchangeTargets() {
    boolean changed = false;
    for (int i = 0; i < moves.size(); i++) {
      for (int j = i + 1; j < moves.size(); j++) {
        PlannedMove x = moves.get(i);
        PlannedMove y = moves.get(j);
        if (x.target() == y.target() || !rules.allowed(x.block(), x.source(), y.target())
            || !rules.allowed(y.block(), y.source(), x.target())) {
          continue;
        }
        long xs = x.block().size();
        long ys = y.block().size();
        if (!loads.fitsReplacing(x.target(), xs, ys) || !loads.fitsReplacing(y.target(), ys, xs)) {
          continue;
        }
        PlannedMove xToY = rules.move(x.block(), x.source(), y.target());
        PlannedMove yToX = rules.move(y.block(), y.source(), x.target());
        long outside = c.bytesOutsideAfter(x.target(), net[x.target()] - xs + ys) - c.bytesOutsideAfter(x.target(), net[x.target()])
            + c.bytesOutsideAfter(y.target(), net[y.target()] - ys + xs) - c.bytesOutsideAfter(y.target(), net[y.target()]);
        long adding = (xToY.addsRack() ? 1 : 0) + (yToX.addsRack() ? 1 : 0) - (x.addsRack() ? 1 : 0) - (y.addsRack() ? 1 : 0);
        if (!better(new long[] {outside, 0, -adding}, new long[] {0, 0, 0})) {
          continue;
        }
        remove(x);
        remove(y);
        put(xToY);
        put(yToX);
        moves.set(i, xToY);
        moves.set(j, yToX);
        changed = true;
      }
    }
    return changed;
  }

  /** Whether every node's moves still fit with {@code out} taken out and {@code in} put in. */
  private boolean fitsSwap(PlannedMove out, PlannedMove in) {
    long outSize = out.block().size();
    long inSize = in.block().size();
    int[] nodes = {out.source(), out.target(), in.source(), in.target()};
    for (int j = 0; j < nodes.length; j++) {
      int node = nodes[j];
      if (j >= 2 && (node == nodes[0] || node == nodes[1])) {
        continue;
      }
      boolean isOut = node == out.source() || node == out.target();
      boolean isIn = node == in.source() || node == in.target();
      if (!loads.fitsReplacing(node, isOut ? outSize : 0, isIn ? inSize : 0)) {
        return false;
      }
    }
    return true;
  }

  /** The one move that most improves the plan (it can only by meeting a need), if one does. */
  private boolean addOne() {
    long[] best = {0, 0, 0};
    PlannedMove chosen = null;
    for (Map.Entry<Integer, List<BlockCandidate>> e : offers.entrySet()) {
      int s = e.getKey();
      for (BlockCandidate b : e.getValue()) {
        if (planned.contains(b) || !loads.fits(s, b.size())) {
          continue;
        }
        for (int t : targets) {
          if (!loads.fits(t, b.size()) || !rules.allowed(b, s, t)) {
            continue;
          }
          PlannedMove m = rules.move(b, s, t);
          long[] d = delta(null, m);
          if (better(d, best)) {
            best = d;
            chosen = m;
          }
        }
      }
    }
    if (chosen == null) {
      return false;
    }
    put(chosen);
    moves.add(chosen);
    return true;
  }

  /** How the score changes (outside, bytes, rack-adding moves negated) with {@code out} taken out and {@code in} put in. */
  private long[] delta(PlannedMove out, PlannedMove in) {
    int[] nodes = new int[4];
    long[] change = new long[4];
    int k = 0;
    if (out != null) {
      k = note(nodes, change, k, out.source(), out.block().size());
      k = note(nodes, change, k, out.target(), -out.block().size());
    }
    if (in != null) {
      k = note(nodes, change, k, in.source(), -in.block().size());
      k = note(nodes, change, k, in.target(), in.block().size());
    }
    long outside = 0;
    for (int j = 0; j < k; j++) {
      outside += c.bytesOutsideAfter(nodes[j], net[nodes[j]] + change[j]) - c.bytesOutsideAfter(nodes[j], net[nodes[j]]);
    }
    long bytes = (in == null ? 0 : in.block().size()) - (out == null ? 0 : out.block().size());
    long adding = (in != null && in.addsRack() ? 1 : 0) - (out != null && out.addsRack() ? 1 : 0);
    return new long[] {outside, bytes, -adding};
  }

  private static int note(int[] nodes, long[] change, int k, int node, long bytes) {
    for (int j = 0; j < k; j++) {
      if (nodes[j] == node) {
        change[j] += bytes;
        return k;
      }
    }
    nodes[k] = node;
    change[k] = bytes;
    return k + 1;
  }

  /** Whether a score (outside, bytes, rack-adding moves negated) is lexicographically lower, that is better. */
  static boolean better(long[] score, long[] than) {
    for (int i = 0; i < score.length; i++) {
      if (score[i] != than[i]) {
        return score[i] < than[i];
      }
    }
    return false;
  }

  private void remove(PlannedMove m) {
    long size = m.block().size();
    planned.remove(m.block());
    net[m.source()] += size;
    net[m.target()] -= size;
    loads.remove(m.source(), size);
    loads.remove(m.target(), size);
  }

  private void put(PlannedMove m) {
    long size = m.block().size();
    planned.add(m.block());
    net[m.source()] -= size;
    net[m.target()] += size;
    loads.add(m.source(), size);
    loads.add(m.target(), size);
  }
}
