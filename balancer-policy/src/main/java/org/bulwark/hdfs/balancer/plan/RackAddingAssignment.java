package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which block each of a plan's moves carries, and to which of the plan's targets, so that the most moves add a
 * rack, keeping what every node gives and takes.
 *
 * <p>The planner's phases decide how many bytes each node gives and takes (that is what balance needs); a greedy
 * pairing of blocks to targets then loses rack-adding moves wherever a block that could have gone to two racks took
 * the room of the only block able to add one of them. Keeping, block size by block size, how many blocks each source
 * gives and each target takes, the pairing is an assignment problem, solved here exactly as a minimum-cost flow:
 * source (the plan's count) → one of its fetched blocks (one move each) → a target that may take it (cost -1 where
 * the move adds a rack) → target (the plan's count). Each node's bytes in and out, the byte budget and
 * {@code dfs.balancer.max-size-to-move} stay as the plan made them; the rack-adding count can only rise. The stock
 * pairing rule holds as in the plan: a source that is only above average gives to under-utilised targets only.
 *
 * <p>A flow moves each block once only if one source offers it, so a block fetched through two sources is offered
 * once, in two tries: by a source from whose rack a move could add a rack, and by the source that planned it; the
 * better pairing is kept. On very large candidate sets ({@link #MAX_WORK}) the plan's own pairing is kept.
 */
final class RackAddingAssignment {
  /** Flow edges times units beyond which the plan's own pairing is kept (each unit is one Dijkstra pass). */
  static final long MAX_WORK = 40_000_000L;

  private final RackSpread racks;
  private final MoveCheck check;

  RackAddingAssignment(RackSpread racks, MoveCheck check) {
    this.racks = racks;
    this.check = check;
  }

  /**
   * The plan's moves paired again for the most rack-adding moves, rack-adding ones first.
   *
   * @param anyTarget per source: whether it may give to any target (over-utilised), else to needy targets only
   * @param needy per target: whether it had to take bytes (under-utilised and outside the band)
   */
  List<PlannedMove> reassign(List<PlannedMove> moves, Map<Integer, List<BlockCandidate>> candidates,
      boolean[] anyTarget, boolean[] needy) {
    Map<Long, List<PlannedMove>> bySize = new TreeMap<>();
    for (PlannedMove m : moves) {
      bySize.computeIfAbsent(m.block().size(), k -> new ArrayList<>()).add(m);
    }
    List<PlannedMove> adding = new ArrayList<>();
    List<PlannedMove> keeping = new ArrayList<>();
    for (Map.Entry<Long, List<PlannedMove>> e : bySize.entrySet()) {
      for (PlannedMove m : reassignSize(e.getKey(), e.getValue(), candidates, anyTarget, needy)) {
        (m.addsRack() ? adding : keeping).add(m);
      }
    }
    adding.addAll(keeping);
    return adding;
  }

  /**
   * One block size's moves paired again: the better of two offers of the blocks several sources fetched (each
   * block is offered by one source, so that the flow moves it once).
   */
  private List<PlannedMove> reassignSize(long size, List<PlannedMove> moves,
      Map<Integer, List<BlockCandidate>> candidates, boolean[] anyTarget, boolean[] needy) {
    List<PlannedMove> best = moves;
    int bestAdding = adding(moves);
    for (boolean byAddingSource : new boolean[] {true, false}) {
      List<PlannedMove> paired = pair(size, moves, candidates, anyTarget, needy, byAddingSource);
      int a = paired == null ? -1 : adding(paired);
      if (a > bestAdding) {
        best = paired;
        bestAdding = a;
      }
    }
    return best;
  }

  private static int adding(List<PlannedMove> moves) {
    int adding = 0;
    for (PlannedMove m : moves) {
      adding += m.addsRack() ? 1 : 0;
    }
    return adding;
  }

  /**
   * The most rack-adding pairing of the plan's counts, or null where the flow is too big or finds none. A block
   * several sources fetched is offered by the first source (by index) whose rack holds another of its replicas
   * (only such a move can add a rack) when {@code byAddingSource}, else by the source that planned it.
   */
  private List<PlannedMove> pair(long size, List<PlannedMove> moves, Map<Integer, List<BlockCandidate>> candidates,
      boolean[] anyTarget, boolean[] needy, boolean byAddingSource) {
    Map<Integer, Integer> gives = new TreeMap<>();
    Map<Integer, Integer> takes = new TreeMap<>();
    Map<BlockCandidate, Integer> offeredBy = new LinkedHashMap<>();
    for (PlannedMove m : moves) {
      gives.merge(m.source(), 1, Integer::sum);
      takes.merge(m.target(), 1, Integer::sum);
      if (!byAddingSource) {
        offeredBy.put(m.block(), m.source());
      }
    }
    for (int s : gives.keySet()) {
      for (BlockCandidate b : candidates.getOrDefault(s, new ArrayList<>())) {
        if (b.size() != size) {
          continue;
        }
        Integer offering = offeredBy.get(b);
        if (offering == null || (byAddingSource && !racks.sourceRackShared(b.holders(), offering)
            && racks.sourceRackShared(b.holders(), s))) {
          offeredBy.put(b, s);
        }
      }
    }
    for (PlannedMove m : moves) {
      offeredBy.putIfAbsent(m.block(), m.source());
    }
    // Nodes: 0 = S, 1 = T, then sources, targets, one per offered block.
    Map<Integer, Integer> sourceNode = new HashMap<>();
    Map<Integer, Integer> targetNode = new HashMap<>();
    int next = 2;
    for (int s : gives.keySet()) {
      sourceNode.put(s, next++);
    }
    for (int t : takes.keySet()) {
      targetNode.put(t, next++);
    }
    int firstBlock = next;
    MinCostFlow flow = new MinCostFlow(firstBlock + offeredBy.size());
    gives.forEach((s, count) -> flow.add(0, sourceNode.get(s), count, 0));
    takes.forEach((t, count) -> flow.add(targetNode.get(t), 1, count, 0));
    List<int[]> pairs = new ArrayList<>(); // edge, source, target, block index
    List<BlockCandidate> blocks = new ArrayList<>(offeredBy.keySet());
    for (int i = 0; i < blocks.size(); i++) {
      BlockCandidate b = blocks.get(i);
      int s = offeredBy.get(b);
      int blockNode = firstBlock + i;
      flow.add(sourceNode.get(s), blockNode, 1, 0);
      for (int t : takes.keySet()) {
        if (t == s || b.isHeldBy(t) || !(anyTarget[s] || needy[t])) {
          continue;
        }
        int delta = racks.delta(b.holders(), s, t);
        if (delta < 0 || !check.isMovable(b, s, t)) {
          continue;
        }
        pairs.add(new int[] {flow.add(blockNode, targetNode.get(t), 1, delta > 0 ? -1 : 0), s, t, i});
      }
      if ((long) pairs.size() * moves.size() > MAX_WORK) {
        return null;
      }
    }
    if (flow.solve(0, 1, moves.size()) < moves.size()) {
      return null; // offered by other sources than the plan's, its blocks may not cover every count
    }
    List<PlannedMove> out = new ArrayList<>();
    for (int[] p : pairs) {
      if (flow.flowOn(p[0]) > 0) {
        BlockCandidate b = blocks.get(p[3]);
        out.add(new PlannedMove(b, p[1], p[2], racks.delta(b.holders(), p[1], p[2])));
      }
    }
    return out;
  }
}
