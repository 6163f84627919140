package org.bulwark.hdfs.placement.rules;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
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

  /** A datacenter's share of one group, as {@link #cellsToMove} weighs it. */
  public static final class DatacenterCells {
    final int cells;
    final int racksUsed;
    final int racks;
    final int nodes;

    /**
     * @param cells the group's copies in the datacenter
     * @param racksUsed distinct racks holding them
     * @param racks racks of the datacenter with DataNodes in service
     * @param nodes DataNodes of the datacenter in service
     */
    public DatacenterCells(int cells, int racksUsed, int racks, int nodes) {
      this.cells = cells;
      this.racksUsed = racksUsed;
      this.racks = racks;
      this.nodes = nodes;
    }

    /**
     * Most of these cells a spread layout holding {@code share} cells here can keep: the rule wants
     * min(share, racks) racks used, and each cell beyond the racks already used must come on a new one.
     */
    int keepable(int share) {
      return Math.min(Math.min(cells, share), racksUsed + Math.max(0, share - racks));
    }

    /** Most cells a spread layout puts here: {@code allowed}, and no more than it has nodes (or holds already). */
    int capacity(int allowed) {
      return Math.min(allowed, Math.max(nodes, cells));
    }
  }

  /**
   * How many cells of a group of {@code width} must still land elsewhere for it to be spread: the fewest
   * copies to add (each then replacing, as excess, a copy on a crowded datacenter or rack) before {@code width}
   * of its copies hold no more than {@code allowed} cells in a datacenter and, inside each datacenter, use as
   * many racks as it has up to its cells. 0 exactly when the copies (one per cell) are spread so; adding a copy
   * never raises it, and a copy added where the spread lacks one lowers it by one, so each step of a repair
   * shows as progress. Cells missing altogether are not counted (that is redundancy, not placement).
   */
  public static int cellsToMove(int width, int allowed, Collection<DatacenterCells> datacenters) {
    int copies = 0;
    int room = 0;
    for (DatacenterCells dc : datacenters) {
      copies += dc.cells;
      room += dc.capacity(allowed);
    }
    int target = Math.min(width, Math.min(copies, room));
    // keptWith[n]: most copies kept by a spread layout of n cells over the datacenters seen so far (-1: none).
    int[] keptWith = new int[target + 1];
    Arrays.fill(keptWith, -1);
    keptWith[0] = 0;
    for (DatacenterCells dc : datacenters) {
      int[] next = new int[target + 1];
      Arrays.fill(next, -1);
      int capacity = dc.capacity(allowed);
      for (int n = 0; n <= target; n++) {
        if (keptWith[n] < 0) {
          continue;
        }
        for (int share = 0; share <= capacity && n + share <= target; share++) {
          next[n + share] = Math.max(next[n + share], keptWith[n] + dc.keepable(share));
        }
      }
      keptWith = next;
    }
    int kept = 0;
    for (int k : keptWith) {
      kept = Math.max(kept, k);
    }
    return target - kept;
  }

  /**
   * Of copies on {@code candidateRacks}, the indices of those whose datacenter holds most cells of the group,
   * and among them those whose rack holds most ({@code cellsPerRack}: every copy of the group per rack): the
   * copies whose removal relieves the most crowded place.
   */
  public static List<Integer> mostCrowded(List<String> candidateRacks, Map<String, Integer> cellsPerRack) {
    Map<String, Integer> cellsPerDc = new HashMap<>();
    cellsPerRack.forEach((rack, n) -> cellsPerDc.merge(RackFill.datacenterOf(rack), n, Integer::sum));
    List<Integer> out = new ArrayList<>();
    int mostInDc = -1;
    int mostInRack = -1;
    for (int i = 0; i < candidateRacks.size(); i++) {
      String rack = candidateRacks.get(i);
      int inDc = cellsPerDc.getOrDefault(RackFill.datacenterOf(rack), 0);
      int inRack = cellsPerRack.getOrDefault(rack, 0);
      if (inDc > mostInDc || (inDc == mostInDc && inRack > mostInRack)) {
        mostInDc = inDc;
        mostInRack = inRack;
        out.clear();
      }
      if (inDc == mostInDc && inRack == mostInRack) {
        out.add(i);
      }
    }
    return out;
  }
}
