package org.bulwark.hdfs.monitor.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sums files into their ancestor directories down to a given depth, so an administrator sees per
 * directory what each erasure-coding policy would save or cost, and which policy to use there. Fed with
 * (path, length, raw bytes today) for every file while a poll scans, and with the live topology; only the
 * per-directory sums are kept, so its size follows the directories shown, not the files. Plain data in,
 * plain data out.
 */
public final class StorageCostAdvisor {
  /** Lost units a policy must survive to be advised in place of three replicas. */
  static final int MIN_PARITY_ADVISED = 2;

  private final int maxDepth;
  private final List<ErasureCodingLayout> policies;
  private final Map<String, DirectoryCost> directories = new TreeMap<>();
  private int liveDataNodes = -1;
  private int racks = -1;

  public StorageCostAdvisor(int maxDepth, List<ErasureCodingLayout> policies) {
    if (maxDepth < 0) {
      throw new IllegalArgumentException("depth " + maxDepth + " is negative");
    }
    this.maxDepth = maxDepth;
    this.policies = policies;
  }

  public void addFile(String path, long length, long rawToday) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path '" + path + "' is not absolute");
    }
    String[] parts = path.substring(1).split("/");
    StringBuilder dir = new StringBuilder();
    cost("/").add(length, rawToday, policies);
    // Every ancestor directory, not the file itself, down to maxDepth.
    for (int i = 0; i < parts.length - 1 && i < maxDepth; i++) {
      dir.append('/').append(parts[i]);
      cost(dir.toString()).add(length, rawToday, policies);
    }
  }

  private DirectoryCost cost(String dir) {
    return directories.computeIfAbsent(dir, d -> new DirectoryCost(d, policies));
  }

  /** Directories by path. */
  public List<DirectoryCost> byPath() {
    return new ArrayList<>(directories.values());
  }

  /** Directories by the bytes the best policy would save there, most first. */
  public List<DirectoryCost> byBestSaving() {
    List<DirectoryCost> out = byPath();
    out.sort(Comparator.comparingLong(this::bestSaving).reversed());
    return out;
  }

  private long bestSaving(DirectoryCost d) {
    long best = Long.MIN_VALUE;
    for (ErasureCodingLayout p : policies) {
      best = Math.max(best, d.savedBytes(p.name()));
    }
    return best;
  }

  public List<ErasureCodingLayout> policies() {
    return policies;
  }

  /** The live DataNodes and racks they sit on, which decide the policies the cluster can hold. */
  public void topology(int liveDataNodes, int racks) {
    this.liveDataNodes = liveDataNodes;
    this.racks = racks;
  }

  /**
   * Why the cluster cannot hold {@code p}, or null when it can: the rules of {@code hdfs ec
   * -verifyClusterSetup} (at least k+m DataNodes, at least ceil((k+m)/m) racks, so losing a rack loses
   * at most m cells of a block group). Unknown topology (no DataNode report yet) holds nothing.
   */
  public String whyNot(ErasureCodingLayout p) {
    if (liveDataNodes < 0) {
      return "the DataNodes are not known yet";
    }
    int dataNodes = p.dataUnits() + p.parityUnits();
    if (liveDataNodes < dataNodes) {
      return "needs " + dataNodes + " DataNodes, the cluster has " + liveDataNodes;
    }
    if (racks < p.racksToSurviveOneRack()) {
      return "needs " + p.racksToSurviveOneRack() + " racks to survive the loss of one, the cluster has " + racks;
    }
    return null;
  }

  /**
   * The policy that saves the most below {@code d} among those the cluster can hold and that survive as
   * many lost units as three replicas do (two: so XOR-2-1 is shown, never advised), or null when none
   * saves anything.
   */
  public ErasureCodingLayout recommended(DirectoryCost d) {
    ErasureCodingLayout best = null;
    for (ErasureCodingLayout p : policies) {
      if (p.parityUnits() >= MIN_PARITY_ADVISED && whyNot(p) == null && d.savedBytes(p.name()) > 0 && (best == null || d.savedBytes(p.name()) > d.savedBytes(best.name()))) {
        best = p;
      }
    }
    return best;
  }
}
