package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatusDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.Time;
import org.bulwark.hdfs.placement.rules.EvenFillRackChooser;
import org.bulwark.hdfs.placement.rules.FallbackCause;
import org.bulwark.hdfs.placement.rules.PerCauseLogGate;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.RackSpreadRules;
import org.bulwark.hdfs.placement.rules.RejectionTally;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica per rack: a block of replication factor R survives the loss of any R-1 racks.
 *
 * <p>The first replica goes where Hadoop's default policy puts it (the writer's node when the writer
 * is a DataNode). Each further replica goes to a rack holding none of the block yet, chosen by
 * {@link EvenFillRackChooser} so that racks fill evenly, and inside that rack the less utilised of two
 * DataNodes drawn at random, so that DataNodes fill evenly too; when there are fewer racks than
 * replicas, replicas go round the racks so per-rack counts differ by at most one. Storage types the racks do not
 * all offer (a WARM block's ARCHIVE on some racks only) are placed scarcest first, on racks no other type the block
 * still wants needs, and the first replica of a writer whose own node cannot take it is placed so too, not at
 * random (see {@link StorageTypePlaces#placedFirst}). If no acceptable node
 * is left on such racks (all excluded, full, stale or decommissioning), the policy falls back to any
 * node the default policy would accept, counts the fallback by cause ({@link PlacementMetrics}), logs it
 * once per cause per {@link PlacementKeys#FALLBACK_LOG_INTERVAL}, and the block shows as mis-replicated
 * until the NameNode can repair it: a write never fails because the ideal was out of reach.
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
  private PlacementMetrics metrics = new PlacementMetrics(getClass().getSimpleName());
  private long logIntervalMillis = PlacementKeys.FALLBACK_LOG_INTERVAL.get(new Configuration(false));
  private PerCauseLogGate logGate = new PerCauseLogGate(logIntervalMillis);
  /** Read as the default policy reads them, only to name why a node was turned down. */
  private long staleIntervalMillis = DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT;
  private boolean excludeSlowNodes;
  /**
   * The favored nodes a favored-node write on this thread kept, handed from {@link #chooseFavouredNodes}
   * to the choice of the remaining replicas, which Hadoop starts with an empty list of chosen nodes. The
   * write's excluded-node set identifies it (see {@link FavoredChosen#isFor}); a hand-over no later call
   * matches is dropped by that call, so it never reaches another write.
   */
  private final ThreadLocal<FavoredChosen> favoredChosen = new ThreadLocal<>();

  private static final class FavoredChosen {
    /** The excluded-node set Hadoop passes on to the choice of the remaining replicas. */
    final Set<Node> request;
    /** Its contents when the favored nodes were chosen. */
    final Set<Node> requestNodes;
    final List<DatanodeStorageInfo> storages;

    FavoredChosen(Set<Node> request, List<DatanodeStorageInfo> storages) {
      this.request = request;
      this.requestNodes = new HashSet<>(request);
      this.storages = storages;
    }

    /**
     * Whether a choice with these excluded nodes is the rest of this favored-node write: Hadoop passes the
     * same set, or with {@code NO_LOCAL_RACK} / {@code NO_LOCAL_WRITE} a copy of it plus the writer's rack or
     * the writer (tried first; on too few targets it retries with the set itself).
     */
    boolean isFor(Set<Node> excludedNodes, Node writer) {
      if (excludedNodes == request) {
        return true;
      }
      if (writer == null || excludedNodes.size() < requestNodes.size() || !excludedNodes.containsAll(requestNodes)) {
        return false;
      }
      for (Node n : excludedNodes) {
        if (!requestNodes.contains(n) && !n.equals(writer)
            && !n.getNetworkLocation().equals(writer.getNetworkLocation())) {
          return false;
        }
      }
      return true;
    }
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.fill = new RackFillTracker(PlacementKeys.RACK_FILL_REFRESH.get(conf));
    this.logIntervalMillis = PlacementKeys.FALLBACK_LOG_INTERVAL.get(conf);
    this.logGate = new PerCauseLogGate(logIntervalMillis);
    this.staleIntervalMillis = conf.getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
    this.excludeSlowNodes = conf.getBoolean(DFSConfigKeys.DFS_DATANODE_PEER_STATS_ENABLED_KEY,
        DFSConfigKeys.DFS_DATANODE_PEER_STATS_ENABLED_DEFAULT)
        && conf.getBoolean(DFSConfigKeys.DFS_NAMENODE_BLOCKPLACEMENTPOLICY_EXCLUDE_SLOW_NODES_ENABLED_KEY,
        DFSConfigKeys.DFS_NAMENODE_BLOCKPLACEMENTPOLICY_EXCLUDE_SLOW_NODES_ENABLED_DEFAULT);
    TopologyTableCheck.check(conf);
    this.metrics = new PlacementMetrics(getClass().getSimpleName()).register();
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  protected int[] getMaxNodesPerRack(int numOfChosen, int numOfReplicas) {
    int[] fitting = fitToCluster(numOfChosen, numOfReplicas);
    return new int[] {fitting[0], RackSpreadRules.maxReplicasPerRack(fitting[1], clusterMap.getNumOfNonEmptyRacks())};
  }

  /**
   * The replicas still to choose and the block's total, both cut to the DataNodes the cluster has (as
   * the default policy cuts them).
   */
  protected final int[] fitToCluster(int numOfChosen, int numOfReplicas) {
    int clusterSize = clusterMap.getNumOfLeaves();
    int total = numOfChosen + numOfReplicas;
    if (total > clusterSize) {
      numOfReplicas -= total - clusterSize;
      total = clusterSize;
    }
    return new int[] {numOfReplicas, total};
  }

  /**
   * Favored nodes (HBase region servers write this way) are kept as far as the rules allow: at most one
   * per rack while racks suffice (the default's per-rack limit, which this policy sets), and whatever a
   * subclass adds ({@link #favoredNodeAllowed}). The remaining replicas are then chosen as for any write,
   * on racks (and datacenters) the kept favored nodes do not use.
   *
   * <p>The rules are applied before Hadoop takes a favored node, one node at a time: each node Hadoop takes
   * uses up an entry of the write's storage types, which Hadoop then hands, as they are, to the choice of the
   * remaining replicas; a node dropped after being taken would leave that choice short of a storage type, and
   * the block short of a replica. Nodes the rules turn down are not offered, so Hadoop does not log its
   * "Could not find a target" warning for them either (it still does for a favored node it cannot use).
   */
  @Override
  protected void chooseFavouredNodes(String src, int numOfReplicas, List<DatanodeDescriptor> favoredNodes,
      Set<Node> favoriteAndExcludedNodes, long blocksize, int maxNodesPerRack, List<DatanodeStorageInfo> results,
      boolean avoidStaleNodes, EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    favoredChosen.remove();
    for (DatanodeDescriptor favored : favoredNodes) {
      if (results.size() >= numOfReplicas) {
        break;
      }
      if (!favoredNodeAllowed(favored.getNetworkLocation(), racksOf(results), numOfReplicas, maxNodesPerRack)) {
        LOG.debug("Favored node {} of {} not used: the placement rules place the replica elsewhere", favored, src);
        continue;
      }
      super.chooseFavouredNodes(src, numOfReplicas, Collections.singletonList(favored), favoriteAndExcludedNodes,
          blocksize, maxNodesPerRack, results, avoidStaleNodes, storageTypes);
    }
    if (results.size() < numOfReplicas) {
      favoredChosen.set(new FavoredChosen(favoriteAndExcludedNodes, new ArrayList<>(results)));
    }
  }

  /**
   * Whether the rules let a favored node on {@code rack} join favored nodes kept on {@code keptRacks}, for a
   * block of {@code numOfReplicas}: here, the per-rack limit.
   */
  protected boolean favoredNodeAllowed(String rack, List<String> keptRacks, int numOfReplicas, int maxNodesPerRack) {
    return RackSpreadRules.rackHasRoom(rack, keptRacks, maxNodesPerRack);
  }

  private static List<String> racksOf(List<DatanodeStorageInfo> storages) {
    List<String> racks = new ArrayList<>(storages.size());
    for (DatanodeStorageInfo s : storages) {
      racks.add(s.getDatanodeDescriptor().getNetworkLocation());
    }
    return racks;
  }

  @Override
  protected Node chooseTargetInOrder(int numOfReplicas, Node writer, Set<Node> excludedNodes, long blocksize,
      int maxNodesPerRack, List<DatanodeStorageInfo> results, boolean avoidStaleNodes, boolean newBlock,
      EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    FavoredChosen favored = favoredChosen.get();
    if (favored != null && !favored.isFor(excludedNodes, writer)) {
      favoredChosen.remove();
      favored = null;
    }
    // Kept while calls match: Hadoop may try the remaining replicas more than once (NO_LOCAL_RACK first).
    if (favored == null || !results.isEmpty()) {
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
    int total = results.size() + numOfReplicas;
    boolean placesFirst = false;
    if (results.isEmpty()) {
      // Hadoop's first replica: the writer's node, else its rack, else anywhere. With storage types not offered
      // alike, only the writer's node: else the first replica is placed by rack like the others, the scarcest type
      // first, lest a replica of a widely offered type take the one rack a scarcer type has.
      placesFirst = snapshot().storage.placedFirst(storageTypes.keySet()) != null;
      DatanodeStorageInfo first = writer == null && placesFirst ? null : chooseLocalStorage(writer, excludedNodes,
          blocksize, maxNodesPerRack, results, avoidStaleNodes, storageTypes, !placesFirst);
      placesFirst &= first == null;
      writer = first != null ? first.getDatanodeDescriptor() : null;
      if (!placesFirst && --numOfReplicas == 0) {
        return writer;
      }
    }
    RejectionTally<DatanodeDescriptor> rejections = new RejectionTally<>();
    Write write = new Write(total, excludedNodes, blocksize, results, avoidStaleNodes, storageTypes, rejections);
    int missing = chooseOnLeastUsedRacks(numOfReplicas, maxNodesPerRack, maxNodesPerRack, write);
    if (missing > 0) {
      fellBack(rejections.dominant(), rejections);
      int unlimited = results.size() + missing;
      missing = chooseOnLeastUsedRacks(missing, unlimited, unlimited, write);
    } else {
      FallbackCause broken = ruleBroken(results, total);
      if (broken != null) {
        fellBack(broken, rejections);
      }
    }
    if (missing > 0) {
      // Nothing acceptable is left anywhere: let the default search report it as Hadoop does.
      chooseRandom(missing, NodeBase.ROOT, excludedNodes, blocksize, results.size() + missing, results,
          avoidStaleNodes, storageTypes);
    }
    return placesFirst && !results.isEmpty() ? results.get(0).getDatanodeDescriptor() : writer;
  }

  /** What one call of the placement is choosing for, handed down to the choice of each node. */
  private static final class Write {
    final int total;
    final Set<Node> excludedNodes;
    final long blocksize;
    final List<DatanodeStorageInfo> results;
    final boolean avoidStaleNodes;
    final EnumMap<StorageType, Integer> storageTypes;
    final RejectionTally<DatanodeDescriptor> rejections;

    Write(int total, Set<Node> excludedNodes, long blocksize, List<DatanodeStorageInfo> results,
        boolean avoidStaleNodes, EnumMap<StorageType, Integer> storageTypes,
        RejectionTally<DatanodeDescriptor> rejections) {
      this.total = total;
      this.excludedNodes = excludedNodes;
      this.blocksize = blocksize;
      this.results = results;
      this.avoidStaleNodes = avoidStaleNodes;
      this.storageTypes = storageTypes;
      this.rejections = rejections;
    }

    /** Counts a replica of {@code type} placed apart from {@link #storageTypes} (see {@link #tryNodeForType}). */
    void placed(StorageType type) {
      int left = storageTypes.get(type);
      if (left == 1) {
        storageTypes.remove(type);
      } else {
        storageTypes.put(type, left - 1);
      }
    }
  }

  /**
   * A rule the placement {@code results} of a block of {@code total} replicas broke beyond the per-rack
   * spread (which the choice itself reports), or null; here none.
   */
  protected FallbackCause ruleBroken(List<DatanodeStorageInfo> results, int total) {
    return null;
  }

  /** Counts a fallback and logs it, once per cause per interval. */
  private void fellBack(FallbackCause cause, RejectionTally<DatanodeDescriptor> rejections) {
    metrics.count(cause);
    long heldBack = logGate.admit(cause, Time.monotonicNow());
    if (heldBack < 0) {
      return;
    }
    String why = cause == FallbackCause.DATACENTER && rejections.dominant() != FallbackCause.NO_RACK_LEFT
        ? " (its nodes were turned down for: " + rejections.dominant().words() + ")" : "";
    LOG.warn("{} placed a block outside its rules, cause: {}{}. It went to the least used racks that could take"
        + " it and shows as mis-replicated until the NameNode can repair it. {} more such placements for this cause"
        + " since the last line; logged at most once per cause per {} ms ({}), counted in metrics"
        + " BulwarkPlacement-{}.", getClass().getSimpleName(), cause.words(), why, heldBack,
        logIntervalMillis, PlacementKeys.FALLBACK_LOG_INTERVAL.getName(), getClass().getSimpleName());
  }

  /** The fallbacks counted so far (tests read them here; operators through metrics2). */
  PlacementMetrics metrics() {
    return metrics;
  }

  /**
   * Places replicas one at a time, each on a rack holding the fewest replicas of this block (none while
   * racks suffice) and fewer than {@code rackLimit}, the rack picked by fill among those. Returns how
   * many replicas could not be placed so.
   */
  private int chooseOnLeastUsedRacks(int numOfReplicas, int rackLimit, int maxNodesPerRack, Write write)
      throws NotEnoughReplicasException {
    TopologySnapshot snapshot = snapshot();
    Map<String, Integer> perRack = new HashMap<>();
    for (DatanodeStorageInfo s : write.results) {
      perRack.merge(s.getDatanodeDescriptor().getNetworkLocation(), 1, Integer::sum);
    }
    Set<String> exhausted = new HashSet<>();
    Map<StorageType, Set<String>> exhaustedForType = new EnumMap<>(StorageType.class);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    double maxLoad = considerLoadFactor * snapshot.meanXceivers;
    while (numOfReplicas > 0) {
      List<String> candidates = candidateRacks(snapshot.fill, write.results, perRack, exhausted, rackLimit,
          write.total, random);
      if (candidates.isEmpty()) {
        break;
      }
      String rack;
      DatanodeStorageInfo chosen;
      StorageType scarce = snapshot.storage.placedFirst(write.storageTypes.keySet());
      List<String> offering = scarce == null ? Collections.<String>emptyList()
          : offering(candidates, snapshot.storage.racksOffering(scarce), exhaustedForType.get(scarce));
      if (!offering.isEmpty()) {
        offering = snapshot.storage.leastContested(offering, scarce, write.storageTypes.keySet());
        rack = EvenFillRackChooser.choose(offering, snapshot.fill, random);
        chosen = chooseInRack(snapshot, rack, write, random,
            node -> tryNodeForType(node, scarce, snapshot, maxLoad, maxNodesPerRack, write));
        if (chosen == null) {
          exhaustedForType.computeIfAbsent(scarce, t -> new HashSet<>()).add(rack);
          continue;
        }
      } else {
        rack = EvenFillRackChooser.choose(candidates, snapshot.fill, random);
        chosen = chooseInRack(snapshot, rack, write, random, node -> tryNode(node, maxLoad, maxNodesPerRack, write));
        if (chosen == null) {
          exhausted.add(rack);
          continue;
        }
      }
      snapshot.fill.recordPlacement(rack, write.blocksize);
      perRack.merge(rack, 1, Integer::sum);
      numOfReplicas--;
    }
    return numOfReplicas;
  }

  /** The racks of {@code candidates} offering a type ({@code offering}) and not yet found unable to take it. */
  private static List<String> offering(List<String> candidates, Set<String> offering, Set<String> unable) {
    List<String> out = new ArrayList<>();
    for (String rack : candidates) {
      if (offering.contains(rack) && (unable == null || !unable.contains(rack))) {
        out.add(rack);
      }
    }
    return out;
  }

  /** One node tried for the replica being placed: its storage taking the replica, or null. */
  private interface NodeTry {
    DatanodeStorageInfo on(DatanodeDescriptor node) throws NotEnoughReplicasException;
  }

  /**
   * Chooses a node of {@code rack} with the default policy's checks (excluded, in service, stale, space,
   * storage type, per-rack limit, slow, and load as the default policy weighs it): first the less
   * utilised of two drawn at random (so DataNodes fill evenly), then any from a random one on. Returns
   * the storage chosen, or null when no node of the rack can take the replica.
   */
  private DatanodeStorageInfo chooseInRack(TopologySnapshot snapshot, String rack, Write write, Random random,
      NodeTry attempt) throws NotEnoughReplicasException {
    DatanodeDescriptor[] nodes = snapshot.nodesIn(rack);
    int n = nodes.length;
    if (n == 0) {
      return null;
    }
    int start = random.nextInt(n);
    if (n > 1) {
      DatanodeDescriptor a = nodes[start];
      DatanodeDescriptor b = nodes[EvenFillRackChooser.otherIndex(start, n, random)];
      if (utilisation(b, write.blocksize) < utilisation(a, write.blocksize)) {
        DatanodeDescriptor swap = a;
        a = b;
        b = swap;
      }
      DatanodeStorageInfo storage = attempt.on(a);
      if (storage == null) {
        storage = attempt.on(b);
      }
      if (storage != null) {
        return storage;
      }
    }
    for (int i = 0; i < n; i++) {
      DatanodeStorageInfo storage = attempt.on(nodes[(start + i) % n]);
      if (storage != null) {
        return storage;
      }
    }
    return null;
  }

  /** Used (and scheduled) over capacity of a DataNode; one that reported nothing yet counts as full. */
  private static double utilisation(DatanodeDescriptor node, long blocksize) {
    long capacity = node.getCapacity();
    if (capacity <= 0) {
      return 1.0;
    }
    return (capacity - node.getRemaining() + (double) node.getBlocksScheduled() * blocksize) / capacity;
  }

  /** The storage {@code node} takes the replica on, or null (the reason then counted). */
  private DatanodeStorageInfo tryNode(DatanodeDescriptor node, double maxLoad, int maxNodesPerRack, Write write)
      throws NotEnoughReplicasException {
    if (write.excludedNodes.contains(node)) {
      if (!write.rejections.counted(node) && !isChosen(node, write.results)) {
        write.rejections.reject(node, FallbackCause.EXCLUDED);
      }
      return null;
    }
    if (considerLoad && maxLoad > 0 && node.getXceiverCount() > maxLoad) {
      write.rejections.reject(node, FallbackCause.LOAD);
      return null;
    }
    // Hadoop's own check of one given node: in the topology, good, with a storage of a wanted type.
    DatanodeStorageInfo storage = chooseLocalOrFavoredStorage(node, true, write.excludedNodes, write.blocksize,
        maxNodesPerRack, write.results, write.avoidStaleNodes, write.storageTypes);
    if (storage == null) {
      write.rejections.reject(node, whyNot(node, write));
    }
    return storage;
  }

  /**
   * The storage {@code node} takes a replica of {@code type} alone on, or null. A node turned down here stays open
   * to the write's other types: Hadoop's check adds every node it tries to the excluded nodes, so a node without
   * room or a storage of this type is taken off them again, and no rejection is counted (another type may still
   * go there).
   */
  private DatanodeStorageInfo tryNodeForType(DatanodeDescriptor node, StorageType type, TopologySnapshot snapshot,
      double maxLoad, int maxNodesPerRack, Write write) throws NotEnoughReplicasException {
    Set<StorageType> offered = snapshot.storage.typesOf(node);
    if (offered != null && !offered.contains(type) || write.excludedNodes.contains(node)
        || considerLoad && maxLoad > 0 && node.getXceiverCount() > maxLoad) {
      return null;
    }
    EnumMap<StorageType, Integer> one = new EnumMap<>(StorageType.class);
    one.put(type, 1);
    DatanodeStorageInfo storage = chooseLocalOrFavoredStorage(node, true, write.excludedNodes, write.blocksize,
        maxNodesPerRack, write.results, write.avoidStaleNodes, one);
    if (storage == null) {
      write.excludedNodes.remove(node);
    } else {
      write.placed(type);
    }
    return storage;
  }

  private static boolean isChosen(DatanodeDescriptor node, List<DatanodeStorageInfo> results) {
    for (DatanodeStorageInfo s : results) {
      if (s.getDatanodeDescriptor().equals(node)) {
        return true;
      }
    }
    return false;
  }

  /** Why the default policy's checks turned {@code node} down, told apart in the order it checks. */
  private FallbackCause whyNot(DatanodeDescriptor node, Write write) {
    if (!node.isInService()) {
      return FallbackCause.DECOMMISSIONING;
    }
    if (write.avoidStaleNodes && node.isStale(staleIntervalMillis)) {
      return FallbackCause.STALE;
    }
    boolean typed = false;
    boolean room = false;
    for (StorageReport r : node.getStorageReports()) {
      DatanodeStorage s = r.getStorage();
      if (s.getState() == DatanodeStorage.State.NORMAL && write.storageTypes.containsKey(s.getStorageType())) {
        typed = true;
        room |= r.getRemaining() >= write.blocksize;
      }
    }
    if (!typed) {
      return FallbackCause.STORAGE_TYPE;
    }
    // In service, fresh and with room on disk: what is left of the checks is the slow-node list (or the
    // blocks already scheduled to the node taking its room).
    return room && excludeSlowNodes ? FallbackCause.SLOW : FallbackCause.SPACE;
  }

  /**
   * The racks that may take the next replica of a block that has {@code results} so far; the rack fill
   * then picks among them. Here: the racks holding the fewest replicas of the block.
   */
  protected List<String> candidateRacks(RackFill snapshot, List<DatanodeStorageInfo> results,
      Map<String, Integer> perRack, Set<String> exhausted, int rackLimit, int total, Random random) {
    return RackSpreadRules.leastUsedRacks(snapshot.racks(), perRack, exhausted, rackLimit);
  }

  /** The current rack fill (refreshed at most every {@link PlacementKeys#RACK_FILL_REFRESH}). */
  protected RackFill rackFill() {
    return snapshot().fill;
  }

  TopologySnapshot snapshot() {
    return fill.get(clusterMap);
  }

  /**
   * Mis-replicated when the block spans fewer racks than it could on the racks that have DataNodes in
   * service now offering its replicas' storage types ({@link StorageTypePlaces}), never for a shape the
   * cluster cannot improve on (which would make the NameNode retry reconstruction forever).
   */
  @Override
  public BlockPlacementStatus verifyBlockPlacement(DatanodeInfo[] locs, int numberOfReplicas) {
    Set<String> racks = new HashSet<>();
    if (locs != null) {
      for (DatanodeInfo dn : locs) {
        racks.add(dn.getNetworkLocation());
      }
    }
    TopologySnapshot snapshot = snapshot();
    int inService = snapshot.fill.racks().size();
    int required = RackSpreadRules.requiredRacks(numberOfReplicas, snapshot.storage.reachableRacks(locs, numberOfReplicas));
    return new BlockPlacementStatusDefault(racks.size(), required, inService);
  }

  /**
   * Excess replicas are deleted from racks holding more than one replica of the block first
   * ({@link #deletionPreference}), then from the others. Each group is asked in turn for a replica of a storage type
   * in excess, with the default policy's choice inside it (oldest heartbeat, else least space): a group holding no
   * replica of an excess type (a HOT block's DISK replicas sharing a rack, its one ARCHIVE replica the excess) must
   * not leave the block over-replicated for good.
   */
  @Override
  public DatanodeStorageInfo chooseReplicaToDelete(Collection<DatanodeStorageInfo> moreThanOne,
      Collection<DatanodeStorageInfo> exactlyOne, List<StorageType> excessTypes,
      Map<String, List<DatanodeStorageInfo>> rackMap) {
    List<Collection<DatanodeStorageInfo>> groups = deletionPreference(moreThanOne, exactlyOne);
    groups = groups.subList(0, groupsAsked(groups.size(), moreThanOne, rackMap));
    // Inside a group, replicas of a type the storage policy wants none of go before replicas of a type it wants
    // fewer of: of a HOT block's ARCHIVE and DISK replicas sharing a rack the ARCHIVE one goes (the DISK one going
    // left the ARCHIVE one alone on its rack, there to stay or to take the rack with it).
    List<StorageType> unwanted = unwantedTypes(excessTypes, moreThanOne, exactlyOne);
    List<List<StorageType>> typeOrder = unwanted.isEmpty() || unwanted.size() == excessTypes.size()
        ? Collections.singletonList(excessTypes) : Arrays.asList(unwanted, excessTypes);
    for (Collection<DatanodeStorageInfo> group : groups) {
      for (List<StorageType> types : typeOrder) {
        // The default policy's choice inside one group: pickupReplicaSet below hands it the group.
        DatanodeStorageInfo chosen = group.isEmpty() ? null : super.chooseReplicaToDelete(group,
            Collections.<DatanodeStorageInfo>emptyList(), new ArrayList<>(types), rackMap);
        if (chosen != null) {
          excessTypes.remove(chosen.getStorageType());
          return chosen;
        }
      }
    }
    return null;
  }

  /** The {@code excessTypes} (as many times as listed) of which every replica left is in excess. */
  private static List<StorageType> unwantedTypes(List<StorageType> excessTypes,
      Collection<DatanodeStorageInfo> moreThanOne, Collection<DatanodeStorageInfo> exactlyOne) {
    Map<StorageType, Integer> held = new EnumMap<>(StorageType.class);
    for (Collection<DatanodeStorageInfo> group : Arrays.asList(moreThanOne, exactlyOne)) {
      for (DatanodeStorageInfo s : group) {
        held.merge(s.getStorageType(), 1, Integer::sum);
      }
    }
    Map<StorageType, Integer> excess = new EnumMap<>(StorageType.class);
    for (StorageType t : excessTypes) {
      excess.merge(t, 1, Integer::sum);
    }
    List<StorageType> unwanted = new ArrayList<>();
    for (StorageType t : excessTypes) {
      if (excess.get(t) >= held.getOrDefault(t, 0)) {
        unwanted.add(t);
      }
    }
    return unwanted;
  }

  /**
   * How many of the {@code groups} {@link #deletionPreference} gave may lose a replica. As the default policy: a
   * block on two racks, one of them holding more than one of its replicas, loses replicas from that rack only, or
   * none (left over-replicated rather than on one rack; the mover, say, fixes a replica's type).
   */
  protected int groupsAsked(int groups, Collection<DatanodeStorageInfo> moreThanOne,
      Map<String, List<DatanodeStorageInfo>> rackMap) {
    return rackMap.size() == 2 && !moreThanOne.isEmpty() ? 1 : groups;
  }

  /**
   * The groups of replicas excess ones are deleted from, most preferred first: here replicas on racks holding more
   * than one replica of the block, then the rest.
   */
  protected List<Collection<DatanodeStorageInfo>> deletionPreference(Collection<DatanodeStorageInfo> moreThanOne,
      Collection<DatanodeStorageInfo> exactlyOne) {
    return Arrays.asList(moreThanOne, exactlyOne);
  }

  /** Of the group {@link #chooseReplicaToDelete} hands the default policy's choice, the replicas it chooses among. */
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
