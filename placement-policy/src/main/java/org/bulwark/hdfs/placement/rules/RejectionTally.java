package org.bulwark.hdfs.placement.rules;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The reasons the nodes of one write's wanted racks were turned down, each node counted once (a node
 * turned down for space and then met again as excluded is a space problem, not an exclusion). When the
 * write falls short of its rules, the most frequent reason is the cause reported. Its sets are made
 * only once a node is turned down, so a healthy write pays for one small object.
 *
 * @param <N> the node type
 */
public final class RejectionTally<N> {
  private Set<N> counted;
  private Map<FallbackCause, Integer> counts;

  /** Counts {@code node} as turned down for {@code cause}, unless it was counted already. */
  public void reject(N node, FallbackCause cause) {
    if (counted == null) {
      counted = new HashSet<>();
      counts = new EnumMap<>(FallbackCause.class);
    }
    if (counted.add(node)) {
      counts.merge(cause, 1, Integer::sum);
    }
  }

  /** Whether {@code node} was counted already (a retry of the same node adds nothing). */
  public boolean counted(N node) {
    return counted != null && counted.contains(node);
  }

  /**
   * The reason most nodes were turned down for (ties go to the cause declared first); with none
   * counted, the racks themselves ran out: {@link FallbackCause#NO_RACK_LEFT}.
   */
  public FallbackCause dominant() {
    FallbackCause best = FallbackCause.NO_RACK_LEFT;
    int most = 0;
    if (counts == null) {
      return best;
    }
    for (Map.Entry<FallbackCause, Integer> e : counts.entrySet()) {
      if (e.getValue() > most) {
        most = e.getValue();
        best = e.getKey();
      }
    }
    return best;
  }
}
