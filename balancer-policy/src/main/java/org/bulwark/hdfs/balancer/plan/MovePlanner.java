package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides the moves of one iteration of the availability policy.
 *
 * <p>The iteration is planned as an optimisation first ({@link BalanceFlow}: the need to get inside the threshold met,
 * then the fewest bytes, then the most rack-adding moves). Where its rounding of mixed block sizes leaves more bytes
 * outside the threshold than the phases below do, or the candidate set is too large for a flow, the phases plan.
 *
 * <p>The phases. Every candidate move (source, target, block) is ranked by the change it makes to the number
 * of racks holding the block: moves that add a rack come first, moves that keep the count are
 * made only where balance needs them, and a move that would lower it is never made. In order:
 * <ol>
 * <li>over-utilised sources shed what takes them inside half the threshold, by rack-adding moves;</li>
 * <li>under-utilised targets take what brings them inside half the threshold by rack-adding moves from
 * any source (before rack-keeping moves take their room: above-average sources often hold the blocks
 * that can add a rack);</li>
 * <li>over-utilised sources shed what they still must by rack-keeping moves;</li>
 * <li>under-utilised targets take more rack-adding moves, letting a source go down to half the
 * threshold below the average;</li>
 * <li>and what they still lack, by rack-keeping moves;</li>
 * <li>where a need remains because no block fits the rooms left, targets take a block bigger than
 * their room, as the stock dispatcher lets them (a target overshoots by less than one block).</li>
 * </ol>
 * Where that plan leaves a node outside the threshold (a few movable blocks shared by two sources, a
 * node alone on its rack whose only outlets rack-adding moves filled), the iteration is planned again
 * balance first, in three source orders, and the plan that leaves the least outside is kept: balance
 * before rack diversity, so that the run converges wherever the stock balancer does. Blocks on the most
 * racks are moved first in every plan: they have the fewest places to go.
 * Nodes are taken inside half the threshold, not to the average as the stock balancer aims: fewer
 * bytes move, and every node still ends well inside the threshold. As in the stock pairing,
 * above-average sources serve only under-utilised targets.
 * Pairing is per block rather than per node pair: a target is picked for each block among the
 * nodes on racks the block does not use, the neediest first (under-utilised, then most room).
 * Aiming at half the threshold, not at its edge, keeps the next iteration's classification
 * (made from DataNode reports that may lag) inside the band, so the run converges in one or two
 * iterations.
 */
public final class MovePlanner {
  /** Share of the threshold that balancing aims inside of. */
  public static final double BAND_FRACTION = 0.5;

  private final RackSpread racks;
  private final MoveCheck check;
  private final RackAddingAssignment assignment;
  private final BalanceFlow flow;

  public MovePlanner(int[] rackOf, MoveCheck check) {
    this.racks = new RackSpread(rackOf);
    this.check = check;
    this.assignment = new RackAddingAssignment(racks, check);
    this.flow = new BalanceFlow(racks, check);
  }

  /**
   * Plans one balancing iteration.
   *
   * @param fetched blocks fetched from each source node, keyed by the source's index
   */
  public Plan balance(Classification c, Map<Integer, List<BlockCandidate>> fetched) {
    List<PlannedMove> optimised = flow.plan(c, fetched);
    if (optimised == null) {
      return phased(c, fetched);
    }
    long optimisedOutside = bytesOutside(c, optimised);
    if (optimisedOutside == 0) {
      return optimumPlan(optimised, true);
    }
    // Mixed block sizes make the flow round; where its plan leaves more outside the threshold than the phases',
    // balance comes first, and the phases' plan is refined by the flow's single changes (it may overshoot a room).
    Plan phased = phased(c, fetched);
    if (bytesOutside(c, phased.moves()) >= optimisedOutside) {
      return optimumPlan(optimised, false);
    }
    List<PlannedMove> refined = flow.refine(c, fetched, phased.moves());
    long refinedOutside = bytesOutside(c, refined);
    return refinedOutside <= bytesOutside(c, phased.moves()) ? optimumPlan(refined, refinedOutside == 0) : phased;
  }

  /**
   * The optimiser's plan, rack-adding moves first; what it reached is the optimum it reports, and its bytes the least
   * that balance where it balances.
   */
  private static Plan optimumPlan(List<PlannedMove> moves, boolean balances) {
    List<PlannedMove> ordered = new ArrayList<>();
    Set<PlannedMove> adding = Collections.newSetFromMap(new IdentityHashMap<>());
    for (PlannedMove m : moves) {
      if (m.addsRack()) {
        ordered.add(m);
        adding.add(m);
      }
    }
    for (PlannedMove m : moves) {
      if (!m.addsRack()) {
        ordered.add(m);
      }
    }
    long bytes = 0;
    for (PlannedMove m : moves) {
      bytes += m.block().size();
    }
    return new Plan(ordered, adding, balances ? bytes : -1);
  }

  /** Bytes outside the threshold after these moves: every over-utilised node's excess plus every under-utilised one's lack. */
  static long bytesOutside(Classification c, List<PlannedMove> moves) {
    long[] net = new long[c.nodeCount()];
    for (PlannedMove m : moves) {
      net[m.source()] -= m.block().size();
      net[m.target()] += m.block().size();
    }
    long[] outside = outside(c, net);
    // Both sides counted (not the larger, as bytesBeyondThreshold): a plan that fixes one side only is no better.
    return outside[0] + outside[1];
  }

  private static long bytesBeyondThreshold(Classification c, long[] net) {
    long[] outside = outside(c, net);
    return Math.max(outside[0], outside[1]);
  }

  /** Bytes the nodes are over the threshold above the average and under it below, after the net changes. */
  private static long[] outside(Classification c, long[] net) {
    long[] outside = new long[2];
    for (int node = 0; node < net.length; node++) {
      long beyond = c.bytesOutsideAfter(node, net[node]);
      if (beyond > 0) {
        boolean above = c.utilisation(node) + net[node] * 100.0 / c.capacity(node) > c.average();
        outside[above ? 0 : 1] += beyond;
      }
    }
    return outside;
  }

  /** The phases' plan (the class comment), for candidate sets too big for the flow or where it leaves more outside. */
  private Plan phased(Classification c, Map<Integer, List<BlockCandidate>> fetched) {
    Map<Integer, List<BlockCandidate>> candidates = leastFlexibleFirst(fetched);
    Assigner best = assign(c, candidates, Order.RACK_ADDING_FIRST);
    long left = best.bytesBeyondThreshold(c);
    // Rack-adding moves first can take the only room a source with few outlets had (a node alone on its
    // rack whose blocks all have a replica on the under-utilised nodes' racks); so can a fuller source, or
    // one with a target on its own rack that any block can reach. Where the plan leaves a node outside
    // the threshold, plan in the other orders too and keep the plan that leaves least outside.
    for (Order order : Order.values()) {
      if (left == 0) {
        break;
      }
      if (order == Order.RACK_ADDING_FIRST) {
        continue;
      }
      Assigner other = assign(c, candidates, order);
      long otherLeft = other.bytesBeyondThreshold(c);
      if (otherLeft < left) {
        best = other;
        left = otherLeft;
      }
    }
    int possible = addingPossible(best, candidates).size();
    boolean[] needy = new boolean[best.targetMustAtStart.length];
    for (int t = 0; t < needy.length; t++) {
      needy[t] = best.targetMustAtStart[t] > 0;
    }
    List<PlannedMove> moves = assignment.reassign(best.moves, candidates, best.over, needy);
    return new Plan(moves, possibleAmong(moves, possible));
  }

  /**
   * The moves counted as able to add a rack: every rack-adding one, then rack-keeping ones up to {@code possible}
   * (what {@link #addingPossible} found for the plan's own pairing; the pairing chosen again may add more).
   */
  private static Set<PlannedMove> possibleAmong(List<PlannedMove> moves, int possible) {
    Set<PlannedMove> out = Collections.newSetFromMap(new IdentityHashMap<>());
    for (PlannedMove m : moves) {
      if (m.addsRack()) {
        out.add(m);
      }
    }
    for (PlannedMove m : moves) {
      if (out.size() >= possible) {
        break;
      }
      out.add(m);
    }
    return out;
  }

  /** The orders in which a plan's phases give sources and targets their moves. */
  private enum Order {
    /** The phases of the class comment: rack-adding moves before any rack-keeping one. */
    RACK_ADDING_FIRST,
    /**
     * Balance first: sources shed and targets fill by any move that keeps the rack count, each block still
     * going to a rack-adding target where one has room; the fullest sources choose first.
     */
    BALANCE_FIRST,
    /** Balance first, the least full sources choosing first. */
    LEAST_FULL_FIRST,
    /** Balance first, over-utilised sources without a target on their own rack shedding before the others. */
    OUTLETLESS_FIRST
  }

  /** One plan, its phases in the given order. */
  private Assigner assign(Classification c, Map<Integer, List<BlockCandidate>> candidates, Order order) {
    int n = c.nodeCount();
    double band = c.threshold() * BAND_FRACTION;
    Assigner a = new Assigner(n, candidates, Long.MAX_VALUE, order);
    List<Integer> over = new ArrayList<>();
    List<Integer> sources = new ArrayList<>();
    for (int node = 0; node < n; node++) {
      UtilisationClass cls = c.classOf(node);
      if (cls.isSource()) {
        a.sourceLeft[node] = c.maxBytesToMove(node);
        sources.add(node);
        if (cls == UtilisationClass.OVER_UTILISED) {
          a.sourceMust[node] = Math.min(a.sourceLeft[node], Math.max(0, c.bytesOutside(node, band)));
          over.add(node);
        }
      } else if (cls.isTarget()) {
        a.targetLeft[node] = c.maxBytesToMove(node);
        if (cls == UtilisationClass.UNDER_UTILISED) {
          a.targetMust[node] = Math.min(a.targetLeft[node], Math.max(0, -c.bytesOutside(node, band)));
        }
      }
    }
    byUtilisationDescending(over, c);
    byUtilisationDescending(sources, c);
    if (order == Order.LEAST_FULL_FIRST) {
      Collections.reverse(over);
      Collections.reverse(sources);
    }
    a.openTargets();
    if (order == Order.OUTLETLESS_FIRST) {
      a.giveAway(withoutTargetOnRack(over, a), true, false);
    }
    boolean rackAddingFirst = order == Order.RACK_ADDING_FIRST;
    if (rackAddingFirst) {
      a.giveAway(over, true, true);
      // Rack-adding moves into under-utilised targets from any source before rack-keeping moves take
      // their room: above-average sources often hold the blocks that can add a rack.
      a.fillNeedyTargets(sources, true);
    }
    a.giveAway(over, true, false);
    if (!rackAddingFirst) {
      // Over-utilised sources have shed what they must: rack-adding moves can no longer take their room.
      a.fillNeedyTargets(sources, true);
      a.fillNeedyTargets(sources, false);
    }
    // Sources may go down to half the threshold below the average for moves that add a rack:
    // the bytes under-utilised targets must take are the same, more of them can add a rack. Still no
    // source gives more than dfs.balancer.max-size-to-move in all.
    for (int s : sources) {
      long given = c.maxBytesToMove(s) - a.sourceLeft[s];
      a.sourceLeft[s] = Math.min(a.sourceLeft[s] + Classification.percentToBytes(band, c.capacity(s)),
          Math.max(0, c.maxSizeToMove() - given));
    }
    a.fillNeedyTargets(sources, true);
    a.fillNeedyTargets(sources, false);
    if (a.needsRemain(over)) {
      // What whole blocks could not do inside the rooms: as the stock dispatcher, let a target with
      // room left take a block bigger than that room (each overshoots by less than one block).
      a.allowOvershoot();
      a.giveAway(over, true, false);
      a.fillNeedyTargets(sources, false);
    }
    return a;
  }

  /**
   * Plans rack-adding moves on a balanced cluster ({@code -spreadRacks}): every node may give or
   * take as long as it stays within half the threshold of the average.
   *
   * @param byteBudget bytes this iteration may move at most
   */
  public Plan spread(Classification c, Map<Integer, List<BlockCandidate>> candidates, long byteBudget) {
    int n = c.nodeCount();
    double band = c.threshold() * BAND_FRACTION;
    Assigner a = new Assigner(n, candidates, byteBudget, Order.RACK_ADDING_FIRST);
    List<Integer> sources = new ArrayList<>();
    for (int node = 0; node < n; node++) {
      if (!c.hasUsage(node)) {
        continue;
      }
      double diff = c.utilisation(node) - c.average();
      long canGive = Math.min(c.maxSizeToMove(), Classification.percentToBytes(Math.max(0, diff + band), c.capacity(node)));
      long canTake = Math.min(c.maxSizeToMove(), Classification.percentToBytes(Math.max(0, band - diff), c.capacity(node)));
      if (c.sourceAllowed(node) && canGive > 0) {
        a.sourceLeft[node] = canGive;
        sources.add(node);
      }
      if (c.targetAllowed(node)) {
        a.targetLeft[node] = Math.min(canTake, c.remaining(node));
      }
    }
    byUtilisationDescending(sources, c);
    a.openTargets();
    a.giveAway(sources, false, true);
    return new Plan(a.moves, addingPossible(a, candidates));
  }

  /**
   * Which of the planned moves a rack-adding move could have replaced: the best share any plan could
   * reach. {@link RackAddingBound} gives the most rack-adding moves the sources' budgets and the racks'
   * rooms allow, and how many of them each source gives and each rack takes. Every planned move serves
   * a need, its source's (an over-utilised node shedding bytes) or its target's (an under-utilised node
   * taking them), and only a move serving the same need can replace it: a source's moves up to its
   * share of the bound, a target's up to its rack's. Rack-adding moves count first.
   */
  private Set<PlannedMove> addingPossible(Assigner a, Map<Integer, List<BlockCandidate>> candidates) {
    Set<PlannedMove> possible = Collections.newSetFromMap(new IdentityHashMap<>());
    if (a.moves.isEmpty()) {
      return possible;
    }
    long bytes = 0;
    long count = 0;
    for (List<BlockCandidate> blocks : candidates.values()) {
      for (BlockCandidate b : blocks) {
        bytes += b.size();
        count++;
      }
    }
    long typicalSize = count == 0 ? 1 : Math.max(1, bytes / count);
    RackAddingBound bound = new RackAddingBound();
    Set<Integer> racksWithRoom = new HashSet<>();
    for (int t = 0; t < a.targetRoomAtStart.length; t++) {
      // A plan made balance first was chosen because over-utilised sources needed that room to get inside
      // the threshold: what they moved into a target was not room a rack-adding move could have had.
      long room = a.targetRoomAtStart[t] - (a.order == Order.RACK_ADDING_FIRST ? 0 : a.fromOverInto[t]);
      long blocks = Math.max(0, room) / typicalSize;
      if (blocks > 0) {
        bound.room(racks.rackOf(t), blocks, a.targetMustAtStart[t] > 0);
        racksWithRoom.add(racks.rackOf(t));
      }
    }
    Set<BlockCandidate> seen = new HashSet<>();
    for (Map.Entry<Integer, List<BlockCandidate>> e : candidates.entrySet()) {
      int source = e.getKey();
      if (!a.mayGive[source]) {
        continue;
      }
      bound.sourceBudget(source, a.giveAtStart[source] / typicalSize);
      for (BlockCandidate b : e.getValue()) {
        if (!racks.sourceRackShared(b.holders(), source) || !seen.add(b)) {
          continue;
        }
        Set<Integer> lacking = new TreeSet<>(racksWithRoom);
        for (int h : b.holders()) {
          lacking.remove(racks.rackOf(h));
        }
        if (!lacking.isEmpty()) {
          bound.block(source, lacking.stream().mapToInt(Integer::intValue).toArray(), !a.over[source]);
        }
      }
    }
    long left = bound.max();
    Map<Integer, Long> sourceLeft = new HashMap<>();
    Map<Integer, Long> rackLeft = new HashMap<>();
    for (PlannedMove m : a.moves) {
      if (m.addsRack()) {
        possible.add(m);
        left--;
        sourceLeft.merge(m.source(), -1L, Long::sum);
        rackLeft.merge(racks.rackOf(m.target()), -1L, Long::sum);
      }
    }
    for (int i = 0; i < a.moves.size() && left > 0; i++) {
      PlannedMove m = a.moves.get(i);
      if (m.addsRack()) {
        continue;
      }
      boolean forTarget = a.servesTarget.get(i);
      Map<Integer, Long> quota = forTarget ? rackLeft : sourceLeft;
      int key = forTarget ? racks.rackOf(m.target()) : m.source();
      long q = quota.getOrDefault(key, 0L) + (forTarget ? bound.intoRack(key) : bound.fromSource(key));
      if (q > 0) {
        possible.add(m);
        left--;
        quota.merge(key, -1L, Long::sum);
      }
    }
    return possible;
  }

  /**
   * Each source's blocks, those on the most racks first: they have the fewest racks left to go to without
   * losing one, so they take the moves any block could make (into the source's own rack, say) before the
   * blocks that could still go where few others can.
   */
  private Map<Integer, List<BlockCandidate>> leastFlexibleFirst(Map<Integer, List<BlockCandidate>> fetched) {
    Map<Integer, List<BlockCandidate>> sorted = new HashMap<>();
    for (Map.Entry<Integer, List<BlockCandidate>> e : fetched.entrySet()) {
      List<BlockCandidate> blocks = new ArrayList<>(e.getValue());
      blocks.sort(Comparator.comparingInt((BlockCandidate b) -> racks.racks(b.holders())).reversed());
      sorted.put(e.getKey(), blocks);
    }
    return sorted;
  }

  /** The sources no target shares a rack with: their blocks reach only other racks. */
  private List<Integer> withoutTargetOnRack(List<Integer> sources, Assigner a) {
    Set<Integer> racksWithTarget = new HashSet<>();
    for (int t : a.targets) {
      racksWithTarget.add(racks.rackOf(t));
    }
    List<Integer> out = new ArrayList<>();
    for (int s : sources) {
      if (!racksWithTarget.contains(racks.rackOf(s))) {
        out.add(s);
      }
    }
    return out;
  }

  /** The fullest nodes choose first in every round (what {@code -sortTopNodes} asks of the stock balancer). */
  private static void byUtilisationDescending(List<Integer> nodes, Classification c) {
    nodes.sort((x, y) -> Double.compare(c.utilisation(y), c.utilisation(x)));
  }

  /** Mutable byte budgets of one planning run, and the moves decided so far. */
  private final class Assigner {
    final long[] sourceLeft;
    final long[] sourceMust;
    final long[] targetLeft;
    final long[] targetMust;
    final Map<Integer, List<BlockCandidate>> candidates;
    final int[] addingCursor;
    final int[] keepingCursor;
    final int[] fillingCursor;
    final Set<BlockCandidate> planned = new HashSet<>();
    final List<PlannedMove> moves = new ArrayList<>();
    /** Per move (by index): whether it was planned for its target's need rather than its source's. */
    final BitSet servesTarget = new BitSet();
    /** Budgets as planning started: which nodes may give, which have room. */
    boolean[] mayGive;
    boolean[] over;
    long[] targetMustAtStart;
    long[] giveAtStart;
    long[] targetRoomAtStart;
    final TreeSet<Integer> targets;
    long budget;
    /** Whether a target with room left may take a block bigger than that room. */
    boolean overshoot;
    /** Bytes each node takes (positive) or gives (negative) by the moves so far. */
    final long[] net;
    /** Bytes each target takes from over-utilised sources. */
    final long[] fromOverInto;
    final Order order;

    Assigner(int n, Map<Integer, List<BlockCandidate>> candidates, long budget, Order order) {
      this.order = order;
      fromOverInto = new long[n];
      sourceLeft = new long[n];
      sourceMust = new long[n];
      targetLeft = new long[n];
      targetMust = new long[n];
      addingCursor = new int[n];
      keepingCursor = new int[n];
      fillingCursor = new int[n];
      net = new long[n];
      this.candidates = candidates;
      this.budget = budget;
      // Neediest first: targets that must take bytes, then by room left; index breaks ties.
      targets = new TreeSet<>((x, y) -> {
        int byNeed = Boolean.compare(targetMust[y] > 0, targetMust[x] > 0);
        if (byNeed != 0) {
          return byNeed;
        }
        int byRoom = Long.compare(targetLeft[y], targetLeft[x]);
        return byRoom != 0 ? byRoom : Integer.compare(x, y);
      });
    }

    void openTargets() {
      mayGive = new boolean[sourceLeft.length];
      for (int s = 0; s < sourceLeft.length; s++) {
        mayGive[s] = sourceLeft[s] > 0;
      }
      giveAtStart = sourceLeft.clone();
      targetMustAtStart = targetMust.clone();
      over = new boolean[sourceLeft.length];
      for (int s = 0; s < sourceLeft.length; s++) {
        over[s] = sourceMust[s] > 0;
      }
      targetRoomAtStart = targetLeft.clone();
      for (int t = 0; t < targetLeft.length; t++) {
        if (targetLeft[t] > 0) {
          targets.add(t);
        }
      }
    }

    /**
     * Round-robin over the sources, one move per source per round, so that no source takes
     * all the room of the best targets.
     *
     * @param untilMust stop a source once it shed what it must (else: what it may)
     * @param addingOnly rack-adding moves only (else rack-keeping ones too)
     */
    void giveAway(List<Integer> sources, boolean untilMust, boolean addingOnly) {
      List<Integer> active = new LinkedList<>(sources);
      int[] cursor = addingOnly ? addingCursor : keepingCursor;
      while (!active.isEmpty() && budget > 0) {
        for (Iterator<Integer> i = active.iterator(); i.hasNext();) {
          int s = i.next();
          long limit = untilMust ? sourceMust[s] : sourceLeft[s];
          if (limit <= 0 || !moveOne(s, cursor, addingOnly, false, false)) {
            i.remove();
          }
        }
      }
    }

    /** Moves from any source into under-utilised targets that are still short of the band. */
    void fillNeedyTargets(List<Integer> sources, boolean addingOnly) {
      List<Integer> active = new LinkedList<>(sources);
      int[] cursor = addingOnly ? addingCursor : fillingCursor;
      while (!active.isEmpty() && hasNeedyTarget()) {
        for (Iterator<Integer> i = active.iterator(); i.hasNext();) {
          int s = i.next();
          if (sourceLeft[s] <= 0 || !moveOne(s, cursor, addingOnly, true, true)) {
            i.remove();
          }
        }
      }
    }

    /** Whether an over-utilised source must still shed bytes, or an under-utilised target take some. */
    boolean needsRemain(List<Integer> over) {
      for (int s : over) {
        if (sourceMust[s] > 0) {
          return true;
        }
      }
      return hasNeedyTarget();
    }

    /**
     * Lets targets take blocks bigger than their room from here on. The rack-keeping cursors start
     * over: blocks they passed for want of room may fit now.
     */
    void allowOvershoot() {
      overshoot = true;
      Arrays.fill(keepingCursor, 0);
      Arrays.fill(fillingCursor, 0);
    }

    /**
     * What would still have to move after these moves for every node to be within the threshold, counted
     * as {@link Classification#bytesLeftToMove()} counts it.
     */
    long bytesBeyondThreshold(Classification c) {
      return MovePlanner.bytesBeyondThreshold(c, net);
    }

    private boolean hasNeedyTarget() {
      return !targets.isEmpty() && targetMust[targets.first()] > 0;
    }

    /**
     * Plans the source's next acceptable block; false when none is left for now. The cursor passes
     * only blocks this kind of move is done with (planned, unable to add a rack, or without a
     * target: rooms only shrink); a block too big for what the source or the budget has left now
     * stays, since the source may be allowed more later (the half-threshold extension).
     */
    private boolean moveOne(int s, int[] cursor, boolean addingOnly, boolean needyOnly, boolean forTarget) {
      List<BlockCandidate> blocks = candidates.getOrDefault(s, Collections.emptyList());
      boolean passed = true;
      for (int i = cursor[s]; i < blocks.size(); i++) {
        BlockCandidate b = blocks.get(i);
        boolean done;
        if (planned.contains(b) || (addingOnly && !racks.sourceRackShared(b.holders(), s))) {
          done = true;
        } else if (b.size() > sourceLeft[s] || b.size() > budget) {
          done = false;
        } else {
          int t = chooseTarget(b, s, addingOnly, needyOnly);
          if (t >= 0) {
            servesTarget.set(moves.size(), forTarget);
            assign(b, s, t);
            if (passed) {
              cursor[s] = i + 1;
            }
            return true;
          }
          done = true;
        }
        passed &= done;
        if (passed) {
          cursor[s] = i + 1;
        }
      }
      return false;
    }

    private int chooseTarget(BlockCandidate b, int s, boolean addingOnly, boolean needyOnly) {
      long size = b.size();
      int bestKeeping = -1;
      for (int t : targets) {
        boolean needy = targetMust[t] > 0;
        if (needyOnly && !needy) {
          break;
        }
        if (targetLeft[t] < size && !overshoot) {
          if (needy) {
            continue;
          }
          break; // room only shrinks from here on
        }
        if (t == s || b.isHeldBy(t)) {
          continue;
        }
        int delta = racks.delta(b.holders(), s, t);
        if (delta < 0 || (addingOnly && delta == 0) || !check.isMovable(b, s, t)) {
          continue;
        }
        if (delta > 0) {
          return t;
        }
        if (bestKeeping < 0) {
          bestKeeping = t;
          if (!racks.sourceRackShared(b.holders(), s)) {
            return t; // no target can add a rack for this replica
          }
        }
      }
      return bestKeeping;
    }

    private void assign(BlockCandidate b, int s, int t) {
      long size = b.size();
      moves.add(new PlannedMove(b, s, t, racks.delta(b.holders(), s, t)));
      planned.add(b);
      budget -= size;
      net[s] -= size;
      net[t] += size;
      if (over[s]) {
        fromOverInto[t] += size;
      }
      sourceLeft[s] -= size;
      sourceMust[s] = Math.max(0, sourceMust[s] - size);
      targets.remove(t);
      targetLeft[t] -= size;
      targetMust[t] = Math.max(0, targetMust[t] - size);
      if (targetLeft[t] > 0) {
        targets.add(t);
      }
    }
  }
}
