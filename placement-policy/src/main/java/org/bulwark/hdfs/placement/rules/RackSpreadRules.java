package org.bulwark.hdfs.placement.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The arithmetic of "one replica per rack, as evenly as possible when racks are short". */
public final class RackSpreadRules {
  private RackSpreadRules() {
  }

  /**
   * Most replicas of one block a rack may hold: 1 while racks suffice, otherwise the ceiling of
   * replicas over racks, so per-rack counts differ by at most one.
   */
  public static int maxReplicasPerRack(int replicas, int racks) {
    if (racks <= 1 || replicas <= 1) {
      return Math.max(replicas, 1);
    }
    return (replicas + racks - 1) / racks;
  }

  /** Racks a block of {@code replicas} replicas must span on a cluster with {@code racks} racks. */
  public static int requiredRacks(int replicas, int racks) {
    return Math.max(1, Math.min(replicas, racks));
  }

  /** Whether {@code rack} holds fewer than {@code rackLimit} of the replicas on {@code replicaRacks}. */
  public static boolean rackHasRoom(String rack, Collection<String> replicaRacks, int rackLimit) {
    int onRack = 0;
    for (String r : replicaRacks) {
      if (r.equals(rack)) {
        onRack++;
      }
    }
    return onRack < rackLimit;
  }

  /** Number of distinct racks among {@code replicaRacks}. */
  public static int distinctRacks(Collection<String> replicaRacks) {
    return new HashSet<>(replicaRacks).size();
  }

  /**
   * Whether moving the replica on {@code sourceRack} to {@code targetRack} keeps the block on at least
   * as many racks as before (the balancer and mover may make only such moves).
   */
  public static boolean moveKeepsRacks(List<String> replicaRacks, String sourceRack, String targetRack) {
    List<String> after = new ArrayList<>(replicaRacks);
    if (!after.remove(sourceRack)) {
      return false;
    }
    after.add(targetRack);
    return distinctRacks(after) >= distinctRacks(replicaRacks);
  }

  /**
   * The racks of {@code racks}, neither {@code exhausted} nor holding {@code rackLimit} replicas already,
   * that hold the fewest replicas of the block ({@code perRack}; absent means none).
   */
  public static List<String> leastUsedRacks(List<String> racks, Map<String, Integer> perRack, Set<String> exhausted,
      int rackLimit) {
    List<String> out = new ArrayList<>();
    int least = Integer.MAX_VALUE;
    for (String rack : racks) {
      Integer count = perRack.get(rack);
      int n = count == null ? 0 : count;
      if (n >= rackLimit || exhausted.contains(rack)) {
        continue;
      }
      if (n < least) {
        least = n;
        out.clear();
      }
      if (n == least) {
        out.add(rack);
      }
    }
    return out;
  }
}
