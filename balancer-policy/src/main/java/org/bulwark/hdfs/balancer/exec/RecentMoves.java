package org.bulwark.hdfs.balancer.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bulwark.hdfs.balancer.plan.BlockCandidate;

/**
 * The blocks the planner must leave alone this iteration, kept across iterations because each
 * iteration has a dispatcher of its own: blocks whose move was handed over within
 * {@code dfs.balancer.movedWinWidth} (as the stock balancer's moved-block window, failed moves
 * included: their source replica may still be on its way out), and blocks whose move was given up
 * in the iteration just before (a node stayed busy or delayed; the next plan chooses others).
 */
final class RecentMoves {
  private final long windowMillis;
  private final Map<BlockCandidate, Long> handedOver = new HashMap<>();
  private Set<BlockCandidate> givenUpLastIteration = new HashSet<>();

  RecentMoves(long windowMillis) {
    this.windowMillis = windowMillis;
  }

  /** Starts an iteration at {@code now}: forgets moves older than the window and the last iteration's give-ups. */
  void startIteration(long now, List<BlockCandidate> givenUpBefore) {
    handedOver.values().removeIf(at -> now - at >= windowMillis);
    givenUpLastIteration = new HashSet<>(givenUpBefore);
  }

  void handedOver(BlockCandidate block, long now) {
    handedOver.put(block, now);
  }

  boolean excludes(BlockCandidate block) {
    return handedOver.containsKey(block) || givenUpLastIteration.contains(block);
  }

  /** {@code candidates} without the excluded blocks; how many were left out. */
  int filter(Map<Integer, List<BlockCandidate>> candidates) {
    int removed = 0;
    for (Iterator<Map.Entry<Integer, List<BlockCandidate>>> i = candidates.entrySet().iterator(); i.hasNext();) {
      Map.Entry<Integer, List<BlockCandidate>> e = i.next();
      List<BlockCandidate> kept = new ArrayList<>(e.getValue().size());
      for (BlockCandidate b : e.getValue()) {
        if (excludes(b)) {
          removed++;
        } else {
          kept.add(b);
        }
      }
      e.setValue(kept);
    }
    return removed;
  }
}
