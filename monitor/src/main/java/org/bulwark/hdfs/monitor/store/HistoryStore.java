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

  /** Every namespace's poll figures since {@code since}, oldest first. */
  List<TrendPoint> trends(long since) throws IOException;

  /** Every rack's capacity and use at each poll since {@code since}, oldest first. */
  List<RackFillPoint> rackFill(long since) throws IOException;

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
