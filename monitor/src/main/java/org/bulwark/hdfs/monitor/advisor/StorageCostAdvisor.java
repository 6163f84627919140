package org.bulwark.hdfs.monitor.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sums files into their ancestor directories down to a given depth, so an administrator sees per
 * directory what each erasure-coding policy would save or cost. Fed with (path, length, raw bytes
 * today) for every file of the last scan; plain data in, plain data out.
 */
public final class StorageCostAdvisor {
  private final int maxDepth;
  private final List<ErasureCodingLayout> policies;
  private final Map<String, DirectoryCost> directories = new TreeMap<>();

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
}
