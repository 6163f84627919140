package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.SystemErasureCodingPolicies;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.bulwark.hdfs.placement.rules.DatacenterSpreadRules;
import org.bulwark.hdfs.placement.rules.FallbackCause;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.RackSpreadRules;
import org.bulwark.hdfs.placement.rules.StripeSpreadRules;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Placement of erasure-coded block groups over datacenters, then racks: each cell of a group goes to
 * the datacenter holding fewest of the group's cells (the less full of two on a tie), inside it to a
 * rack holding fewest, so no datacenter holds more cells than the cluster forces. Where every
 * datacenter can take its even share, ceil((k+m)/datacenters) cells, and that share is at most the
 * parity count m, a whole datacenter's loss leaves k cells and the data readable: RS-3-2 and RS-6-3 over
 * three datacenters. The stock {@code BlockPlacementPolicyRackFaultTolerant} spreads over racks only, so
 * on a cluster whose datacenters have unequal rack counts it puts more than m cells in the biggest.
 *
 * <p>With one datacenter (or racks mapped one level deep) it spreads cells over racks evenly as the
 * stock policy does. Where the datacenters cannot hold the group so that one's loss is survived (two
 * datacenters for RS-6-3, or small ones), it places as evenly as the cluster allows, says so once per
 * group width in the log, and counts each such group as a {@link FallbackCause#DATACENTER} fallback.
 *
 * <p>Select with {@code dfs.block.placement.ec.classname}.
 */
public class HierarchicalErasureCodedPlacementPolicy extends HierarchicalPlacementPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(HierarchicalErasureCodedPlacementPolicy.class);
  private final Set<Integer> warnedWidths = ConcurrentHashMap.newKeySet();

  /** No per-rack cap from Hadoop's check: a datacenter of one rack may have to hold several cells. */
  @Override
  protected int[] getMaxNodesPerRack(int numOfChosen, int numOfReplicas) {
    int[] fitting = fitToCluster(numOfChosen, numOfReplicas);
    return new int[] {fitting[0], Math.max(fitting[1], 1)};
  }

  @Override
  protected List<String> candidateRacks(RackFill snapshot, List<DatanodeStorageInfo> results,
      Map<String, Integer> perRack, Set<String> exhausted, int rackLimit, int total, Random random) {
    if (snapshot.datacenters().size() < 2) {
      return RackSpreadRules.leastUsedRacks(snapshot.racks(), perRack, exhausted, rackLimit);
    }
    Map<String, Integer> perDc = new HashMap<>();
    perRack.forEach((rack, n) -> perDc.merge(RackFill.datacenterOf(rack), n, Integer::sum));
    List<String> usable = new ArrayList<>(snapshot.datacenters());
    while (!usable.isEmpty()) {
      String dc = DatacenterSpreadRules.fewest(perDc, usable, snapshot::datacenterUtilisation, random);
      List<String> racks = RackSpreadRules.leastUsedRacks(snapshot.racksIn(dc), perRack, exhausted, rackLimit);
      if (!racks.isEmpty()) {
        return racks;
      }
      usable.remove(dc);
    }
    return RackSpreadRules.leastUsedRacks(snapshot.racks(), perRack, exhausted, rackLimit);
  }

  /**
   * A group whose most crowded datacenter holds more cells than the cluster forces, or (said once per
   * width) a cluster whose datacenters cannot hold this width so that one's loss is survived.
   */
  @Override
  protected FallbackCause ruleBroken(List<DatanodeStorageInfo> results, int total) {
    TopologySnapshot snapshot = snapshot();
    if (snapshot.fill.datacenters().size() < 2 || results.size() < 2) {
      return null;
    }
    Map<String, Integer> nodesPerDc = snapshot.nodesPerDatacenter();
    int best = StripeSpreadRules.leastPossibleMost(total, nodesPerDc.values());
    int parity = parityUnits(total);
    if (parity > 0 && best > parity && warnedWidths.add(total)) {
      LOG.warn("Erasure-coded groups of {} cells ({} parity) cannot survive the loss of a datacenter here: {}"
          + " datacenters with {} in-service DataNodes force {} cells into one. Placing them as evenly over datacenters"
          + " and racks as the cluster allows (as BlockPlacementPolicyRackFaultTolerant over racks). Logged once.",
          total, parity, nodesPerDc.size(), nodesPerDc, best);
    }
    List<String> dcs = new ArrayList<>(results.size());
    for (DatanodeStorageInfo s : results) {
      dcs.add(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation()));
    }
    int most = StripeSpreadRules.mostInOneDatacenter(dcs);
    return most > best || parity > 0 && most > parity ? FallbackCause.DATACENTER : null;
  }

  /**
   * Parity cells of the built-in policy {@code width} cells wide (RS-3-2: 2, RS-6-3: 3, RS-10-4: 4,
   * XOR-2-1: 1), or 0 for a width no built-in policy has (the placement does not learn the file's policy).
   */
  static int parityUnits(int width) {
    int parity = 0;
    for (ErasureCodingPolicy p : SystemErasureCodingPolicies.getPolicies()) {
      if (p.getNumDataUnits() + p.getNumParityUnits() == width) {
        if (parity != 0 && parity != p.getNumParityUnits()) {
          return 0;
        }
        parity = p.getNumParityUnits();
      }
    }
    return parity;
  }

  /**
   * Satisfied when no datacenter holds more cells than the cluster forces and, inside each datacenter,
   * the cells sit on as many racks as it has: a status the NameNode can always reach. Otherwise the count
   * of cells still to move, which each helpful repair copy lowers (see {@link StripeSpreadStatus}). A group
   * whose cells' storage type only some DataNodes offer counts only those DataNodes and their racks.
   */
  @Override
  public BlockPlacementStatus verifyBlockPlacement(DatanodeInfo[] locs, int numberOfReplicas) {
    TopologySnapshot snapshot = snapshot();
    if (snapshot.fill.datacenters().size() < 2) {
      return super.verifyBlockPlacement(locs, numberOfReplicas);
    }
    Map<String, List<String>> racksByDc = new HashMap<>();
    List<String> dcs = new ArrayList<>();
    if (locs != null) {
      for (DatanodeInfo dn : locs) {
        String dc = RackFill.datacenterOf(dn.getNetworkLocation());
        dcs.add(dc);
        racksByDc.computeIfAbsent(dc, k -> new ArrayList<>()).add(dn.getNetworkLocation());
      }
    }
    // A group confined to a storage type (COLD on archive nodes) is measured against the places offering it.
    Map<String, int[]> places = snapshot.offering(snapshot.storage.confiningTypes(locs));
    List<Integer> nodesPerDc = new ArrayList<>(places.size());
    places.values().forEach(nodesAndRacks -> nodesPerDc.add(nodesAndRacks[0]));
    int allowed = StripeSpreadRules.leastPossibleMost(numberOfReplicas, nodesPerDc);
    Set<String> allDcs = new HashSet<>(places.keySet());
    allDcs.addAll(racksByDc.keySet());
    List<StripeSpreadRules.DatacenterCells> cells = new ArrayList<>(allDcs.size());
    for (String dc : allDcs) {
      List<String> racks = racksByDc.getOrDefault(dc, Collections.<String>emptyList());
      int[] nodesAndRacks = places.getOrDefault(dc, new int[2]);
      cells.add(new StripeSpreadRules.DatacenterCells(racks.size(), RackSpreadRules.distinctRacks(racks),
          nodesAndRacks[1], nodesAndRacks[0]));
    }
    return new StripeSpreadStatus(StripeSpreadRules.mostInOneDatacenter(dcs), allowed,
        StripeSpreadRules.cellsToMove(numberOfReplicas, allowed, cells));
  }

  /** A striped block's copies of one cell form one group: the crowding rule below alone picks among them. */
  @Override
  protected List<Collection<DatanodeStorageInfo>> deletionPreference(Collection<DatanodeStorageInfo> moreThanOne,
      Collection<DatanodeStorageInfo> exactlyOne) {
    List<DatanodeStorageInfo> copies = new ArrayList<>(moreThanOne);
    copies.addAll(exactlyOne);
    return Collections.<Collection<DatanodeStorageInfo>>singletonList(copies);
  }

  /**
   * Which copy of a cell goes when a group holds two: for a striped block Hadoop offers the copies of one
   * internal block ({@code moreThanOne} and {@code exactlyOne}) while {@code rackMap} holds every copy of the
   * group. The copy in the datacenter holding most of the group goes, then the one on the rack holding most:
   * after a repair copied a cell out of a crowded datacenter, the crowded copy is dropped, not the new one.
   */
  @Override
  protected Collection<DatanodeStorageInfo> pickupReplicaSet(Collection<DatanodeStorageInfo> moreThanOne,
      Collection<DatanodeStorageInfo> exactlyOne, Map<String, List<DatanodeStorageInfo>> rackMap) {
    List<DatanodeStorageInfo> candidates = new ArrayList<>(moreThanOne);
    candidates.addAll(exactlyOne);
    Map<String, Integer> cellsPerRack = new HashMap<>();
    rackMap.forEach((rack, copies) -> cellsPerRack.put(rack, copies.size()));
    List<String> candidateRacks = new ArrayList<>(candidates.size());
    for (DatanodeStorageInfo s : candidates) {
      candidateRacks.add(s.getDatanodeDescriptor().getNetworkLocation());
    }
    List<DatanodeStorageInfo> crowded = new ArrayList<>();
    for (int i : StripeSpreadRules.mostCrowded(candidateRacks, cellsPerRack)) {
      crowded.add(candidates.get(i));
    }
    return crowded;
  }

  /** Moves must keep the group's racks and datacenters and never crowd a datacenter more. */
  @Override
  public boolean isMovable(Collection<DatanodeInfo> locs, DatanodeInfo source, DatanodeInfo target) {
    if (!super.isMovable(locs, source, target)) {
      return false;
    }
    List<String> dcs = new ArrayList<>();
    for (String rack : ReplicaRacks.beforeMove(locs, target)) {
      dcs.add(RackFill.datacenterOf(rack));
    }
    return StripeSpreadRules.moveKeepsSpread(dcs, RackFill.datacenterOf(source.getNetworkLocation()),
        RackFill.datacenterOf(target.getNetworkLocation()));
  }
}
