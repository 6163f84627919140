package org.bulwark.hdfs.placement.rules;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The arithmetic of an erasure-coded block group spread over datacenters. A group of {@code k} data and
 * {@code m} parity cells can be read back from any {@code k}: it survives the loss of a datacenter when
 * no datacenter holds more than {@code m} of its cells. Spreading cells evenly makes the most crowded
 * datacenter hold ceil((k+m)/datacenters), so RS-3-2 and RS-6-3 survive a datacenter's loss over three
 * datacenters, RS-6-3 not over two.
 */
public final class StripeSpreadRules {
  private StripeSpreadRules() {
  }

  /** Most cells of a group of {@code width} cells one datacenter holds when spread evenly. */
  public static int evenShare(int width, int datacenters) {
    return datacenters <= 0 ? width : (width + datacenters - 1) / datacenters;
  }

  /** Whether a group of {@code width} cells, {@code parity} of them parity, can survive a datacenter's loss. */
  public static boolean canSurviveDatacenterLoss(int width, int parity, int datacenters) {
    return datacenters >= 2 && evenShare(width, datacenters) <= parity;
  }

  /** The most cells any one datacenter holds, given each cell's datacenter. */
  public static int mostInOneDatacenter(Collection<String> cellDatacenters) {
    Map<String, Integer> counts = new HashMap<>();
    int most = 0;
    for (String dc : cellDatacenters) {
      most = Math.max(most, counts.merge(dc, 1, Integer::sum));
    }
    return most;
  }

  /**
   * Whether moving one cell from {@code sourceDc} to {@code targetDc} keeps the spread: within a
   * datacenter, or into one that then holds no more cells than the source held before.
   */
  public static boolean moveKeepsSpread(Collection<String> cellDatacenters, String sourceDc, String targetDc) {
    if (sourceDc.equals(targetDc)) {
      return true;
    }
    int inSource = 0;
    int inTarget = 0;
    for (String dc : cellDatacenters) {
      if (dc.equals(sourceDc)) {
        inSource++;
      } else if (dc.equals(targetDc)) {
        inTarget++;
      }
    }
    return inSource > 0 && inTarget + 1 <= inSource;
  }

  /**
   * The fewest cells the most crowded datacenter can hold when a group of {@code width} cells goes on
   * distinct nodes and the datacenters have {@code nodesPerDatacenter} nodes: the even share when every
   * datacenter has nodes enough, more when small ones fill up (their cells go elsewhere).
   */
  public static int leastPossibleMost(int width, Collection<Integer> nodesPerDatacenter) {
    for (int most = 1; most < width; most++) {
      long fits = 0;
      for (int nodes : nodesPerDatacenter) {
        fits += Math.min(most, nodes);
      }
      if (fits >= width) {
        return most;
      }
    }
    return width;
  }
}
