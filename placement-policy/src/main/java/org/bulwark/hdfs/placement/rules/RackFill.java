package org.bulwark.hdfs.placement.rules;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How full each rack is, at one moment: bytes used and capacity summed over the rack's live DataNodes.
 * Immutable; a policy swaps in a fresh one every refresh interval rather than summing DataNodes on
 * every block.
 */
public final class RackFill {
  private final List<String> racks;
  private final Map<String, Double> utilisation;

  private RackFill(List<String> racks, Map<String, Double> utilisation) {
    this.racks = Collections.unmodifiableList(racks);
    this.utilisation = utilisation;
  }

  /** Collects per-rack sums; add every DataNode, then {@link #build()}. */
  public static final class Builder {
    private final Map<String, long[]> sums = new HashMap<>();

    public Builder add(String rack, long used, long capacity) {
      long[] s = sums.computeIfAbsent(rack, r -> new long[2]);
      s[0] += used;
      s[1] += capacity;
      return this;
    }

    public RackFill build() {
      List<String> racks = new ArrayList<>(sums.keySet());
      Collections.sort(racks);
      Map<String, Double> util = new HashMap<>();
      for (String rack : racks) {
        long[] s = sums.get(rack);
        // A rack reporting no capacity yet (just registered) counts as full: it is not chosen for
        // fill until its DataNodes have reported.
        util.put(rack, s[1] <= 0 ? 1.0 : (double) s[0] / s[1]);
      }
      return new RackFill(racks, util);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every rack with at least one DataNode, sorted by name. */
  public List<String> racks() {
    return racks;
  }

  /** Used over capacity, 0..1; racks unknown to this snapshot count as full. */
  public double utilisation(String rack) {
    Double u = utilisation.get(rack);
    return u == null ? 1.0 : u;
  }
}
