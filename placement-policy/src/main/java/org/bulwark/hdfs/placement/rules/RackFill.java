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
  private final List<String> datacenters;
  private final Map<String, Double> datacenterUtilisation;
  private final Map<String, List<String>> racksByDatacenter;

  private RackFill(List<String> racks, Map<String, Double> utilisation, Map<String, long[]> dcSums,
      Map<String, List<String>> racksByDatacenter) {
    this.racks = Collections.unmodifiableList(racks);
    this.utilisation = utilisation;
    List<String> dcs = new ArrayList<>(dcSums.keySet());
    Collections.sort(dcs);
    this.datacenters = Collections.unmodifiableList(dcs);
    this.datacenterUtilisation = new HashMap<>();
    dcSums.forEach((dc, s) -> datacenterUtilisation.put(dc, ratio(s)));
    this.racksByDatacenter = racksByDatacenter;
  }

  /**
   * The datacenter of a rack: the first component of its path when it has two or more
   * ({@code /dc1/rack2} is in {@code /dc1}); otherwise "/", the whole cluster being one datacenter.
   */
  public static String datacenterOf(String rack) {
    int second = rack.indexOf('/', 1);
    return second < 0 ? "/" : rack.substring(0, second);
  }

  private static double ratio(long[] s) {
    // Nothing reported yet (just registered) counts as full: not preferred until its nodes report.
    return s[1] <= 0 ? 1.0 : (double) s[0] / s[1];
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
      Map<String, long[]> dcSums = new HashMap<>();
      Map<String, List<String>> byDc = new HashMap<>();
      for (String rack : racks) {
        long[] s = sums.get(rack);
        util.put(rack, ratio(s));
        String dc = datacenterOf(rack);
        long[] d = dcSums.computeIfAbsent(dc, k -> new long[2]);
        d[0] += s[0];
        d[1] += s[1];
        byDc.computeIfAbsent(dc, k -> new ArrayList<>()).add(rack);
      }
      return new RackFill(racks, util, dcSums, byDc);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every rack with at least one DataNode, sorted by name. */
  public List<String> racks() {
    return racks;
  }

  /** Every datacenter with at least one rack, sorted by name. */
  public List<String> datacenters() {
    return datacenters;
  }

  /** The racks of {@code datacenter}, sorted by name (empty for an unknown one). */
  public List<String> racksIn(String datacenter) {
    List<String> r = racksByDatacenter.get(datacenter);
    return r == null ? Collections.<String>emptyList() : r;
  }

  /** Used over capacity of a whole datacenter, 0..1; unknown datacenters count as full. */
  public double datacenterUtilisation(String datacenter) {
    Double u = datacenterUtilisation.get(datacenter);
    return u == null ? 1.0 : u;
  }

  /** Used over capacity, 0..1; racks unknown to this snapshot count as full. */
  public double utilisation(String rack) {
    Double u = utilisation.get(rack);
    return u == null ? 1.0 : u;
  }
}
