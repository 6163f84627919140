package org.bulwark.hdfs.balancer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The storage group classification step of a balancer iteration, exactly as the stock
 * datanode policy does it: utilisation against the cluster average and the threshold, and how
 * many bytes each node may give or take in this iteration (up to the average, at most
 * {@code dfs.balancer.max-size-to-move}; a target also at most its remaining space).
 */
public final class Classification {
  private final double threshold;
  private final double average;
  private final UtilisationClass[] classes;
  private final double[] utilisation;
  private final long[] capacity;
  private final long[] maxBytes;
  private final long[] remaining;
  private final boolean[] sourceAllowed;
  private final boolean[] targetAllowed;
  private final long bytesLeftToMove;
  private final long maxSizeToMove;

  private Classification(double threshold, double average, UtilisationClass[] classes,
      double[] utilisation, long[] capacity, long[] maxBytesToMove, long[] remaining,
      boolean[] sourceAllowed, boolean[] targetAllowed, long bytesLeftToMove, long maxSizeToMove) {
    this.threshold = threshold;
    this.average = average;
    this.classes = classes;
    this.utilisation = utilisation;
    this.capacity = capacity;
    this.maxBytes = maxBytesToMove;
    this.remaining = remaining;
    this.sourceAllowed = sourceAllowed;
    this.targetAllowed = targetAllowed;
    this.bytesLeftToMove = bytesLeftToMove;
    this.maxSizeToMove = maxSizeToMove;
  }

  /**
   * @param nodeCount size of the node table (nodes without a usage take no part)
   * @param usages one entry per participating node
   * @param threshold percentage points, as {@code -threshold}
   * @param maxSizeToMove per-node cap for one iteration ({@code dfs.balancer.max-size-to-move})
   */
  public static Classification classify(int nodeCount, List<NodeUsage> usages, double threshold,
      long maxSizeToMove) {
    return classify(nodeCount, usages, threshold, maxSizeToMove, Integer.MAX_VALUE, false);
  }

  /**
   * As {@link #classify(int, List, double, long)}, with Hadoop 3.5's {@code -limitOverUtilizedNum}: only the
   * first {@code overUtilisedLimit} over-utilised nodes give in this iteration, the fullest ones when
   * {@code fullestFirst} ({@code -sortTopNodes}), otherwise in report order; the others sit this iteration
   * out, their excess still counted in {@link #bytesLeftToMove()} (as the stock balancer counts it).
   */
  public static Classification classify(int nodeCount, List<NodeUsage> usages, double threshold,
      long maxSizeToMove, int overUtilisedLimit, boolean fullestFirst) {
    UtilisationClass[] classes = new UtilisationClass[nodeCount];
    Arrays.fill(classes, UtilisationClass.NOT_PARTICIPATING);
    double[] utilisation = new double[nodeCount];
    Arrays.fill(utilisation, Double.NaN);
    long[] capacity = new long[nodeCount];
    long[] maxBytes = new long[nodeCount];
    long[] remaining = new long[nodeCount];
    boolean[] sourceAllowed = new boolean[nodeCount];
    boolean[] targetAllowed = new boolean[nodeCount];

    long totalCapacity = 0;
    long totalUsed = 0;
    for (NodeUsage u : usages) {
      totalCapacity += u.capacity();
      totalUsed += u.used();
    }
    double average = totalCapacity == 0 ? 0 : totalUsed * 100.0 / totalCapacity;

    long overBytes = 0;
    long underBytes = 0;
    for (NodeUsage u : usages) {
      int n = u.node();
      double util = u.utilisation();
      utilisation[n] = util;
      capacity[n] = u.capacity();
      remaining[n] = u.remaining();
      sourceAllowed[n] = u.sourceAllowed();
      targetAllowed[n] = u.targetAllowed();
      double diff = util - average;
      if (diff >= 0 && !u.sourceAllowed() || diff <= 0 && !u.targetAllowed()) {
        continue;
      }
      double beyondThreshold = Math.abs(diff) - threshold;
      long toAverage = percentToBytes(Math.abs(diff), u.capacity());
      if (diff > 0) {
        maxBytes[n] = Math.min(maxSizeToMove, toAverage);
        if (beyondThreshold > 0) {
          classes[n] = UtilisationClass.OVER_UTILISED;
          overBytes += percentToBytes(beyondThreshold, u.capacity());
        } else {
          classes[n] = UtilisationClass.ABOVE_AVERAGE;
        }
      } else {
        maxBytes[n] = Math.min(maxSizeToMove, Math.min(u.remaining(), toAverage));
        if (beyondThreshold > 0) {
          classes[n] = UtilisationClass.UNDER_UTILISED;
          underBytes += percentToBytes(beyondThreshold, u.capacity());
        } else {
          classes[n] = UtilisationClass.BELOW_AVERAGE;
        }
      }
    }
    limitOverUtilised(classes, utilisation, maxBytes, sourceAllowed, overUtilisedLimit, fullestFirst);
    return new Classification(threshold, average, classes, utilisation, capacity, maxBytes,
        remaining, sourceAllowed, targetAllowed, Math.max(overBytes, underBytes), maxSizeToMove);
  }

  private static void limitOverUtilised(UtilisationClass[] classes, double[] utilisation, long[] maxBytes,
      boolean[] sourceAllowed, int limit, boolean fullestFirst) {
    List<Integer> over = new ArrayList<>();
    for (int n = 0; n < classes.length; n++) {
      if (classes[n] == UtilisationClass.OVER_UTILISED) {
        over.add(n);
      }
    }
    if (over.size() <= limit) {
      return;
    }
    if (fullestFirst) {
      over.sort(Comparator.comparingDouble((Integer n) -> -utilisation[n]));
    }
    for (int n : over.subList(limit, over.size())) {
      classes[n] = UtilisationClass.NOT_PARTICIPATING;
      maxBytes[n] = 0;
      sourceAllowed[n] = false;
    }
  }

  static long percentToBytes(double percent, long capacity) {
    return (long) (percent * capacity / 100.0);
  }

  public double threshold() {
    return threshold;
  }

  public double average() {
    return average;
  }

  public int nodeCount() {
    return classes.length;
  }

  public UtilisationClass classOf(int node) {
    return classes[node];
  }

  /** Utilisation in percent, NaN for a node without usage. */
  public double utilisation(int node) {
    return utilisation[node];
  }

  public long capacity(int node) {
    return capacity[node];
  }

  /** Free bytes of the node's storages that can still take a block. */
  public long remaining(int node) {
    return remaining[node];
  }

  /**
   * False when {@code -source} names other DataNodes, {@code -excludeSource} this one, or
   * {@code -limitOverUtilizedNum} left it out of this iteration.
   */
  public boolean sourceAllowed(int node) {
    return sourceAllowed[node];
  }

  /** False when {@code -target} names other DataNodes or {@code -excludeTarget} this one. */
  public boolean targetAllowed(int node) {
    return targetAllowed[node];
  }

  /** True when the node has storages of this type and is not excluded. */
  public boolean hasUsage(int node) {
    return !Double.isNaN(utilisation[node]);
  }

  /** Bytes this node may give (source) or take (target) in this iteration. */
  public long maxBytesToMove(int node) {
    return maxBytes[node];
  }

  /** What no node may give or take in one iteration, whatever else allows it ({@code dfs.balancer.max-size-to-move}). */
  public long maxSizeToMove() {
    return maxSizeToMove;
  }

  /**
   * Bytes that must move for every node to be within the threshold: the larger of the excess of
   * the over-utilised nodes and the shortfall of the under-utilised ones. Zero means balanced.
   */
  public long bytesLeftToMove() {
    return bytesLeftToMove;
  }

  /**
   * Whether the stock balancer would pair a source with a target here: an over-utilised node with an
   * under-utilised or below-average one, or an above-average node with an under-utilised one, each with
   * bytes to give or take. Where it would, and no block can move, the stock balancer does not exit at once:
   * it counts an iteration without moves ({@code -idleiterations}) and looks again.
   */
  public boolean hasStockPairing() {
    boolean over = false;
    boolean above = false;
    boolean under = false;
    boolean below = false;
    for (int n = 0; n < classes.length; n++) {
      if (maxBytes[n] <= 0) {
        continue;
      }
      over |= classes[n] == UtilisationClass.OVER_UTILISED;
      above |= classes[n] == UtilisationClass.ABOVE_AVERAGE;
      under |= classes[n] == UtilisationClass.UNDER_UTILISED;
      below |= classes[n] == UtilisationClass.BELOW_AVERAGE;
    }
    return over && (under || below) || above && under;
  }

  /**
   * Bytes the node would be outside the threshold after taking (positive) or giving (negative) {@code change} bytes;
   * 0 for a node without usage or one excluded from that side ({@code -source}, {@code -target}, ...).
   */
  public long bytesOutsideAfter(int node, long change) {
    if (!hasUsage(node)) {
      return 0;
    }
    double diff = utilisation[node] + change * 100.0 / capacity[node] - average;
    double beyond = Math.abs(diff) - threshold;
    if (beyond <= 0 || !(diff <= 0 ? targetAllowed[node] : sourceAllowed[node])) {
      return 0;
    }
    return percentToBytes(beyond, capacity[node]);
  }

  /** Bytes a node must shed (positive) or take (negative) to be within {@code band} points of the average. */
  public long bytesOutside(int node, double band) {
    double util = utilisation[node];
    if (Double.isNaN(util)) {
      return 0;
    }
    double diff = util - average;
    if (diff > band) {
      return percentToBytes(diff - band, capacity[node]);
    }
    if (diff < -band) {
      return -percentToBytes(-band - diff, capacity[node]);
    }
    return 0;
  }
}
