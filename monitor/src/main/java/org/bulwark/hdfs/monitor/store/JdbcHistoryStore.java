package org.bulwark.hdfs.monitor.store;

import static org.bulwark.hdfs.monitor.store.Statements.bind;
import static org.bulwark.hdfs.monitor.store.Statements.closeQuietly;
import static org.bulwark.hdfs.monitor.store.Statements.isValid;

import java.io.File;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.MissingBlock;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.monitor.history.StateSpan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The history store over JDBC: the same schema and statements on the embedded H2 file and on
 * PostgreSQL (standard SQL only). One connection writes, one reads, each behind a lock of its own: a
 * query never waits for a poll's transaction, and sees the history as of the last committed poll.
 * Ids of namespaces, DataNodes and storages come from the database's identity columns and are
 * cached, so a poll's rows are plain integers. A store opened for writing holds the store's
 * {@link WriterLease}: it renews it in every write transaction and on a timer of its own (every third of
 * the lease timeout, so however long a poll scans), and gives it back when closed.
 *
 * <p>This class owns the connections, their locks and transactions, and the lease; the statements are in
 * {@link PollRecords} (the poller's side), {@link BlockPoolClaim}, {@link Retention}, {@link HistoryQueries} and
 * {@link ChartQueries}, each handed the connection it runs on.
 */
public final class JdbcHistoryStore implements HistoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcHistoryStore.class);

  private final String description;
  private final String url;
  private final Properties props;
  /** Null when opened read-only. */
  private final WriterLease lease;
  /** Renews the lease between writes; null when opened read-only. */
  private final ScheduledExecutorService renewals;
  /** The renewal timer's own connection (null until first used or after a failure); guarded by {@link #keeperLock}. */
  private Connection keeper;
  private final Object keeperLock = new Object();
  /** Why this store writes no more (its lease was taken over), or null. */
  private String lost;
  private volatile boolean closed;
  /** Null while lost: the next write opens a new one. */
  private Connection writer;
  /** Null while lost: the next query opens a new one. */
  private Connection reader;
  /** Guards {@link #writer}, {@link #lost}, {@link #closed}, the id caches and {@link #stepListener}. */
  private final Object writeLock = new Object();
  /** Guards {@link #reader}. */
  private final Object readLock = new Object();
  private WriteStepListener stepListener = step -> { };
  /** Set for the embedded store only: when its file is compacted. */
  private EmbeddedCompaction compaction;
  private final Map<String, Integer> namespaces = new HashMap<>();
  /** DataNode ids by UUID, with where the row last said each one is. */
  private final Map<String, KnownDataNode> dataNodes = new HashMap<>();
  private final Map<String, Integer> storages = new HashMap<>();

  private JdbcHistoryStore(String description, String url, Properties props, Connection writer, Connection reader,
      WriterLease lease) {
    this.description = description;
    this.url = url;
    this.props = props;
    this.writer = writer;
    this.reader = reader;
    this.lease = lease;
    if (lease == null) {
      renewals = null;
    } else {
      renewals = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread t = new Thread(task, "history-store-lease");
        t.setDaemon(true);
        return t;
      });
      long period = Math.max(1, lease.timeoutMillis / 3);
      renewals.scheduleWithFixedDelay(this::renewOnTimer, period, period, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Opens (and migrates) the store at {@code url} for writing; {@code props} may carry user and password. Takes
   * the store's writer lease first, or fails with one line naming the monitor that holds it, having written
   * nothing (a store from before the lease is migrated first).
   */
  public static JdbcHistoryStore open(String url, Properties props, String description, long leaseTimeoutMillis)
      throws IOException {
    return open(url, props, description, new WriterLease(leaseTimeoutMillis, false, description, url));
  }

  /** {@link #open} for the embedded H2 file, which only this process can have open: see {@link WriterLease}. */
  static JdbcHistoryStore openLockedFile(String url, String description, long leaseTimeoutMillis) throws IOException {
    return open(url, new Properties(), description, new WriterLease(leaseTimeoutMillis, true, description, url));
  }

  /**
   * Opens a store a monitor writes, to read it beside that monitor: no migration, no lease, every write
   * refused.
   */
  public static JdbcHistoryStore openReadOnly(String url, Properties props, String description) throws IOException {
    try {
      Connection r = DriverManager.getConnection(url, props);
      r.setAutoCommit(true);
      r.setReadOnly(true);
      return new JdbcHistoryStore(description, url, props, null, r, null);
    } catch (SQLException e) {
      throw new IOException("cannot open the history store (" + description + "): " + e.getMessage(), e);
    }
  }

  private static JdbcHistoryStore open(String url, Properties props, String description, WriterLease lease)
      throws IOException {
    Connection w = null;
    Connection r = null;
    boolean leased = false;
    try {
      w = DriverManager.getConnection(url, props);
      w.setAutoCommit(false);
      // A store that has the lease is leased before anything is written to it, migrations included.
      if (Migrations.version(w) >= WriterLease.SINCE_VERSION) {
        lease.acquire(w);
        leased = true;
      }
      Migrations.apply(w);
      if (!leased) {
        lease.acquire(w);
        leased = true;
      }
      r = DriverManager.getConnection(url, props);
      r.setAutoCommit(true);
      r.setReadOnly(true);
      return new JdbcHistoryStore(description, url, props, w, r, lease);
    } catch (SQLException | IOException e) {
      if (leased) {
        try {
          lease.release(w);
        } catch (SQLException ignored) {
          // The lease expires.
        }
      }
      closeQuietly(w);
      closeQuietly(r);
      if (e instanceof IOException) {
        throw (IOException) e;
      }
      throw new IOException("cannot open the history store (" + description + "): " + e.getMessage(), e);
    }
  }

  /** Test seam: see {@link WriteStepListener}. */
  void onWriteStep(WriteStepListener listener) {
    synchronized (writeLock) {
      stepListener = listener;
    }
  }

  @Override
  public String describe() {
    return description;
  }

  /** Compacts this store's H2 file ({@code file}, the {@code .mv.db}) whenever it has doubled: see {@link EmbeddedCompaction}. */
  void compactWhenGrown(File file) {
    synchronized (writeLock) {
      compaction = new EmbeddedCompaction(file);
    }
  }

  @Override
  public boolean compactIfGrown() throws IOException {
    synchronized (writeLock) {
      if (compaction == null || !compaction.due()) {
        return false;
      }
      // Both connections go: SHUTDOWN closes the database. Queries wait for it rather than fail.
      synchronized (readLock) {
        long before = compaction.file().length();
        long started = System.nanoTime();
        openWriter();
        try (Statement s = writer.createStatement()) {
          beginWrite();
          writer.commit();
          s.execute("SHUTDOWN COMPACT");
        } catch (SQLException e) {
          throw new IOException("cannot compact the history store (" + description + "): " + e.getMessage(), e);
        } finally {
          closeQuietly(writer);
          writer = null;
          closeQuietly(reader);
          reader = null;
        }
        compaction.compacted();
        LOG.info("Compacted the history store {}: {} MB to {} MB in {} ms", description, before >> 20,
            compaction.file().length() >> 20, (System.nanoTime() - started) / 1_000_000);
        return true;
      }
    }
  }

  // ---- the writer lease ----

  @Override
  public void renewLease() throws IOException {
    inWriteTransaction("cannot renew the writer lease of the history store (" + description + ")", false, w -> null);
  }

  /**
   * Between writes: a monitor quiet for a long scan, or reading its state back for minutes, keeps its store. On a
   * connection of its own, so neither waits for the other's lock; while a write transaction holds the lease row
   * it waits for the commit (which renews the lease itself). A lease lost is logged when a write finds it out.
   */
  private void renewOnTimer() {
    synchronized (keeperLock) {
      if (closed) {
        return;
      }
      try {
        if (keeper == null) {
          keeper = DriverManager.getConnection(url, props);
          keeper.setAutoCommit(true);
        }
        if (!lease.renew(keeper)) {
          LOG.error("The writer lease of the history store ({}) is no longer this monitor's: its next write stops it",
              description);
          renewals.shutdown();
        }
      } catch (SQLException | RuntimeException e) {
        LOG.warn("Could not renew the writer lease of the history store ({}); trying again in {} s", description,
            lease.timeoutMillis / 3000, e);
        closeQuietly(keeper);
        keeper = null;
      }
    }
  }

  /**
   * Renews the lease again at the end of a write transaction that may have run long (a first poll, retention):
   * a contender waiting on the lease row then reads a renewal from now, not from the transaction's start.
   */
  private void renewBeforeCommit() throws SQLException, LeaseLostException {
    beginWrite();
  }

  /**
   * Begins a write transaction on the writer by renewing the lease in it: until the commit, no other monitor can
   * take the store over. When one has already, rolls back and refuses this write and every one after it.
   */
  private void beginWrite() throws SQLException, LeaseLostException {
    if (!lease.renew(writer)) {
      String holder = lease.holder(writer);
      writer.rollback();
      lease.forget();
      lost = "the writer lease of the history store (" + description + ") was taken over by another block monitor ("
          + holder + "), so this one records nothing more";
      LOG.error(lost);
      throw new LeaseLostException(lost);
    }
  }

  /** Work on one of the store's connections, inside the lock that guards it. */
  private interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} in a write transaction: the lease renewed first (and, for a transaction that may run long,
   * again before the commit), rolled back on failure with {@code failure} and the database's reason.
   */
  private <T> T inWriteTransaction(String failure, boolean renewBeforeCommit, SqlWork<T> work) throws IOException {
    synchronized (writeLock) {
      openWriter();
      try {
        beginWrite();
        T result = work.run(writer);
        if (renewBeforeCommit) {
          renewBeforeCommit();
        }
        writer.commit();
        return result;
      } catch (SQLException e) {
        rollback();
        throw new IOException(failure + ": " + e.getMessage(), e);
      }
    }
  }

  /** Runs {@code work} on the reader, which sees the history as of the last committed poll. */
  private <T> T query(String failure, SqlWork<T> work) throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        return work.run(reader);
      } catch (SQLException e) {
        readerFailed();
        throw new IOException(failure + ": " + e.getMessage(), e);
      }
    }
  }

  // ---- ids ----

  @Override
  public int namespaceId(String uri) throws IOException {
    synchronized (writeLock) {
      Integer id = namespaces.get(uri);
      if (id == null) {
        id = idFor("namespace", "uri", uri, () -> new Object[] {uri}, "INSERT INTO namespace (uri) VALUES (?)");
        namespaces.put(uri, id);
      }
      return id;
    }
  }

  @Override
  public int claimBlockPool(int namespaceId, String uri, String blockPool, long time) throws IOException {
    synchronized (writeLock) {
      int id = inWriteTransaction("cannot record the block pool of " + uri, false,
          w -> BlockPoolClaim.claim(w, namespaceId, uri, blockPool, time));
      namespaces.put(uri, id);
      return id;
    }
  }

  @Override
  public int dataNodeId(String uuid, String host, String xferAddress, String rack) throws IOException {
    synchronized (writeLock) {
      String where = host + "|" + xferAddress + "|" + rack;
      KnownDataNode known = dataNodes.get(uuid);
      if (known == null || !known.where.equals(where)) {
        int id = known != null ? known.id : idFor("datanode", "uuid", uuid, () -> new Object[] {uuid, host, xferAddress, rack},
            "INSERT INTO datanode (uuid, host, xfer_addr, rack) VALUES (?, ?, ?, ?)");
        // A DataNode that moved host or rack (and maybe back) keeps its id; the row says where it is now.
        inWriteTransaction("cannot record a datanode", false, w -> {
          Statements.update(w, "UPDATE datanode SET host = ?, xfer_addr = ?, rack = ? WHERE id = ?", host, xferAddress,
              rack, id);
          return null;
        });
        known = new KnownDataNode(id, where);
        dataNodes.put(uuid, known);
      }
      return known.id;
    }
  }

  @Override
  public int storageId(int dataNodeId, String storageUuid, String storageType) throws IOException {
    synchronized (writeLock) {
      Integer id = storages.get(storageUuid);
      if (id == null) {
        id = idFor("storage", "storage_uuid", storageUuid, () -> new Object[] {dataNodeId, storageUuid, storageType},
            "INSERT INTO storage (datanode_id, storage_uuid, storage_type) VALUES (?, ?, ?)");
        storages.put(storageUuid, id);
      }
      return id;
    }
  }

  /** A DataNode's id and the host, address and rack its row holds. */
  private static final class KnownDataNode {
    final int id;
    final String where;

    KnownDataNode(int id, String where) {
      this.id = id;
      this.where = where;
    }
  }

  private interface Row {
    Object[] values();
  }

  /** The id of the row whose {@code keyColumn} is {@code key}, inserted (its id from the identity column) if none. */
  private int idFor(String table, String keyColumn, String key, Row row, String insert) throws IOException {
    return inWriteTransaction("cannot record a " + table, false, w -> {
      try (PreparedStatement p = w.prepareStatement("SELECT id FROM " + table + " WHERE " + keyColumn + " = ?")) {
        p.setString(1, key);
        try (ResultSet rs = p.executeQuery()) {
          if (rs.next()) {
            return rs.getInt(1);
          }
        }
      }
      try (PreparedStatement p = w.prepareStatement(insert, new String[] {"id"})) {
        bind(p, row.values());
        p.executeUpdate();
        try (ResultSet keys = p.getGeneratedKeys()) {
          if (!keys.next()) {
            throw new SQLException("no id generated for the new " + table + " row");
          }
          return keys.getInt(1);
        }
      }
    });
  }

  // ---- the poller's state and changes ----

  /** Read on the writer, in a transaction of its own, so it sees exactly what the next poll's diff builds on. */
  @Override
  public NamespaceState loadState(int namespaceId) throws IOException {
    synchronized (writeLock) {
      openWriter();
      try {
        NamespaceState state = PollRecords.loadOpen(writer, namespaceId);
        writer.commit();
        return state;
      } catch (SQLException e) {
        rollback();
        throw new IOException("cannot read the open history: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public void record(PollChanges c, PollSummary summary) throws IOException {
    synchronized (writeLock) {
      inWriteTransaction("cannot record the poll of namespace " + c.namespaceId, true, w -> {
        PollRecords.write(w, c, summary, stepListener);
        return null;
      });
    }
  }

  @Override
  public long deleteHistoryBefore(long time) throws IOException {
    return inWriteTransaction("cannot apply retention", true, w -> Retention.deleteBefore(w, time));
  }

  // ---- queries ----

  @Override
  public List<BlockHistory> blockHistory(long blockId) throws IOException {
    return query("cannot read block " + blockId, r -> new HistoryQueries(r).blockHistory(blockId));
  }

  @Override
  public List<BlockHistory> fileHistory(String path) throws IOException {
    return query("cannot read file " + path, r -> new HistoryQueries(r).fileHistory(path));
  }

  @Override
  public List<ReplicaSpan> dataNodeReplicas(String dataNode, int limit) throws IOException {
    return query("cannot read DataNode " + dataNode, r -> new HistoryQueries(r).dataNodeReplicas(dataNode, limit));
  }

  @Override
  public List<StateSpan> dataNodeStates(String dataNode) throws IOException {
    return query("cannot read DataNode " + dataNode, r -> new HistoryQueries(r).dataNodeStates(dataNode));
  }

  @Override
  public List<ReplicaSpan> soleReplicas(String dataNodeOrRack, boolean rack, int limit) throws IOException {
    return query("cannot read " + dataNodeOrRack, r -> new HistoryQueries(r).soleReplicas(dataNodeOrRack, rack, limit));
  }

  @Override
  public List<MissingBlock> forensics(int limit) throws IOException {
    return query("cannot read missing blocks", r -> new HistoryQueries(r).forensics(limit));
  }

  @Override
  public List<StateSpan> currentDataNodes() throws IOException {
    return query("cannot read DataNodes", r -> new HistoryQueries(r).currentDataNodes());
  }

  @Override
  public List<TrendPoint> trends(long since, long until, int maxPoints) throws IOException {
    ChartQueries.checkRange(since, until, maxPoints);
    return query("cannot read trends", r -> new ChartQueries(r).trends(since, until, maxPoints));
  }

  @Override
  public List<RackFillPoint> rackFill(long since, long until, int maxPoints) throws IOException {
    ChartQueries.checkRange(since, until, maxPoints);
    return query("cannot read rack fill", r -> new ChartQueries(r).rackFill(since, until, maxPoints));
  }

  // ---- connections ----

  /** After a failed write: rolls back, and drops the connection if it was lost (the next write reopens it). */
  private void rollback() {
    try {
      writer.rollback();
    } catch (SQLException ignored) {
      // The connection is gone; the transaction with it.
    }
    if (!isValid(writer)) {
      closeQuietly(writer);
      writer = null;
    }
  }

  /** After a failed query: drops the reader if it was lost (the next query reopens it). */
  private void readerFailed() {
    if (!isValid(reader)) {
      closeQuietly(reader);
      reader = null;
    }
  }

  /**
   * Reopens the writer if it was lost, as HDFS RBF's state store reopens its driver: a database that
   * restarted or a network that came back costs the polls of the outage, not a restart of the monitor.
   */
  private void openWriter() throws IOException {
    if (lease == null) {
      throw new IOException("the history store (" + description + ") is open read-only");
    }
    if (lost != null) {
      throw new LeaseLostException(lost);
    }
    if (closed) {
      throw new IOException("the history store (" + description + ") is closed");
    }
    if (writer == null) {
      try {
        Connection w = DriverManager.getConnection(url, props);
        w.setAutoCommit(false);
        writer = w;
      } catch (SQLException e) {
        throw new IOException("the history store (" + description + ") is unreachable: " + e.getMessage(), e);
      }
    }
  }

  private void openReader() throws IOException {
    if (reader == null) {
      try {
        Connection r = DriverManager.getConnection(url, props);
        r.setAutoCommit(true);
        r.setReadOnly(true);
        reader = r;
      } catch (SQLException e) {
        throw new IOException("the history store (" + description + ") is unreachable: " + e.getMessage(), e);
      }
    }
  }

  /** Gives the writer lease back (when this store still holds it), so a monitor started next takes it at once. */
  @Override
  public void close() {
    if (renewals != null) {
      renewals.shutdown();
    }
    synchronized (readLock) {
      closeQuietly(reader);
    }
    synchronized (writeLock) {
      if (lease != null && !closed) {
        try {
          if (lost == null) {
            openWriter();
            lease.release(writer);
          }
        } catch (IOException | SQLException e) {
          LOG.warn("Could not give back the writer lease of the history store ({}): a monitor started on it within {} s "
              + "is refused: {}", description, lease.timeoutMillis / 1000, e.getMessage());
        } finally {
          lease.forget();
        }
      }
      closed = true;
      closeQuietly(writer);
      writer = null;
    }
    synchronized (keeperLock) {
      closeQuietly(keeper);
      keeper = null;
    }
  }
}
