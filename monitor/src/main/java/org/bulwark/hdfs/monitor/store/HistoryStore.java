package org.bulwark.hdfs.monitor.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.MissingBlock;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.monitor.history.StateSpan;

/**
 * Where the monitor keeps history: replica intervals, file memberships, DataNode states and block
 * events. One writer (the poller) records each poll's changes atomically, and one only, however many monitors
 * point at the store (the writer lease: see {@link JdbcHistoryStore}); the web UI reads. Drivers:
 * {@link JdbcHistoryStore} over an embedded H2 file or a PostgreSQL server.
 */
public interface HistoryStore extends Closeable {
  /** Which engine and where, for logs and the UI. */
  String describe();

  int namespaceId(String uri) throws IOException;

  /**
   * The namespace whose history a namespace reached at {@code uri} continues, now that one of its blocks
   * showed its block pool; {@code namespaceId} is {@link #namespaceId}'s answer for {@code uri}. The same
   * block pool known under another URI: that history, now under {@code uri} (when {@code namespaceId} has
   * none of its own). Another block pool than {@code namespaceId}'s (formatted again): {@code namespaceId}'s
   * history is closed at {@code time} and kept under a retired name, and {@code uri} starts a new one.
   */
  int claimBlockPool(int namespaceId, String uri, String blockPool, long time) throws IOException;

  int dataNodeId(String uuid, String host, String xferAddress, String rack) throws IOException;

  int storageId(int dataNodeId, String storageUuid, String storageType) throws IOException;

  /** The open intervals of a namespace (and every DataNode's open state), to diff the next poll against. */
  NamespaceState loadState(int namespaceId) throws IOException;

  /** Writes one poll's changes and its summary in one transaction: all or nothing. */
  void record(PollChanges changes, PollSummary summary) throws IOException;

  /** The history of every block with this id (one per namespace that has it). */
  List<BlockHistory> blockHistory(long blockId) throws IOException;

  /** The history of the blocks that ever belonged to a file at {@code path}. */
  List<BlockHistory> fileHistory(String path) throws IOException;

  /** What a DataNode (by UUID or host name) held, newest first, at most {@code limit} replica spans. */
  List<ReplicaSpan> dataNodeReplicas(String dataNode, int limit) throws IOException;

  /** A DataNode's state history, newest first. */
  List<StateSpan> dataNodeStates(String dataNode) throws IOException;

  /** Blocks whose every present replica is on this DataNode (UUID or host), or on this rack: lost if it died now. */
  List<ReplicaSpan> soleReplicas(String dataNodeOrRack, boolean rack, int limit) throws IOException;

  /** Every block missing or corrupt now, with its file and last holders. */
  List<MissingBlock> forensics(int limit) throws IOException;

  /** Every DataNode's present state. */
  List<StateSpan> currentDataNodes() throws IOException;

  /**
   * Each namespace's poll figures from {@code since} to {@code until}, oldest first, at most {@code maxPoints} per
   * namespace: every poll while they fit, else one per equal share of the range, with the last poll's figures and
   * the highest missing and corrupt counts in it (a spike must not vanish when thinned). Thinned by the database,
   * so a range of months costs the chart's points, not every poll, in the monitor's heap.
   */
  List<TrendPoint> trends(long since, long until, int maxPoints) throws IOException;

  /** Each rack's capacity and use from {@code since} to {@code until}, oldest first, thinned as {@link #trends} (last poll per share). */
  List<RackFillPoint> rackFill(long since, long until, int maxPoints) throws IOException;

  /**
   * Renews this monitor's writer lease on the store now (it is renewed in every write, and between writes on a
   * timer). Throws {@link LeaseLostException} when another monitor has taken the store over: this one must stop.
   */
  void renewLease() throws IOException;

  /** Deletes closed intervals and resolved events that ended before {@code time}; returns rows deleted. */
  long deleteHistoryBefore(long time) throws IOException;

  /**
   * Between polls: gives back the space superseded rows take, where the engine keeps it until told
   * (the embedded store, once its file has doubled); queries wait meanwhile. Whether it compacted.
   */
  boolean compactIfGrown() throws IOException;
}
