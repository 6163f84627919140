package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.bulwark.hdfs.placement.rules.DatacenterSpreadRules;
import org.bulwark.hdfs.placement.rules.FallbackCause;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.RackSpreadRules;
import org.bulwark.hdfs.placement.rules.WriterDatacenterReplicas;

/**
 * Datacenter, rack and node placement for topologies mapped as {@code /<datacenter>/<rack>}: a block
 * survives the loss of any one datacenter (given two or more) and of any one rack.
 *
 * <p>The first replica goes on the writer's node, as with the default policy; the second and third on
 * two different racks of one remote datacenter, that datacenter picked so datacenters fill evenly;
 * further replicas go to whichever datacenter holds fewest of the block, racks kept distinct (past the writer's
 * replicas, a datacenter whose racks all hold one gives way to the next the rule picks with a rack holding none). With
 * {@link PlacementKeys#WRITER_DATACENTER_REPLICAS} {@code half}, ceil(RF/2) replicas stay in the
 * writer's datacenter on distinct racks and the rest go remote (see {@link WriterDatacenterReplicas}). Racks
 * within a datacenter are picked by fill, as {@link OneReplicaPerRackPlacementPolicy} picks them. With
 * one datacenter, or racks mapped one level deep ({@code /<rack>}), it places exactly as
 * {@link OneReplicaPerRackPlacementPolicy}. When the rule cannot be met (a datacenter without usable
 * racks) it falls back the same way, never failing a write.
 *
 * <p>Select with {@code dfs.block.replicator.classname}.
 */
public class HierarchicalPlacementPolicy extends OneReplicaPerRackPlacementPolicy {
  private WriterDatacenterReplicas writerDatacenterReplicas = WriterDatacenterReplicas.ONE;

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    this.writerDatacenterReplicas = PlacementKeys.WRITER_DATACENTER_REPLICAS.get(conf);
  }

  @Override
  protected List<String> candidateRacks(RackFill snapshot, List<DatanodeStorageInfo> results,
      Map<String, Integer> perRack, Set<String> exhausted, int rackLimit, int total, Random random) {
    if (snapshot.datacenters().size() < 2 || results.isEmpty()) {
      return super.candidateRacks(snapshot, results, perRack, exhausted, rackLimit, total, random);
    }
    String firstDc = RackFill.datacenterOf(results.get(0).getDatanodeDescriptor().getNetworkLocation());
    Map<String, Integer> perDc = new HashMap<>();
    perRack.forEach((rack, n) -> perDc.merge(RackFill.datacenterOf(rack), n, Integer::sum));
    List<String> usable = new ArrayList<>(snapshot.datacenters());
    int local = writerDatacenterReplicas.count(total);
    List<String> onceMore = null;
    while (!usable.isEmpty()) {
      String dc = DatacenterSpreadRules.next(results.size(), local, firstDc, perDc, usable,
          snapshot::datacenterUtilisation, random);
      if (dc == null) {
        break;
      }
      List<String> racks = RackSpreadRules.leastUsedRacks(snapshot.racksIn(dc), perRack, exhausted, rackLimit);
      if (!racks.isEmpty()) {
        if (results.size() < local || perRack.getOrDefault(racks.get(0), 0) == 0) {
          return racks;
        }
        // Every rack of it holds a replica already: the next datacenter the rule would pick with a rack holding
        // none comes first. The block keeps two datacenters either way: past the writer's replicas the rule picks
        // a remote one first, and then any.
        if (onceMore == null) {
          onceMore = racks;
        }
      }
      usable.remove(dc);
    }
    return onceMore != null ? onceMore : super.candidateRacks(snapshot, results, perRack, exhausted, rackLimit, total,
        random);
  }

  /** A block of two or more replicas left in one datacenter while the cluster has two or more. */
  @Override
  protected FallbackCause ruleBroken(List<DatanodeStorageInfo> results, int total) {
    if (total < 2 || results.size() < 2 || rackFill().datacenters().size() < 2) {
      return null;
    }
    String dc = RackFill.datacenterOf(results.get(0).getDatanodeDescriptor().getNetworkLocation());
    for (DatanodeStorageInfo s : results) {
      if (!dc.equals(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation()))) {
        return null;
      }
    }
    return FallbackCause.DATACENTER;
  }

  /**
   * Favored nodes all in one datacenter would leave the block there: with two or more datacenters, at
   * most {@code replicas - 1} favored nodes are kept per datacenter (the first ones given), so the rest
   * of the block goes to another.
   */
  @Override
  protected boolean favoredNodeAllowed(String rack, List<String> keptRacks, int numOfReplicas, int maxNodesPerRack) {
    return super.favoredNodeAllowed(rack, keptRacks, numOfReplicas, maxNodesPerRack)
        && DatacenterSpreadRules.favoredLeavesAnotherDatacenter(rack, keptRacks, numOfReplicas,
            rackFill().datacenters().size());
  }

  /**
   * Mis-replicated when the block could span more racks, or two datacenters, and does not; what it could
   * span counts only places offering its replicas' storage types ({@link StorageTypePlaces}).
   */
  @Override
  public BlockPlacementStatus verifyBlockPlacement(DatanodeInfo[] locs, int numberOfReplicas) {
    Set<String> racks = new HashSet<>();
    Set<String> dcs = new HashSet<>();
    if (locs != null) {
      for (DatanodeInfo dn : locs) {
        racks.add(dn.getNetworkLocation());
        dcs.add(RackFill.datacenterOf(dn.getNetworkLocation()));
      }
    }
    StorageTypePlaces storage = snapshot().storage;
    int requiredRacks = RackSpreadRules.requiredRacks(numberOfReplicas, storage.reachableRacks(locs, numberOfReplicas));
    int requiredDcs = RackSpreadRules.requiredRacks(Math.min(numberOfReplicas, 2),
        storage.reachableDatacenters(locs, numberOfReplicas));
    return new RackAndDatacenterStatus(racks.size(), requiredRacks, dcs.size(), requiredDcs);
  }

  /**
   * Excess replicas go first from racks holding more than one replica of the block; then from datacenters holding
   * more than one, so a deletion never leaves a datacenter without the block when it can be avoided; then from the
   * rest.
   */
  @Override
  protected List<Collection<DatanodeStorageInfo>> deletionPreference(Collection<DatanodeStorageInfo> moreThanOne,
      Collection<DatanodeStorageInfo> exactlyOne) {
    Map<String, Integer> perDc = new HashMap<>();
    for (Collection<DatanodeStorageInfo> group : Arrays.asList(moreThanOne, exactlyOne)) {
      for (DatanodeStorageInfo s : group) {
        perDc.merge(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation()), 1, Integer::sum);
      }
    }
    List<DatanodeStorageInfo> sharedDc = new ArrayList<>();
    for (DatanodeStorageInfo s : exactlyOne) {
      if (perDc.get(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation())) > 1) {
        sharedDc.add(s);
      }
    }
    return Arrays.asList(moreThanOne, sharedDc, exactlyOne);
  }

  /**
   * As for racks, so for datacenters: a block in two datacenters, one of them holding more than one of its
   * replicas, loses replicas from that datacenter only (the first two groups), or none.
   */
  @Override
  protected int groupsAsked(int groups, Collection<DatanodeStorageInfo> moreThanOne,
      Map<String, List<DatanodeStorageInfo>> rackMap) {
    Map<String, Integer> perDc = new HashMap<>();
    rackMap.forEach((rack, replicas) -> perDc.merge(RackFill.datacenterOf(rack), replicas.size(), Integer::sum));
    boolean keepTwo = perDc.size() == 2 && Collections.max(perDc.values()) > 1;
    return Math.min(super.groupsAsked(groups, moreThanOne, rackMap), keepTwo ? Math.min(2, groups) : groups);
  }

  /** Moves must keep both the block's racks and its datacenters. */
  @Override
  public boolean isMovable(Collection<DatanodeInfo> locs, DatanodeInfo source, DatanodeInfo target) {
    if (!super.isMovable(locs, source, target)) {
      return false;
    }
    return DatacenterSpreadRules.moveKeepsDatacenters(ReplicaRacks.beforeMove(locs, target), source.getNetworkLocation(),
        target.getNetworkLocation());
  }
}
