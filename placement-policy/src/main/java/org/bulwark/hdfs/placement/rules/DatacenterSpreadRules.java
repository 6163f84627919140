package org.bulwark.hdfs.placement.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/**
 * Which datacenter takes a block's next replica under hierarchical placement (the seed's rule): the
 * first {@code local} replicas in the writer's datacenter (one by default, ceil(RF/2) as HDFS-17868
 * proposes, see {@link WriterDatacenterReplicas}), the next two on two racks of one remote datacenter,
 * further replicas in whichever datacenter holds fewest of the block. With two or more datacenters a
 * block of two or more replicas then survives the loss of any one datacenter.
 */
public final class DatacenterSpreadRules {
  private DatacenterSpreadRules() {
  }

  /**
   * The datacenter for the next replica, or null when the rule has no preference left among
   * {@code usable} (the datacenters that still have a rack able to take it).
   *
   * @param placed replicas of the block placed so far (at least one)
   * @param local replicas the writer's datacenter (the first replica's) is to hold
   * @param firstDatacenter datacenter of the first replica
   * @param perDatacenter replicas of the block in each datacenter so far (absent means none)
   * @param utilisation fill of a datacenter, to spread remote copies evenly
   */
  public static String next(int placed, int local, String firstDatacenter, Map<String, Integer> perDatacenter,
      List<String> usable, ToDoubleFunction<String> utilisation, Random random) {
    if (usable.isEmpty()) {
      return null;
    }
    if (placed < local && usable.contains(firstDatacenter)) {
      return firstDatacenter;
    }
    if (placed == local || placed == local + 1) {
      // The first two remote replicas share one remote datacenter: the one already holding one, if any.
      for (String dc : usable) {
        if (!dc.equals(firstDatacenter) && perDatacenter.containsKey(dc)) {
          return dc;
        }
      }
      List<String> remote = new ArrayList<>(usable);
      remote.remove(firstDatacenter);
      return remote.isEmpty() ? null : EvenFillRackChooser.choose(remote, utilisation, random);
    }
    return fewest(perDatacenter, usable, utilisation, random);
  }

  /**
   * Of {@code usable} (not empty), a datacenter holding the fewest replicas of the block, the less
   * utilised of two such picked at random.
   */
  public static String fewest(Map<String, Integer> perDatacenter, List<String> usable,
      ToDoubleFunction<String> utilisation, Random random) {
    List<String> fewest = new ArrayList<>();
    int least = Integer.MAX_VALUE;
    for (String dc : usable) {
      Integer count = perDatacenter.get(dc);
      int n = count == null ? 0 : count;
      if (n < least) {
        least = n;
        fewest.clear();
      }
      if (n == least) {
        fewest.add(dc);
      }
    }
    return EvenFillRackChooser.choose(fewest, utilisation, random);
  }

  /**
   * Whether a favored node on {@code rack} may join the favored nodes kept on {@code keptRacks}: with two or
   * more datacenters, a block of two or more replicas keeps at most {@code replicas - 1} favored nodes in one
   * datacenter, so at least one replica goes to another.
   */
  public static boolean favoredLeavesAnotherDatacenter(String rack, Collection<String> keptRacks, int replicas,
      int datacenters) {
    if (replicas < 2 || datacenters < 2) {
      return true;
    }
    String dc = RackFill.datacenterOf(rack);
    int inDc = 0;
    for (String kept : keptRacks) {
      if (RackFill.datacenterOf(kept).equals(dc)) {
        inDc++;
      }
    }
    return inDc < replicas - 1;
  }

  /** Whether moving a replica from {@code sourceRack} to {@code targetRack} keeps the block's datacenters. */
  public static boolean moveKeepsDatacenters(List<String> replicaRacks, String sourceRack, String targetRack) {
    List<String> before = new ArrayList<>();
    for (String rack : replicaRacks) {
      before.add(RackFill.datacenterOf(rack));
    }
    return RackSpreadRules.moveKeepsRacks(before, RackFill.datacenterOf(sourceRack), RackFill.datacenterOf(targetRack));
  }
}
