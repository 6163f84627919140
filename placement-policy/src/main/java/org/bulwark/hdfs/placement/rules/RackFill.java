package org.bulwark.hdfs.placement.rules;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How full each rack and datacenter is: bytes used and capacity summed over live DataNodes at one
 * moment, plus the bytes placed on it since ({@link #recordPlacement}). A policy swaps in a fresh one
 * every refresh interval rather than summing DataNodes on every block; counting its own placements
 * in between keeps a burst of writes from all landing on the rack that was emptiest at the snapshot.
 */
public final class RackFill {
  private final List<String> racks;
  private final Map<String, Usage> rackUsage;
  private final List<String> datacenters;
  private final Map<String, Usage> datacenterUsage;
  private final Map<String, List<String>> racksByDatacenter;

  /** Used bytes (reported plus placed since) over capacity. */
  private static final class Usage {
    final long reported;
    final long capacity;
    final AtomicLong placed = new AtomicLong();

    Usage(long reported, long capacity) {
      this.reported = reported;
      this.capacity = capacity;
    }

    double utilisation() {
      // Nothing reported yet (just registered) counts as full: not preferred until its nodes report.
      return capacity <= 0 ? 1.0 : (double) (reported + placed.get()) / capacity;
    }
  }

  private RackFill(List<String> racks, Map<String, Usage> rackUsage, Map<String, Usage> datacenterUsage,
      Map<String, List<String>> racksByDatacenter) {
    this.racks = Collections.unmodifiableList(racks);
    this.rackUsage = rackUsage;
    List<String> dcs = new ArrayList<>(datacenterUsage.keySet());
    Collections.sort(dcs);
    this.datacenters = Collections.unmodifiableList(dcs);
    this.datacenterUsage = datacenterUsage;
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
      Map<String, Usage> byRack = new HashMap<>();
      Map<String, long[]> dcSums = new HashMap<>();
      Map<String, List<String>> byDc = new HashMap<>();
      for (String rack : racks) {
        long[] s = sums.get(rack);
        byRack.put(rack, new Usage(s[0], s[1]));
        String dc = datacenterOf(rack);
        long[] d = dcSums.computeIfAbsent(dc, k -> new long[2]);
        d[0] += s[0];
        d[1] += s[1];
        byDc.computeIfAbsent(dc, k -> new ArrayList<>()).add(rack);
      }
      Map<String, Usage> byDcUsage = new HashMap<>();
      dcSums.forEach((dc, d) -> byDcUsage.put(dc, new Usage(d[0], d[1])));
      return new RackFill(racks, byRack, byDcUsage, byDc);
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

  /** Used over capacity, 0..1 (more when over-placed); racks unknown to this snapshot count as full. */
  public double utilisation(String rack) {
    Usage u = rackUsage.get(rack);
    return u == null ? 1.0 : u.utilisation();
  }

  /** Used over capacity of a whole datacenter; unknown datacenters count as full. */
  public double datacenterUtilisation(String datacenter) {
    Usage u = datacenterUsage.get(datacenter);
    return u == null ? 1.0 : u.utilisation();
  }

  /** Counts {@code bytes} just placed on {@code rack} (thread-safe). */
  public void recordPlacement(String rack, long bytes) {
    Usage r = rackUsage.get(rack);
    if (r != null) {
      r.placed.addAndGet(bytes);
      datacenterUsage.get(datacenterOf(rack)).placed.addAndGet(bytes);
    }
  }
}
