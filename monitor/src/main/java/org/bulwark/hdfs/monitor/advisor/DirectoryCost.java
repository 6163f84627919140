package org.bulwark.hdfs.monitor.advisor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The storage a directory's files take today and would take under each erasure-coding policy, summed
 * over the files below it. Files that would cost more under a policy than they cost today are counted
 * per policy: those are the small files that erasure coding makes dearer.
 */
public final class DirectoryCost {
  private final String path;
  private long files;
  private long logicalBytes;
  private long rawBytesToday;
  private final Map<String, long[]> byPolicy = new LinkedHashMap<>();

  public DirectoryCost(String path, List<ErasureCodingLayout> policies) {
    this.path = path;
    for (ErasureCodingLayout p : policies) {
      byPolicy.put(p.name(), new long[2]);
    }
  }

  /** Adds one file: its length and the raw bytes it takes today (length x replication, or its EC layout). */
  public void add(long length, long rawToday, List<ErasureCodingLayout> policies) {
    files++;
    logicalBytes += length;
    rawBytesToday += rawToday;
    for (ErasureCodingLayout p : policies) {
      long[] v = byPolicy.get(p.name());
      long raw = p.rawBytes(length);
      v[0] += raw;
      if (raw > rawToday) {
        v[1]++;
      }
    }
  }

  public String path() {
    return path;
  }

  public long files() {
    return files;
  }

  public long logicalBytes() {
    return logicalBytes;
  }

  public long rawBytesToday() {
    return rawBytesToday;
  }

  /** Raw bytes under policy {@code name}. */
  public long rawBytes(String name) {
    return byPolicy.get(name)[0];
  }

  /** Files that would take more raw bytes under policy {@code name} than today. */
  public long filesCostlier(String name) {
    return byPolicy.get(name)[1];
  }

  /** Bytes saved (negative: lost) by moving every file below this directory to policy {@code name}. */
  public long savedBytes(String name) {
    return rawBytesToday - rawBytes(name);
  }
}
