package org.bulwark.hdfs.balancer.exec;

import java.io.Closeable;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher.DBlock;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher.DDatanode;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher.DDatanode.StorageGroup;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher.PendingMove;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher.Source;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

/**
 * Carries out one iteration's moves of one block pool through Hadoop's {@code Dispatcher}, the public
 * path the stock Mover drives: {@code Source.addPendingMove} re-checks each move (not moved in this
 * iteration, no replica on the target, the placement policy's {@code isMovable}, source, proxy and
 * target not busy or delayed) and picks the proxy, and the DataNodes copy the block and tell the
 * NameNode to drop the source replica. Like the stock balancer's reset between iterations, each
 * iteration has a mover of its own, built on that iteration's DataNode report: busy counts, failure
 * delays and thread allotments start afresh, and the moved-block window across iterations is kept by
 * {@link RecentMoves}.
 */
final class PoolMover implements Closeable {
  private final NameNodeConnector connector;
  private final BalancerSettings settings;
  private final Dispatcher dispatcher;
  private final Map<String, DDatanode> datanodes = new HashMap<>();
  private final Map<String, Source> groups = new HashMap<>();
  private final int pools;

  /** @param pools the block pools moving at once, this one included (see {@link DispatcherFactory#create}) */
  PoolMover(NameNodeConnector connector, BalancerSettings settings, Configuration conf, int pools) {
    this.connector = connector;
    this.settings = settings;
    this.pools = pools;
    this.dispatcher = DispatcherFactory.create(connector, settings, conf, pools);
  }

  NameNodeConnector connector() {
    return connector;
  }

  /** Makes a DataNode's storages known, as source, target and proxy alike. */
  void register(NodeTable table, int node) {
    DatanodeInfo dn = table.datanode(node);
    String uuid = dn.getDatanodeUuid();
    DDatanode d = datanodes.get(uuid);
    if (d == null) {
      d = dispatcher.newDatanode(dn);
      datanodes.put(uuid, d);
      if (!dispatcher.getCluster().contains(dn)) {
        dispatcher.getCluster().add(dn);
      }
    }
    for (StorageReport s : table.storages(node)) {
      StorageType type = s.getStorage().getStorageType();
      String key = key(uuid, type);
      if (!groups.containsKey(key)) {
        Source g = d.addSource(type, Long.MAX_VALUE, dispatcher);
        dispatcher.getStorageGroupMap().put(g);
        groups.put(key, g);
      }
    }
  }

  /**
   * Hands one move to the dispatcher.
   *
   * @return REFUSED when the dispatcher refused it now (a node busy, or the block not movable); DROPPED when it
   *     can take it in no turn of this iteration (its source or target has no such storage here, or Hadoop
   *     dropped it for want of a mover thread, having marked the block moved)
   */
  SubmissionLoop.Offer submit(BlockWithLocations block, String sourceUuid, String targetUuid, StorageType type) {
    Source source = groups.get(key(sourceUuid, type));
    StorageGroup target = groups.get(key(targetUuid, type));
    if (source == null || target == null) {
      return SubmissionLoop.Offer.DROPPED;
    }
    DBlock dblock = new DBlock(block.getBlock());
    String[] uuids = block.getDatanodeUuids();
    StorageType[] types = block.getStorageTypes();
    for (int i = 0; i < uuids.length; i++) {
      Source holder = groups.get(key(uuids[i], types[i]));
      if (holder != null) {
        dblock.addLocation(holder);
      }
    }
    PendingMove move = source.addPendingMove(dblock, target);
    if (move == null) {
      return SubmissionLoop.Offer.REFUSED;
    }
    dispatcher.executePendingMove(move);
    return MoverThreads.running(datanodes.get(targetUuid)) ? SubmissionLoop.Offer.ACCEPTED : SubmissionLoop.Offer.DROPPED;
  }

  /**
   * Readies the mover threads for one storage type's moves into {@code targets} receiving DataNodes: the
   * previous type's moves are over, so their threads are stopped and the pool's threads shared afresh
   * among these targets, as the stock balancer shares them among an iteration's targets.
   */
  void threadsForTargets(int targets) {
    MoverThreads.shutdown(datanodes.values());
    DispatcherFactory.applyThreadsPerTarget(dispatcher, settings, pools, targets);
  }

  /** Returns once any move of this pool finished (the dispatcher is notified), or after {@code maxMillis}. */
  void awaitProgress(long maxMillis) throws InterruptedException {
    synchronized (dispatcher) {
      dispatcher.wait(maxMillis);
    }
  }

  /** Blocks until every submitted move finished or failed. */
  void awaitMoves() {
    Dispatcher.waitForMoveCompletion(groups.values());
  }

  long bytesMoved() {
    return ConnectorCalls.bytesMoved(connector);
  }

  long blocksMoved() {
    return ConnectorCalls.blocksMoved(connector);
  }

  @Override
  public void close() {
    dispatcher.shutdownNow();
    MoverThreads.shutdown(datanodes.values());
  }

  private static String key(String uuid, StorageType type) {
    return uuid + ":" + type;
  }
}
