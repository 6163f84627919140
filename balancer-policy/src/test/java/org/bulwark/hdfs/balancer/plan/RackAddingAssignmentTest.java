package org.bulwark.hdfs.balancer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The pairing against an exhaustive search on thousands of seeded small cases: 5-8 nodes on 2-4 racks, 2-7
 * planned moves, up to 4 blocks fetched per source (some through two sources), blocks of one or two sizes. The
 * search tries every choice of blocks and targets that keeps each node's count of blocks given and taken per
 * size, moves each block once, never lowers a rack count and keeps the stock pairing rule; it knows nothing of
 * flows. Where no block is fetched through two sources the pairing must reach the search's optimum; over all cases,
 * 0.99 of it (3,079 of 3,096 rack-adding moves when written).
 */
class RackAddingAssignmentTest {
  private static final int CASES = 4000;

  /** One small case: the plan's moves, what each source fetched, and who may give to whom. */
  record Case(int[] rackOf, List<PlannedMove> moves, Map<Integer, List<BlockCandidate>> candidates,
      boolean[] anyTarget, boolean[] needy, boolean shared) {
  }

  static Case generate(long seed) {
    Random random = new Random(seed);
    int nodes = 5 + random.nextInt(4);
    int racks = 2 + random.nextInt(3);
    int[] rackOf = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      rackOf[n] = n < racks ? n : random.nextInt(racks);
    }
    RackSpread spread = new RackSpread(rackOf);
    int sourceCount = 1 + random.nextInt(3);
    List<Integer> order = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      order.add(n);
    }
    java.util.Collections.shuffle(order, random);
    List<Integer> sources = order.subList(0, sourceCount);
    List<Integer> targets = order.subList(sourceCount, Math.min(nodes, sourceCount + 1 + random.nextInt(3)));
    boolean[] anyTarget = new boolean[nodes];
    boolean[] needy = new boolean[nodes];
    for (int s : sources) {
      anyTarget[s] = random.nextInt(3) > 0;
    }
    for (int t : targets) {
      needy[t] = random.nextBoolean();
    }
    boolean twoSizes = random.nextInt(4) == 0;
    Map<Integer, List<BlockCandidate>> candidates = new TreeMap<>();
    List<BlockCandidate> all = new ArrayList<>();
    long id = 0;
    for (int s : sources) {
      int count = 1 + random.nextInt(4);
      for (int i = 0; i < count; i++) {
        int rf = 2 + random.nextInt(2);
        Set<Integer> holders = new HashSet<>();
        holders.add(s);
        while (holders.size() < Math.min(rf, nodes)) {
          holders.add(random.nextInt(nodes));
        }
        BlockCandidate b = new BlockCandidate(0, id++, twoSizes && random.nextBoolean() ? 2 : 1,
            holders.stream().mapToInt(Integer::intValue).toArray());
        all.add(b);
        candidates.computeIfAbsent(s, k -> new ArrayList<>()).add(b);
      }
    }
    boolean shared = false;
    for (BlockCandidate b : all) { // a block also fetched through another source that holds it
      for (int h : b.holders()) {
        if (sources.contains(h) && !candidates.get(h).contains(b) && random.nextBoolean()) {
          candidates.get(h).add(b);
          shared = true;
        }
      }
    }
    // The plan: a greedy pairing of random valid moves, as the planner's phases might leave it.
    List<PlannedMove> moves = new ArrayList<>();
    Set<BlockCandidate> used = new HashSet<>();
    int wanted = 2 + random.nextInt(6);
    for (int attempt = 0; attempt < 50 && moves.size() < wanted; attempt++) {
      int s = sources.get(random.nextInt(sources.size()));
      List<BlockCandidate> own = candidates.get(s);
      BlockCandidate b = own.get(random.nextInt(own.size()));
      int t = targets.get(random.nextInt(targets.size()));
      if (used.contains(b) || t == s || b.isHeldBy(t) || !(anyTarget[s] || needy[t])
          || spread.delta(b.holders(), s, t) < 0) {
        continue;
      }
      used.add(b);
      moves.add(new PlannedMove(b, s, t, spread.delta(b.holders(), s, t)));
    }
    return new Case(rackOf, moves, candidates, anyTarget, needy, shared);
  }

  /** The most rack-adding moves any valid pairing of the case's counts makes, by trying them all. */
  static int exhaustive(Case c) {
    RackSpread spread = new RackSpread(c.rackOf());
    List<int[]> slots = new ArrayList<>(); // source, size
    Map<String, Integer> takes = new HashMap<>();
    for (PlannedMove m : c.moves()) {
      slots.add(new int[] {m.source(), (int) m.block().size()});
      takes.merge(m.target() + ":" + m.block().size(), 1, Integer::sum);
    }
    slots.sort((x, y) -> x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]));
    return search(c, spread, slots, 0, new HashSet<>(), takes, -1, 0);
  }

  private static int search(Case c, RackSpread spread, List<int[]> slots, int slot, Set<BlockCandidate> used,
      Map<String, Integer> takes, long lastId, int adding) {
    if (slot == slots.size()) {
      return adding;
    }
    int s = slots.get(slot)[0];
    int size = slots.get(slot)[1];
    // Slots of one source and size are interchangeable: their blocks are taken in increasing id order.
    boolean sameAsPrevious = slot > 0 && slots.get(slot - 1)[0] == s && slots.get(slot - 1)[1] == size;
    int best = -1;
    for (BlockCandidate b : c.candidates().get(s)) {
      if (b.size() != size || used.contains(b) || (sameAsPrevious && b.blockId() <= lastId)) {
        continue;
      }
      for (Map.Entry<String, Integer> e : takes.entrySet()) {
        String[] key = e.getKey().split(":");
        int t = Integer.parseInt(key[0]);
        if (e.getValue() == 0 || Long.parseLong(key[1]) != size || t == s || b.isHeldBy(t)
            || !(c.anyTarget()[s] || c.needy()[t])) {
          continue;
        }
        int delta = spread.delta(b.holders(), s, t);
        if (delta < 0) {
          continue;
        }
        used.add(b);
        e.setValue(e.getValue() - 1);
        best = Math.max(best, search(c, spread, slots, slot + 1, used, takes, b.blockId(), adding + delta));
        e.setValue(e.getValue() + 1);
        used.remove(b);
      }
    }
    return best;
  }

  private static Map<String, Integer> counts(List<PlannedMove> moves, boolean bySource) {
    Map<String, Integer> out = new TreeMap<>();
    for (PlannedMove m : moves) {
      out.merge((bySource ? m.source() : m.target()) + ":" + m.block().size(), 1, Integer::sum);
    }
    return out;
  }

  @Test
  void pairsAsManyRackAddingMovesAsAnExhaustiveSearchKeepingEveryNodesCounts() {
    int cases = 0;
    int improved = 0;
    int sharedCases = 0;
    long optimum = 0;
    long reached = 0;
    List<String> wrong = new ArrayList<>();
    for (long seed = 1; seed <= CASES; seed++) {
      Case c = generate(seed);
      if (c.moves().isEmpty()) {
        continue;
      }
      cases++;
      RackSpread spread = new RackSpread(c.rackOf());
      List<PlannedMove> paired = new RackAddingAssignment(spread, MoveCheck.RACKS_ONLY)
          .reassign(c.moves(), c.candidates(), c.anyTarget(), c.needy());
      assertEquals(counts(c.moves(), true), counts(paired, true), "seed " + seed + ": what each source gives");
      assertEquals(counts(c.moves(), false), counts(paired, false), "seed " + seed + ": what each target takes");
      Set<BlockCandidate> blocks = new HashSet<>();
      int adding = 0;
      for (PlannedMove m : paired) {
        assertTrue(blocks.add(m.block()), "seed " + seed + ": a block moved twice");
        assertTrue(c.candidates().get(m.source()).contains(m.block()), "seed " + seed + ": not fetched from " + m);
        assertTrue(!m.block().isHeldBy(m.target()) && (c.anyTarget()[m.source()] || c.needy()[m.target()]),
            "seed " + seed + ": " + m);
        int delta = spread.delta(m.block().holders(), m.source(), m.target());
        assertTrue(delta >= 0, "seed " + seed + ": lowers a rack count: " + m);
        assertEquals(delta, m.rackDelta(), "seed " + seed + ": " + m);
        adding += delta;
      }
      int before = 0;
      for (PlannedMove m : c.moves()) {
        before += m.rackDelta();
      }
      int best = exhaustive(c);
      assertTrue(adding >= before, "seed " + seed + ": fewer rack-adding moves than the plan's own pairing");
      assertTrue(adding <= best, "seed " + seed + ": more than the exhaustive search found");
      improved += adding > before ? 1 : 0;
      sharedCases += c.shared() ? 1 : 0;
      optimum += best;
      reached += adding;
      if (adding < best && !c.shared()) {
        wrong.add("seed " + seed + ": " + adding + " of the best " + best + " moves add a rack, " + c.moves());
      }
    }
    System.out.printf("%d cases (%d with blocks fetched through two sources), %d paired better than the plan;"
        + " %d of the exhaustive search's %d rack-adding moves%n", cases, sharedCases, improved, reached, optimum);
    assertTrue(cases > CASES / 2 && improved > cases / 20, cases + " cases, " + improved + " improved");
    // Blocks fetched through two sources are offered by one (see the class): short of the optimum on a few.
    assertTrue(reached >= 0.99 * optimum, reached + " of the exhaustive search's " + optimum);
    assertEquals(List.of(), wrong.subList(0, Math.min(5, wrong.size())), wrong.size() + " cases short of the optimum");
  }
}
