package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatusDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.bulwark.hdfs.placement.rules.EvenFillRackChooser;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.RackSpreadRules;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica per rack: a block of replication factor R survives the loss of any R-1 racks.
 *
 * <p>The first replica goes where Hadoop's default policy puts it (the writer's node when the writer
 * is a DataNode). Each further replica goes to a rack holding none of the block yet, chosen by
 * {@link EvenFillRackChooser} so that racks fill evenly; when there are fewer racks than replicas,
 * replicas go round the racks so per-rack counts differ by at most one. If no acceptable node is left
 * on such racks (all excluded, full, stale or decommissioning), the policy falls back to any node the
 * default policy would accept, logs that once, and the block shows as mis-replicated until the
 * NameNode can repair it: a write never fails because the ideal was out of reach.
 *
 * <p>Everything else the default policy honours (excluded and favored nodes, storage policies, stale,
 * decommissioning and in-maintenance nodes, load, space, slow nodes) is honoured, because every node is
 * accepted by the default policy's own checks; the nodes of a chosen rack are tried directly from a
 * snapshot of the topology rather than searched for in the topology tree, which is what makes this
 * policy as fast as the default one. Deletion of
 * excess replicas and balancer moves never lower a block's rack count where that can be avoided.
 *
 * <p>Select with {@code dfs.block.replicator.classname}.
 */
public class OneReplicaPerRackPlacementPolicy extends BlockPlacementPolicyDefault implements Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(OneReplicaPerRackPlacementPolicy.class);

  private Configuration conf;
  private RackFillTracker fill = new RackFillTracker(1000);
  private final AtomicBoolean warnedFallback = new AtomicBoolean();
  /**
   * The favored nodes a favored-node write on this thread kept, handed from {@link #chooseFavouredNodes}
   * to the choice of the remaining replicas, which Hadoop starts with an empty list of chosen nodes. The
   * excluded-node set of that write identifies it, so a hand-over left by a write that needed no more
   * replicas is never taken for another write's.
   */
  private final ThreadLocal<FavoredChosen> favoredChosen = new ThreadLocal<>();

  private static final class FavoredChosen {
    final Set<Node> request;
    final List<DatanodeStorageInfo> storages;

    FavoredChosen(Set<Node> request, List<DatanodeStorageInfo> storages) {
      this.request = request;
      this.storages = storages;
    }
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.fill = new RackFillTracker(PlacementKeys.RACK_FILL_REFRESH.get(conf));
    TopologyTableCheck.check(conf);
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  protected int[] getMaxNodesPerRack(int numOfChosen, int numOfReplicas) {
    int clusterSize = clusterMap.getNumOfLeaves();
    int total = numOfChosen + numOfReplicas;
    if (total > clusterSize) {
      numOfReplicas -= total - clusterSize;
      total = clusterSize;
    }
    return new int[] {numOfReplicas, RackSpreadRules.maxReplicasPerRack(total, clusterMap.getNumOfNonEmptyRacks())};
  }

  /**
   * Favored nodes (HBase region servers write this way) are kept as far as the rules allow: at most one
   * per rack while racks suffice (the default's per-rack limit, which this policy sets), and whatever a
   * subclass adds ({@link #keepFavoredWithinRules}). The remaining replicas are then chosen as for any
   * write, on racks (and datacenters) the kept favored nodes do not use.
   */
  @Override
  protected void chooseFavouredNodes(String src, int numOfReplicas, List<DatanodeDescriptor> favoredNodes,
      Set<Node> favoriteAndExcludedNodes, long blocksize, int maxNodesPerRack, List<DatanodeStorageInfo> results,
      boolean avoidStaleNodes, EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    favoredChosen.remove();
    super.chooseFavouredNodes(src, numOfReplicas, favoredNodes, favoriteAndExcludedNodes, blocksize, maxNodesPerRack,
        results, avoidStaleNodes, storageTypes);
    keepFavoredWithinRules(results, numOfReplicas);
    if (results.size() < numOfReplicas) {
      favoredChosen.set(new FavoredChosen(favoriteAndExcludedNodes, new ArrayList<>(results)));
    }
  }

  /** Drops kept favored nodes that break a rule beyond the per-rack limit (none here). */
  protected void keepFavoredWithinRules(List<DatanodeStorageInfo> favored, int numOfReplicas) {
  }

  @Override
  protected Node chooseTargetInOrder(int numOfReplicas, Node writer, Set<Node> excludedNodes, long blocksize,
      int maxNodesPerRack, List<DatanodeStorageInfo> results, boolean avoidStaleNodes, boolean newBlock,
      EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    FavoredChosen favored = favoredChosen.get();
    favoredChosen.remove();
    if (favored == null || favored.request != excludedNodes || !results.isEmpty()) {
      return chooseInOrder(numOfReplicas, writer, excludedNodes, blocksize, maxNodesPerRack, results, avoidStaleNodes,
          storageTypes);
    }
    // The rest of a favored-node write: the favored replicas count as chosen (they take the writer-local
    // place and their racks), but Hadoop adds them to the pipeline itself.
    results.addAll(0, favored.storages);
    try {
      return chooseInOrder(numOfReplicas, writer, excludedNodes, blocksize,
          getMaxNodesPerRack(favored.storages.size(), numOfReplicas)[1], results, avoidStaleNodes, storageTypes);
    } finally {
      results.removeAll(favored.storages);
    }
  }

  private Node chooseInOrder(int numOfReplicas, Node writer, Set<Node> excludedNodes, long blocksize,
      int maxNodesPerRack, List<DatanodeStorageInfo> results, boolean avoidStaleNodes,
      EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    if (results.isEmpty()) {
      DatanodeStorageInfo first = chooseLocalStorage(writer, excludedNodes, blocksize, maxNodesPerRack, results,
          avoidStaleNodes, storageTypes, true);
      writer = first != null ? first.getDatanodeDescriptor() : null;
      if (--numOfReplicas == 0) {
        return writer;
      }
    }
    int missing = chooseOnLeastUsedRacks(numOfReplicas, maxNodesPerRack, excludedNodes, blocksize, maxNodesPerRack,
        results, avoidStaleNodes, storageTypes);
    if (missing > 0) {
      if (warnedFallback.compareAndSet(false, true)) {
        LOG.warn("Could not place every replica on its own rack (racks excluded, full, stale or decommissioning):"
            + " placing the rest on the least used racks that can take them; such blocks show as mis-replicated"
            + " until the NameNode repairs them. Logged once.");
      }
      int unlimited = results.size() + missing;
      missing = chooseOnLeastUsedRacks(missing, unlimited, excludedNodes, blocksize, unlimited, results,
          avoidStaleNodes, storageTypes);
    }
    if (missing > 0) {
      // Nothing acceptable is left anywhere: let the default search report it as Hadoop does.
      chooseRandom(missing, NodeBase.ROOT, excludedNodes, blocksize, results.size() + missing, results,
          avoidStaleNodes, storageTypes);
    }
    return writer;
  }

  /**
   * Places replicas one at a time, each on a rack holding the fewest replicas of this block (none while
   * racks suffice) and fewer than {@code rackLimit}, the rack picked by fill among those. Returns how
   * many replicas could not be placed so.
   */
  private int chooseOnLeastUsedRacks(int numOfReplicas, int rackLimit, Set<Node> excludedNodes, long blocksize,
      int maxNodesPerRack, List<DatanodeStorageInfo> results, boolean avoidStaleNodes,
      EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    TopologySnapshot snapshot = snapshot();
    Map<String, Integer> perRack = new HashMap<>();
    for (DatanodeStorageInfo s : results) {
      perRack.merge(s.getDatanodeDescriptor().getNetworkLocation(), 1, Integer::sum);
    }
    Set<String> exhausted = new HashSet<>();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (numOfReplicas > 0) {
      List<String> candidates = candidateRacks(snapshot.fill, results, perRack, exhausted, rackLimit, random);
      if (candidates.isEmpty()) {
        break;
      }
      String rack = EvenFillRackChooser.choose(candidates, snapshot.fill, random);
      DatanodeStorageInfo chosen = chooseInRack(snapshot, rack, excludedNodes, blocksize, maxNodesPerRack, results,
          avoidStaleNodes, storageTypes, random);
      if (chosen == null) {
        exhausted.add(rack);
        continue;
      }
      snapshot.fill.recordPlacement(rack, blocksize);
      perRack.merge(rack, 1, Integer::sum);
      numOfReplicas--;
    }
    return numOfReplicas;
  }

  /**
   * Tries the nodes of {@code rack}, from a random one on, with the default policy's checks (excluded,
   * in service, stale, space, storage type, per-rack limit, and load as the default policy weighs it),
   * and returns the storage chosen, or null when no node of the rack can take the replica.
   */
  private DatanodeStorageInfo chooseInRack(TopologySnapshot snapshot, String rack, Set<Node> excludedNodes,
      long blocksize, int maxNodesPerRack, List<DatanodeStorageInfo> results, boolean avoidStaleNodes,
      EnumMap<StorageType, Integer> storageTypes, Random random) throws NotEnoughReplicasException {
    DatanodeDescriptor[] nodes = snapshot.nodesIn(rack);
    int n = nodes.length;
    if (n == 0) {
      return null;
    }
    double maxLoad = considerLoadFactor * snapshot.meanXceivers;
    int start = random.nextInt(n);
    for (int i = 0; i < n; i++) {
      DatanodeDescriptor node = nodes[(start + i) % n];
      if (excludedNodes.contains(node)) {
        continue;
      }
      if (considerLoad && maxLoad > 0 && node.getXceiverCount() > maxLoad) {
        continue;
      }
      // Hadoop's own check of one given node: in the topology, good, with a storage of a wanted type.
      DatanodeStorageInfo storage = chooseLocalOrFavoredStorage(node, true, excludedNodes, blocksize,
          maxNodesPerRack, results, avoidStaleNodes, storageTypes);
      if (storage != null) {
        return storage;
      }
    }
    return null;
  }

  /**
   * The racks that may take the next replica of a block that has {@code results} so far; the rack fill
   * then picks among them. Here: the racks holding the fewest replicas of the block.
   */
  protected List<String> candidateRacks(RackFill snapshot, List<DatanodeStorageInfo> results,
      Map<String, Integer> perRack, Set<String> exhausted, int rackLimit, Random random) {
    return RackSpreadRules.leastUsedRacks(snapshot.racks(), perRack, exhausted, rackLimit);
  }

  /** The current rack fill (refreshed at most every {@link PlacementKeys#RACK_FILL_REFRESH}). */
  protected RackFill rackFill() {
    return snapshot().fill;
  }

  private TopologySnapshot snapshot() {
    return fill.get(clusterMap);
  }

  /**
   * Mis-replicated when the block spans fewer racks than it could on the racks that have DataNodes in
   * service now, never for a shape the cluster cannot improve on (which would make the NameNode retry
   * reconstruction forever).
   */
  @Override
  public BlockPlacementStatus verifyBlockPlacement(DatanodeInfo[] locs, int numberOfReplicas) {
    Set<String> racks = new HashSet<>();
    if (locs != null) {
      for (DatanodeInfo dn : locs) {
        racks.add(dn.getNetworkLocation());
      }
    }
    int inService = rackFill().racks().size();
    int required = RackSpreadRules.requiredRacks(numberOfReplicas, inService);
    return new BlockPlacementStatusDefault(racks.size(), required, inService);
  }

  /** Excess replicas are deleted from racks holding more than one replica of the block first. */
  @Override
  protected Collection<DatanodeStorageInfo> pickupReplicaSet(Collection<DatanodeStorageInfo> moreThanOne,
      Collection<DatanodeStorageInfo> exactlyOne, Map<String, List<DatanodeStorageInfo>> rackMap) {
    return moreThanOne.isEmpty() ? exactlyOne : moreThanOne;
  }

  /** The balancer and the mover may move a replica only where the block keeps its number of racks. */
  @Override
  public boolean isMovable(Collection<DatanodeInfo> locs, DatanodeInfo source, DatanodeInfo target) {
    return RackSpreadRules.moveKeepsRacks(ReplicaRacks.beforeMove(locs, target), source.getNetworkLocation(),
        target.getNetworkLocation());
  }
}
