package org.bulwark.hdfs.balancer.exec;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.util.StringUtils;
import org.apache.hadoop.util.Time;
import org.bulwark.hdfs.balancer.plan.BlockCandidate;
import org.bulwark.hdfs.balancer.plan.Classification;
import org.bulwark.hdfs.balancer.plan.MovePlanner;
import org.bulwark.hdfs.balancer.plan.NodeUsage;
import org.bulwark.hdfs.balancer.plan.Plan;
import org.bulwark.hdfs.balancer.plan.PlannedMove;
import org.bulwark.hdfs.balancer.plan.UtilisationClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs iterations of the availability policy over every block pool at once: one storage report
 * (all pools share the DataNodes, so DataNode-level utilisation is the same from every NameNode),
 * classification, {@code getBlocks} for the sources of each pool, one plan across the pools, then
 * the moves, rack-adding ones first. Planning across pools is why a federated cluster converges in
 * fewer iterations than the stock balancer, which plans each pool as if it alone had to move
 * every DataNode's excess.
 */
public final class AvailabilityBalancer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(AvailabilityBalancer.class);

  private final List<NameNodeConnector> connectors;
  private final BalancerSettings settings;
  private final Configuration conf;
  private final Path idPath;
  /** This iteration's movers, one per block pool; empty between iterations. */
  private final List<PoolMover> movers = new ArrayList<>();
  private final RecentMoves recent;
  private List<BlockCandidate> givenUp = new ArrayList<>();
  private final BlockFetcher fetcher;
  private final HostMatcher included;
  private final HostMatcher excluded;
  private final HostMatcher sources;
  private final HostMatcher excludedSources;
  private final HostMatcher targets;
  private final HostMatcher excludedTargets;
  private final RunRecord record = new RunRecord();
  private final BalancerRunMetrics metrics = BalancerRunMetrics.get();
  private long spreadBytes;
  /** What the run's lock files reserve, read at the first iteration (their pipelines are set by then). */
  private Map<String, Long> ownReservations;

  public AvailabilityBalancer(List<NameNodeConnector> connectors, BalancerSettings settings,
      Configuration conf, Path idPath) {
    this.connectors = connectors;
    this.settings = settings;
    this.conf = conf;
    this.idPath = idPath;
    this.recent = new RecentMoves(settings.movedWinWidth());
    this.fetcher = new BlockFetcher(connectors, settings.getBlocksSize(),
        settings.getBlocksMinBlockSize(), settings.hotBlockTimeInterval());
    this.included = new HostMatcher(settings.includedHosts());
    this.excluded = new HostMatcher(settings.excludedHosts());
    this.sources = new HostMatcher(settings.sourceHosts());
    this.excludedSources = new HostMatcher(settings.excludedSourceHosts());
    this.targets = new HostMatcher(settings.targetHosts());
    this.excludedTargets = new HostMatcher(settings.excludedTargetHosts());
    metrics.startRun();
  }

  public RunRecord record() {
    return record;
  }

  /** Counts blocks by racks before the first iteration (for {@code -report}). */
  public void countBlocksBefore() throws IOException {
    record.blocksByRacksBefore = BlocksByRackCount.count(connectors, idPath);
  }

  /** Counts blocks by racks after the last iteration (for {@code -report}). */
  public void countBlocksAfter() throws IOException {
    record.blocksByRacksAfter = BlocksByRackCount.count(connectors, idPath);
  }

  public IterationResult runIteration() throws IOException {
    metrics.iterationRunning.set(1);
    long started = Time.monotonicNow();
    recent.startIteration(started, givenUp);
    givenUp = new ArrayList<>();
    for (NameNodeConnector c : connectors) {
      movers.add(new PoolMover(c, settings, conf, connectors.size()));
    }
    try {
      return iterate(started);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while moving blocks");
    } finally {
      closeMovers();
      metrics.iterationRunning.set(0);
      metrics.recordRun(record);
    }
  }

  private IterationResult iterate(long started) throws IOException, InterruptedException {
    if (ownReservations == null) {
      ownReservations = LockFileReservations.read(connectors, idPath);
    }
    NodeTable table = new NodeTable(connectors.get(0).getLiveDatanodeStorageReport(), ownReservations);
    Predicate<DatanodeInfo> participates = dn -> dn.isInService() && !excluded.matches(dn)
        && included.matchesOrEmpty(dn);
    UtilisationFigures figures = UtilisationFigures.of(table, participates);
    if (record.before == null) {
      record.before = figures;
    }
    record.after = figures;

    Map<StorageType, Classification> classes = classify(table, participates);
    long bytesLeft = 0;
    for (Classification c : classes.values()) {
      bytesLeft += c.bytesLeftToMove();
    }
    if (record.bytesMinToMove < 0) {
      record.bytesMinToMove = bytesLeft;
    }
    Moves moves = new Moves(movers.size());
    boolean spreading = bytesLeft == 0;
    if (spreading) {
      if (!settings.spreadRacks() || spreadBytes >= settings.spreadMaxBytes()) {
        return result(ExitStatus.SUCCESS, 0, false, moves);
      }
    } else {
      LOG.info("Need to move {} to make the cluster balanced.", StringUtils.byteDesc(bytesLeft));
    }
    if (!settings.runDuringUpgrade() && anyUpgrading()) {
      // While an upgrade is not finalized a DataNode keeps what it deletes, so moves would only fill it.
      System.err.println("Balancer exiting as upgrade is not finalized, "
          + "please finalize the HDFS upgrade before running the balancer.");
      return result(ExitStatus.UNFINALIZED_UPGRADE, bytesLeft, false, moves);
    }

    for (PoolMover m : movers) {
      for (int node = 0; node < table.size(); node++) {
        if (participates.test(table.datanode(node))) {
          m.register(table, node);
        }
      }
    }
    MovePlanner planner = new MovePlanner(table.rackOf(), new PlacementMoveCheck(conf, table));
    long deadline = settings.maxIterationTime() < 0 ? Long.MAX_VALUE : started + settings.maxIterationTime();
    for (Map.Entry<StorageType, Classification> e : classes.entrySet()) {
      planAndMove(table, planner, e.getKey(), e.getValue(), spreading, moves, deadline);
    }
    if (!moves.anyPlanned) {
      if (spreading) {
        return result(ExitStatus.SUCCESS, 0, true, moves);
      }
      if (classes.values().stream().noneMatch(Classification::hasStockPairing)) {
        return result(ExitStatus.NO_MOVE_BLOCK, bytesLeft, false, moves);
      }
      // As the stock balancer: a source and a target that no block can join yet make an idle iteration,
      // not an exit. The last iteration's sources may not have reported their deletions yet.
    }
    long movedBlocks = 0;
    for (int p = 0; p < movers.size(); p++) {
      movedBlocks += moves.moved[p];
      record.movesAddingRack += moves.adding[p];
    }
    record.moves += movedBlocks;
    record.bytesMoved += moves.bytes;
    record.bytesFailed += moves.bytesFailed;
    record.bytesRefused += moves.bytesRefused;
    record.movesAddingRackPossible += moves.addingPossible;
    if (movedBlocks > 0) {
      record.iterationsWithMoves++;
    }
    if (spreading) {
      spreadBytes += moves.bytes;
    }
    boolean keepGoing = true;
    for (NameNodeConnector c : connectors) {
      keepGoing &= c.shouldContinue(moves.bytes);
    }
    return result(keepGoing ? ExitStatus.IN_PROGRESS : ExitStatus.NO_MOVE_PROGRESS, bytesLeft, spreading, moves);
  }

  /** Whether any block pool's NameNode has an upgrade not finalized (the stock balancer asks each pool's). */
  private boolean anyUpgrading() throws IOException {
    for (NameNodeConnector c : connectors) {
      if (c.isUpgrading()) {
        return true;
      }
    }
    return false;
  }

  /** The stock classification of each movable storage type present; publishes its counts. */
  private Map<StorageType, Classification> classify(NodeTable table, Predicate<DatanodeInfo> participates) {
    Map<StorageType, Classification> classes = new EnumMap<>(StorageType.class);
    long bytesLeft = 0;
    int over = 0;
    int under = 0;
    for (StorageType type : StorageType.getMovableTypes()) {
      List<NodeUsage> usages = table.usages(type, participates,
          dn -> sources.matchesOrEmpty(dn) && !excludedSources.matches(dn),
          dn -> targets.matchesOrEmpty(dn) && !excludedTargets.matches(dn), settings.defaultBlockSize());
      if (usages.isEmpty()) {
        continue;
      }
      Classification c = Classification.classify(table.size(), usages, settings.threshold(),
          settings.maxSizeToMove(), settings.limitOverUtilised(), settings.sortTopNodes());
      classes.put(type, c);
      bytesLeft += c.bytesLeftToMove();
      for (int node = 0; node < table.size(); node++) {
        over += c.classOf(node) == UtilisationClass.OVER_UTILISED ? 1 : 0;
        under += c.classOf(node) == UtilisationClass.UNDER_UTILISED ? 1 : 0;
      }
    }
    metrics.bytesLeftToMove.set(bytesLeft);
    metrics.overUtilisedDataNodes.set(over);
    metrics.underUtilisedDataNodes.set(under);
    return classes;
  }

  /** Fetches the sources' blocks of one storage type, plans, and moves: rack-adding moves first. */
  private void planAndMove(NodeTable table, MovePlanner planner, StorageType type, Classification c,
      boolean spreading, Moves moves, long deadline) throws IOException, InterruptedException {
    FetchedBlocks fetched = new FetchedBlocks();
    for (int node = 0; node < table.size(); node++) {
      long toGive = spreading ? spreadFetchBytes(c, node) : (c.classOf(node).isSource() ? c.maxBytesToMove(node) : 0);
      if (toGive > 0) {
        fetcher.fetch(table, node, type, toGive, fetched);
      }
    }
    Map<Integer, List<BlockCandidate>> candidates = fetched.bySource();
    int excluded = recent.filter(candidates);
    Plan plan = spreading
        ? planner.spread(c, candidates, settings.spreadMaxBytes() - spreadBytes)
        : planner.balance(c, candidates);
    LOG.info("{}: {} getBlocks calls, {} blocks left out (moved within dfs.balancer.movedWinWidth or given up "
        + "last iteration), {} moves planned ({} adding a rack), {}", type, fetched.rpcs(), excluded,
        plan.moves().size(), plan.movesAddingRack(), StringUtils.byteDesc(plan.bytes()));
    if (plan.isEmpty()) {
      return;
    }
    if (!spreading) {
      record.bytesLeast += plan.leastBytes() >= 0 ? plan.leastBytes() : c.bytesLeftToMove();
    }
    moves.anyPlanned = true;
    List<PlannedMove> addingMoves = new ArrayList<>();
    List<PlannedMove> keepingMoves = new ArrayList<>();
    List<Set<Integer>> targets = new ArrayList<>();
    for (int p = 0; p < movers.size(); p++) {
      targets.add(new HashSet<>());
    }
    for (PlannedMove m : plan.moves()) {
      moves.planned[m.block().pool()] += m.block().size();
      targets.get(m.block().pool()).add(m.target());
      (m.addsRack() ? addingMoves : keepingMoves).add(m);
    }
    for (int p = 0; p < movers.size(); p++) {
      movers.get(p).threadsForTargets(targets.get(p).size());
    }
    long[] done = execute(addingMoves, plan, table, fetched, type, deadline, moves);
    for (int p = 0; p < movers.size(); p++) {
      moves.adding[p] += done[p];
      moves.moved[p] += done[p];
    }
    done = execute(keepingMoves, plan, table, fetched, type, deadline, moves);
    for (int p = 0; p < movers.size(); p++) {
      moves.moved[p] += done[p];
    }
  }

  private long spreadFetchBytes(Classification c, int node) {
    if (!c.hasUsage(node) || !c.sourceAllowed(node)) {
      return 0;
    }
    double room = c.utilisation(node) - c.average() + c.threshold() * MovePlanner.BAND_FRACTION;
    long canGive = (long) (Math.max(0, room) * c.capacity(node) / 100.0);
    return Math.min(Math.min(canGive, settings.maxSizeToMove()), settings.spreadMaxBytes() - spreadBytes);
  }

  /**
   * Offers the moves to the dispatchers ({@link SubmissionLoop}) and counts what they did: bytes moved,
   * failed (handed over but not confirmed) and refused (given up); remembers every move handed over
   * and every one given up for the next iterations' plans.
   *
   * @return blocks moved per pool
   */
  private long[] execute(List<PlannedMove> planned, Plan plan, NodeTable table, FetchedBlocks fetched,
      StorageType type, long deadline, Moves moves) throws InterruptedException {
    long[] blocksBefore = new long[movers.size()];
    long bytesBefore = 0;
    for (int p = 0; p < movers.size(); p++) {
      blocksBefore[p] = movers.get(p).blocksMoved();
      bytesBefore += movers.get(p).bytesMoved();
    }
    SubmissionLoop.Dispatch dispatch = new SubmissionLoop.Dispatch() {
      @Override
      public SubmissionLoop.Offer offer(PlannedMove m) {
        SubmissionLoop.Offer offer = movers.get(m.block().pool()).submit(fetched.located(m.block()),
            table.datanode(m.source()).getDatanodeUuid(), table.datanode(m.target()).getDatanodeUuid(), type);
        if (offer == SubmissionLoop.Offer.ACCEPTED) {
          recent.handedOver(m.block(), Time.monotonicNow());
        }
        return offer;
      }

      @Override
      public void awaitProgress(long maxMillis) throws InterruptedException {
        // Any pool's finished move can free a node all pools share; each dispatcher wakes only its own waiters.
        long slice = Math.max(1, maxMillis / movers.size());
        for (PoolMover mover : movers) {
          mover.awaitProgress(slice);
        }
      }

      @Override
      public void awaitAll() {
        for (PoolMover mover : movers) {
          mover.awaitMoves();
        }
      }
    };
    SubmissionLoop.Outcome outcome = new SubmissionLoop(dispatch, settings.maxNoMoveInterval(), deadline,
        Time::monotonicNow).run(planned);
    long[] out = new long[movers.size()];
    long bytesAfter = 0;
    for (int p = 0; p < movers.size(); p++) {
      out[p] = movers.get(p).blocksMoved() - blocksBefore[p];
      bytesAfter += movers.get(p).bytesMoved();
    }
    long handedOverBytes = 0;
    long acceptedPossible = 0;
    long completed = 0;
    for (PlannedMove m : outcome.accepted) {
      handedOverBytes += m.block().size();
      acceptedPossible += plan.couldAddRack(m) ? 1 : 0;
    }
    for (long moved : out) {
      completed += moved;
    }
    // Counted over the moves that completed, as the moves and rack-adding moves are: a handed-over move
    // that failed at a DataNode counts in neither.
    moves.addingPossible += Math.min(completed, acceptedPossible);
    long movedBytes = bytesAfter - bytesBefore;
    moves.bytes += movedBytes;
    moves.bytesFailed += Math.max(0, handedOverBytes - movedBytes);
    for (PlannedMove m : outcome.givenUp) {
      moves.bytesRefused += m.block().size();
      givenUp.add(m.block());
    }
    if (!outcome.givenUp.isEmpty()) {
      LOG.info("{} planned moves given up (nodes busy or delayed after failed moves for dfs.balancer.max-no-move-interval, "
          + "or the iteration's time was up); the next iteration plans around them", outcome.givenUp.size());
    }
    return out;
  }

  private IterationResult result(ExitStatus status, long bytesLeft, boolean spreading, Moves moves) {
    List<PoolProgress> lines = new ArrayList<>();
    for (int p = 0; p < movers.size(); p++) {
      PoolMover m = movers.get(p);
      lines.add(new PoolProgress(m.connector().getNameNodeUri(), m.bytesMoved(), moves.planned[p],
          m.blocksMoved(), moves.moved[p], moves.adding[p]));
    }
    return new IterationResult(status, bytesLeft, spreading, lines);
  }

  /** What one iteration planned and moved, per block pool. */
  private static final class Moves {
    final long[] planned;
    final long[] moved;
    final long[] adding;
    long bytes;
    long bytesFailed;
    long bytesRefused;
    long addingPossible;
    boolean anyPlanned;

    Moves(int pools) {
      planned = new long[pools];
      moved = new long[pools];
      adding = new long[pools];
    }
  }

  private void closeMovers() {
    for (PoolMover m : movers) {
      m.close();
    }
    movers.clear();
  }

  @Override
  public void close() {
    closeMovers();
  }
}
