package org.bulwark.hdfs.monitor.store;

import java.io.File;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.bulwark.hdfs.monitor.history.BlockEvent;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.FileSpan;
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
 */
public final class JdbcHistoryStore implements HistoryStore {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcHistoryStore.class);
  private static final String REPLICA_COLUMNS = "n.uri, r.block_id, d.uuid, d.host, d.rack, s.storage_uuid, "
      + "s.storage_type, r.first_seen, r.gone_since";
  private static final String REPLICA_JOIN = " FROM replica_interval r JOIN storage s ON s.id = r.storage_id "
      + "JOIN datanode d ON d.id = s.datanode_id JOIN namespace n ON n.id = r.namespace_id";

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

  /**
   * A test's view into a poll's transaction: told each step of {@link #record} as it completes, before
   * the next (and before the commit), on the writing thread. Throwing there aborts the transaction at
   * that point, as a crash or a lost connection would; blocking there holds the transaction open.
   */
  interface WriteStepListener {
    void reached(String step) throws SQLException;
  }

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
    synchronized (writeLock) {
      openWriter();
      try {
        beginWrite();
        writer.commit();
      } catch (SQLException e) {
        rollback();
        throw new IOException("cannot renew the writer lease of the history store (" + description + "): "
            + e.getMessage(), e);
      }
    }
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
      openWriter();
      try {
        beginWrite();
        int owner = -1;
        try (PreparedStatement p = writer.prepareStatement("SELECT id FROM namespace WHERE block_pool = ? ORDER BY id")) {
          bind(p, blockPool);
          try (ResultSet rs = p.executeQuery()) {
            owner = rs.next() ? rs.getInt(1) : -1;
          }
        }
        String ownPool = null;
        try (PreparedStatement p = writer.prepareStatement("SELECT block_pool FROM namespace WHERE id = ?")) {
          bind(p, namespaceId);
          try (ResultSet rs = p.executeQuery()) {
            ownPool = rs.next() ? rs.getString(1) : null;
          }
        }
        int id = namespaceId;
        if (owner == namespaceId) {
          writer.commit();
          return id;
        }
        if (owner != -1 && !hasHistory(namespaceId)) {
          // The same namespace at a new URI: its history goes on under that URI.
          update("DELETE FROM namespace WHERE id = ?", namespaceId);
          update("UPDATE namespace SET uri = ? WHERE id = ?", uri, owner);
          id = owner;
        } else if (ownPool != null && !ownPool.equals(blockPool)) {
          // Formatted again: block ids start over, so the old history must not be diffed or shown as present.
          closeOpenHistory(namespaceId, time);
          update("UPDATE namespace SET uri = ? WHERE id = ?", uri + " (block pool " + ownPool + ")", namespaceId);
          try (PreparedStatement p = writer.prepareStatement("INSERT INTO namespace (uri, block_pool) VALUES (?, ?)",
              new String[] {"id"})) {
            bind(p, uri, blockPool);
            p.executeUpdate();
            try (ResultSet keys = p.getGeneratedKeys()) {
              keys.next();
              id = keys.getInt(1);
            }
          }
        } else if (ownPool == null && owner == -1) {
          update("UPDATE namespace SET block_pool = ? WHERE id = ?", blockPool, namespaceId);
        }
        writer.commit();
        namespaces.put(uri, id);
        return id;
      } catch (SQLException e) {
        rollback();
        throw new IOException("cannot record the block pool of " + uri + ": " + e.getMessage(), e);
      }
    }
  }

  private boolean hasHistory(int namespaceId) throws SQLException {
    for (String table : new String[] {"replica_interval", "block_file", "block_event", "poll"}) {
      try (PreparedStatement p = writer.prepareStatement("SELECT 1 FROM " + table + " WHERE namespace_id = ? FETCH FIRST 1 ROWS ONLY")) {
        bind(p, namespaceId);
        try (ResultSet rs = p.executeQuery()) {
          if (rs.next()) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private void closeOpenHistory(int namespaceId, long time) throws SQLException {
    update("UPDATE replica_interval SET gone_since = ? WHERE namespace_id = ? AND gone_since IS NULL", time, namespaceId);
    update("UPDATE block_file SET gone_since = ? WHERE namespace_id = ? AND gone_since IS NULL", time, namespaceId);
    update("UPDATE block_event SET resolved_at = ? WHERE namespace_id = ? AND resolved_at IS NULL", time, namespaceId);
  }

  /** One statement in the writer's open transaction. */
  private void update(String sql, Object... values) throws SQLException {
    try (PreparedStatement p = writer.prepareStatement(sql)) {
      bind(p, values);
      p.executeUpdate();
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
        execute("UPDATE datanode SET host = ?, xfer_addr = ?, rack = ? WHERE id = ?", host, xferAddress, rack, id);
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
    openWriter();
    try {
      beginWrite();
      try (PreparedStatement p = writer.prepareStatement("SELECT id FROM " + table + " WHERE " + keyColumn + " = ?")) {
        p.setString(1, key);
        try (ResultSet rs = p.executeQuery()) {
          if (rs.next()) {
            int id = rs.getInt(1);
            writer.commit();
            return id;
          }
        }
      }
      int id;
      try (PreparedStatement p = writer.prepareStatement(insert, new String[] {"id"})) {
        bind(p, row.values());
        p.executeUpdate();
        try (ResultSet keys = p.getGeneratedKeys()) {
          if (!keys.next()) {
            throw new SQLException("no id generated for the new " + table + " row");
          }
          id = keys.getInt(1);
        }
      }
      writer.commit();
      return id;
    } catch (SQLException e) {
      rollback();
      throw new IOException("cannot record a " + table + ": " + e.getMessage(), e);
    }
  }

  private void execute(String sql, Object... values) throws IOException {
    openWriter();
    try {
      beginWrite();
      try (PreparedStatement p = writer.prepareStatement(sql)) {
        bind(p, values);
        p.executeUpdate();
      }
      writer.commit();
    } catch (SQLException e) {
      rollback();
      throw new IOException(e.getMessage(), e);
    }
  }

  // ---- the poller's state and changes ----

  @Override
  public NamespaceState loadState(int namespaceId) throws IOException {
    synchronized (writeLock) {
      openWriter();
      NamespaceState state = new NamespaceState();
      try {
        try (PreparedStatement p = writer.prepareStatement(
            "SELECT block_id, storage_id FROM replica_interval WHERE namespace_id = ? AND gone_since IS NULL")) {
          p.setInt(1, namespaceId);
          p.setFetchSize(10_000);
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              state.openReplica(rs.getLong(1), rs.getInt(2));
            }
          }
        }
        try (PreparedStatement p = writer.prepareStatement(
            "SELECT block_id, file_id, path FROM block_file WHERE namespace_id = ? AND gone_since IS NULL")) {
          p.setInt(1, namespaceId);
          p.setFetchSize(10_000);
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              state.openFile(rs.getLong(1), rs.getLong(2), rs.getString(3));
            }
          }
        }
        try (PreparedStatement p = writer.prepareStatement(
            "SELECT block_id, kind FROM block_event WHERE namespace_id = ? AND resolved_at IS NULL")) {
          p.setInt(1, namespaceId);
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              state.openEvent(rs.getLong(1), rs.getString(2));
            }
          }
        }
        try (Statement s = writer.createStatement(); ResultSet rs = s.executeQuery(
            "SELECT datanode_id, state, capacity, used FROM datanode_state WHERE gone_since IS NULL")) {
          while (rs.next()) {
            state.openDataNodeState(rs.getInt(1), new DataNodeObservation(rs.getString(2), rs.getLong(3), rs.getLong(4)));
          }
        }
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
      openWriter();
      try {
        beginWrite();
        try (PreparedStatement close = writer.prepareStatement("UPDATE replica_interval SET gone_since = ? "
            + "WHERE namespace_id = ? AND block_id = ? AND storage_id = ? AND gone_since IS NULL")) {
          for (long[] r : c.closedReplicas) {
            bind(close, c.time, c.namespaceId, r[0], (int) r[1]);
            close.addBatch();
          }
          close.executeBatch();
        }
        stepListener.reached("replicas closed");
        try (PreparedStatement open = writer.prepareStatement(
            "INSERT INTO replica_interval (namespace_id, block_id, storage_id, first_seen) VALUES (?, ?, ?, ?)")) {
          int n = 0;
          for (long[] r : c.openedReplicas) {
            bind(open, c.namespaceId, r[0], (int) r[1], c.time);
            open.addBatch();
            if (++n % 5_000 == 0) {
              open.executeBatch();
            }
          }
          open.executeBatch();
        }
        stepListener.reached("replicas opened");
        try (PreparedStatement close = writer.prepareStatement("UPDATE block_file SET gone_since = ? "
            + "WHERE namespace_id = ? AND block_id = ? AND file_id = ? AND gone_since IS NULL")) {
          for (PollChanges.Membership m : c.closedFiles) {
            bind(close, c.time, c.namespaceId, m.blockId, m.fileId);
            close.addBatch();
          }
          close.executeBatch();
        }
        stepListener.reached("files closed");
        try (PreparedStatement open = writer.prepareStatement(
            "INSERT INTO block_file (namespace_id, block_id, file_id, path, first_seen) VALUES (?, ?, ?, ?, ?)")) {
          int n = 0;
          for (PollChanges.Membership m : c.openedFiles) {
            bind(open, c.namespaceId, m.blockId, m.fileId, m.path, c.time);
            open.addBatch();
            if (++n % 5_000 == 0) {
              open.executeBatch();
            }
          }
          open.executeBatch();
        }
        stepListener.reached("files opened");
        try (PreparedStatement resolve = writer.prepareStatement("UPDATE block_event SET resolved_at = ? "
            + "WHERE namespace_id = ? AND block_id = ? AND resolved_at IS NULL");
            PreparedStatement open = writer.prepareStatement(
                "INSERT INTO block_event (namespace_id, block_id, kind, first_seen) VALUES (?, ?, ?, ?)")) {
          for (Long block : c.resolvedEvents.keySet()) {
            bind(resolve, c.time, c.namespaceId, block);
            resolve.addBatch();
          }
          resolve.executeBatch();
          for (Map.Entry<Long, String> e : c.openedEvents.entrySet()) {
            bind(open, c.namespaceId, e.getKey(), e.getValue(), c.time);
            open.addBatch();
          }
          open.executeBatch();
        }
        stepListener.reached("events");
        try (PreparedStatement close = writer.prepareStatement(
            "UPDATE datanode_state SET gone_since = ? WHERE datanode_id = ? AND gone_since IS NULL");
            PreparedStatement open = writer.prepareStatement("INSERT INTO datanode_state (datanode_id, state, capacity, "
                + "used, first_seen) VALUES (?, ?, ?, ?, ?)")) {
          for (Map.Entry<Integer, DataNodeObservation> e : c.dataNodeStates.entrySet()) {
            bind(close, c.time, e.getKey());
            close.addBatch();
            DataNodeObservation o = e.getValue();
            bind(open, e.getKey(), o.state, o.capacity, o.used, c.time);
            open.addBatch();
          }
          close.executeBatch();
          open.executeBatch();
        }
        stepListener.reached("datanode states");
        try (PreparedStatement p = writer.prepareStatement("INSERT INTO poll (namespace_id, started, finished, files, "
            + "blocks, replicas, rpcs, missing, corrupt, blocks_one_rack, blocks_two_racks, blocks_more_racks) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            PreparedStatement fill = writer.prepareStatement(
                "INSERT INTO rack_fill (finished, rack, capacity, used) VALUES (?, ?, ?, ?)")) {
          bind(p, c.namespaceId, summary.started, summary.finished, summary.files, summary.blocks, summary.replicas,
              summary.rpcs, summary.missing, summary.corrupt, summary.blocksByRacks[0], summary.blocksByRacks[1],
              summary.blocksByRacks[2]);
          p.executeUpdate();
          for (Map.Entry<String, long[]> r : summary.rackFill.entrySet()) {
            bind(fill, summary.finished, r.getKey(), r.getValue()[0], r.getValue()[1]);
            fill.addBatch();
          }
          fill.executeBatch();
        }
        stepListener.reached("poll row");
        renewBeforeCommit();
        writer.commit();
      } catch (SQLException e) {
        rollback();
        throw new IOException("cannot record the poll of namespace " + c.namespaceId + ": " + e.getMessage(), e);
      }
    }
  }

  // ---- queries ----

  @Override
  public List<BlockHistory> blockHistory(long blockId) throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        List<BlockHistory> out = new ArrayList<>();
        try (PreparedStatement p = reader.prepareStatement("SELECT DISTINCT n.id, n.uri FROM namespace n WHERE EXISTS "
            + "(SELECT 1 FROM block_file f WHERE f.namespace_id = n.id AND f.block_id = ?) OR EXISTS "
            + "(SELECT 1 FROM replica_interval r WHERE r.namespace_id = n.id AND r.block_id = ?) ORDER BY n.id")) {
          bind(p, blockId, blockId);
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              out.add(history(rs.getInt(1), rs.getString(2), blockId));
            }
          }
        }
        return out;
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read block " + blockId + ": " + e.getMessage(), e);
      }
    }
  }

  @Override
  public List<BlockHistory> fileHistory(String path) throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        List<BlockHistory> out = new ArrayList<>();
        try (PreparedStatement p = reader.prepareStatement("SELECT f.namespace_id, n.uri, f.block_id, MIN(f.first_seen) "
            + "FROM block_file f JOIN namespace n ON n.id = f.namespace_id WHERE f.path = ? "
            + "GROUP BY f.namespace_id, n.uri, f.block_id ORDER BY 4, 3")) {
          bind(p, path);
          try (ResultSet rs = p.executeQuery()) {
            List<Object[]> blocks = new ArrayList<>();
            while (rs.next()) {
              blocks.add(new Object[] {rs.getInt(1), rs.getString(2), rs.getLong(3)});
            }
            for (Object[] b : blocks) {
              out.add(history((Integer) b[0], (String) b[1], (Long) b[2]));
            }
          }
        }
        return out;
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read file " + path + ": " + e.getMessage(), e);
      }
    }
  }

  private BlockHistory history(int namespaceId, String uri, long blockId) throws SQLException {
    List<ReplicaSpan> replicas = replicaSpans("SELECT " + REPLICA_COLUMNS + REPLICA_JOIN
        + " WHERE r.namespace_id = ? AND r.block_id = ? ORDER BY r.first_seen, d.host", namespaceId, blockId);
    List<FileSpan> files = new ArrayList<>();
    try (PreparedStatement p = reader.prepareStatement("SELECT file_id, path, first_seen, gone_since FROM block_file "
        + "WHERE namespace_id = ? AND block_id = ? ORDER BY first_seen")) {
      bind(p, namespaceId, blockId);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          files.add(new FileSpan(uri, blockId, rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
        }
      }
    }
    List<BlockEvent> events = new ArrayList<>();
    try (PreparedStatement p = reader.prepareStatement("SELECT kind, first_seen, resolved_at FROM block_event "
        + "WHERE namespace_id = ? AND block_id = ? ORDER BY first_seen")) {
      bind(p, namespaceId, blockId);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          events.add(new BlockEvent(uri, blockId, rs.getString(1), rs.getLong(2), rs.getLong(3)));
        }
      }
    }
    return new BlockHistory(uri, blockId, replicas, files, events);
  }

  @Override
  public List<ReplicaSpan> dataNodeReplicas(String dataNode, int limit) throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        List<Integer> ids = storagesWhere("d.id = ?", dataNodeKey(dataNode));
        if (ids.isEmpty()) {
          return new ArrayList<>();
        }
        // Per storage, its newest rows in the order of the (storage_id, first_seen DESC) index, cut at the
        // limit, then joined: sorted any other way, H2 reads every row the storage ever had.
        List<ReplicaSpan> out = new ArrayList<>();
        for (int id : ids) {
          out.addAll(replicaSpans("SELECT " + REPLICA_COLUMNS + " FROM (SELECT * FROM replica_interval WHERE storage_id = ? "
              + "ORDER BY storage_id, first_seen DESC FETCH FIRST " + limit + " ROWS ONLY) r "
              + "JOIN storage s ON s.id = r.storage_id JOIN datanode d ON d.id = s.datanode_id "
              + "JOIN namespace n ON n.id = r.namespace_id", id));
        }
        out.sort((x, y) -> x.firstSeen != y.firstSeen ? Long.compare(y.firstSeen, x.firstSeen) : Long.compare(x.blockId, y.blockId));
        return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read DataNode " + dataNode + ": " + e.getMessage(), e);
      }
    }
  }

  /** Store ids of the storages whose DataNode {@code d} matches {@code where} (one parameter). */
  private List<Integer> storagesWhere(String where, Object key) throws SQLException {
    List<Integer> ids = new ArrayList<>();
    try (PreparedStatement p = reader.prepareStatement("SELECT s.id FROM storage s JOIN datanode d ON d.id = s.datanode_id "
        + "WHERE " + where)) {
      bind(p, key);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getInt(1));
        }
      }
    }
    return ids;
  }

  private static String placeholders(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "?" : ", ?");
    }
    return b.toString();
  }

  @Override
  public List<StateSpan> dataNodeStates(String dataNode) throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        return stateSpans("SELECT d.uuid, d.host, d.rack, t.state, t.capacity, t.used, t.first_seen, t.gone_since "
            + "FROM datanode_state t JOIN datanode d ON d.id = t.datanode_id WHERE d.id = ? ORDER BY t.first_seen DESC",
            dataNodeKey(dataNode));
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read DataNode " + dataNode + ": " + e.getMessage(), e);
      }
    }
  }

  @Override
  public List<ReplicaSpan> soleReplicas(String dataNodeOrRack, boolean rack, int limit) throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        List<Integer> ids = rack ? storagesWhere("d.rack = ?", dataNodeOrRack)
            : storagesWhere("d.id = ?", dataNodeKey(dataNodeOrRack));
        if (ids.isEmpty()) {
          return new ArrayList<>();
        }
        String in = placeholders(ids.size());
        Object[] values = new Object[ids.size() * 2];
        for (int i = 0; i < ids.size(); i++) {
          values[i] = ids.get(i);
          values[ids.size() + i] = ids.get(i);
        }
        return replicaSpans("SELECT " + REPLICA_COLUMNS + REPLICA_JOIN + " WHERE r.storage_id IN (" + in + ") "
            + "AND r.gone_since IS NULL AND NOT EXISTS (SELECT 1 FROM replica_interval r2 WHERE r2.namespace_id = r.namespace_id "
            + "AND r2.block_id = r.block_id AND r2.gone_since IS NULL AND r2.storage_id NOT IN (" + in + ")) "
            + "ORDER BY r.block_id FETCH FIRST " + limit + " ROWS ONLY", values);
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read " + dataNodeOrRack + ": " + e.getMessage(), e);
      }
    }
  }

  @Override
  public List<MissingBlock> forensics(int limit) throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        List<BlockEvent> open = new ArrayList<>();
        List<Integer> namespaceIds = new ArrayList<>();
        try (Statement s = reader.createStatement(); ResultSet rs = s.executeQuery("SELECT e.namespace_id, n.uri, e.block_id, "
            + "e.kind, e.first_seen FROM block_event e JOIN namespace n ON n.id = e.namespace_id WHERE e.resolved_at IS NULL "
            + "ORDER BY e.first_seen, e.block_id FETCH FIRST " + limit + " ROWS ONLY")) {
          while (rs.next()) {
            namespaceIds.add(rs.getInt(1));
            open.add(new BlockEvent(rs.getString(2), rs.getLong(3), rs.getString(4), rs.getLong(5), 0));
          }
        }
        List<MissingBlock> out = new ArrayList<>();
        // A rack lost takes many blocks with the same holders: read each holder's states once.
        Map<String, List<StateSpan>> statesOf = new HashMap<>();
        for (int i = 0; i < open.size(); i++) {
          BlockEvent e = open.get(i);
          BlockHistory h = history(namespaceIds.get(i), e.namespace, e.blockId);
          String path = h.files.isEmpty() ? null : h.files.get(h.files.size() - 1).path;
          // The last holders: the replicas that ended last (or are still there, for a corrupt block).
          List<ReplicaSpan> holders = new ArrayList<>(h.replicas);
          holders.sort((a, b) -> Long.compare(b.isOpen() ? Long.MAX_VALUE : b.goneSince, a.isOpen() ? Long.MAX_VALUE : a.goneSince));
          List<StateSpan> states = new ArrayList<>();
          Set<String> holderIds = new LinkedHashSet<>();
          for (ReplicaSpan r : holders) {
            holderIds.add(r.dataNode);
          }
          for (String dataNode : holderIds) {
            List<StateSpan> known = statesOf.get(dataNode);
            if (known == null) {
              known = dataNodeStates(dataNode);
              statesOf.put(dataNode, known);
            }
            states.addAll(known);
          }
          out.add(new MissingBlock(e, path, holders, states));
        }
        return out;
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read missing blocks: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public List<StateSpan> currentDataNodes() throws IOException {
    synchronized (readLock) {
      openReader();
      try {
        return stateSpans("SELECT d.uuid, d.host, d.rack, t.state, t.capacity, t.used, t.first_seen, t.gone_since "
            + "FROM datanode_state t JOIN datanode d ON d.id = t.datanode_id WHERE t.gone_since IS NULL AND t.state <> ? "
            + "ORDER BY d.rack, d.host", DataNodeObservation.UNREGISTERED_STATE);
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read DataNodes: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public List<TrendPoint> trends(long since, long until, int maxPoints) throws IOException {
    checkRange(since, until, maxPoints);
    synchronized (readLock) {
      openReader();
      List<TrendPoint> out = new ArrayList<>();
      try {
        long width = pollBucketWidth(since, until, maxPoints);
        // Per bucket (the poll itself while they fit): the last poll, with the bucket's highest missing and corrupt.
        try (PreparedStatement p = reader.prepareStatement("SELECT n.uri, p.finished, p.blocks, b.missing, b.corrupt, "
            + "p.blocks_one_rack, p.blocks_two_racks, p.blocks_more_racks FROM (SELECT namespace_id, MAX(finished) AS last, "
            + "MAX(missing) AS missing, MAX(corrupt) AS corrupt FROM poll WHERE finished >= ? AND finished <= ? "
            + "GROUP BY namespace_id, " + bucketOf(width) + ") b JOIN poll p ON p.namespace_id = b.namespace_id "
            + "AND p.finished = b.last JOIN namespace n ON n.id = p.namespace_id ORDER BY p.finished")) {
          bindRange(p, since, until, width);
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              out.add(new TrendPoint(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                  rs.getLong(6), rs.getLong(7), rs.getLong(8)));
            }
          }
        }
        return out;
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read trends: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Rack fill is a row per rack and poll: months of it are millions of rows, too many to scan for a chart. While
   * the range's polls fit the chart, every row is read; otherwise the last poll time of each share of the range is
   * found through the index on {@code finished} (one probe per point), and only those polls' rows are read.
   */
  @Override
  public List<RackFillPoint> rackFill(long since, long until, int maxPoints) throws IOException {
    checkRange(since, until, maxPoints);
    synchronized (readLock) {
      openReader();
      List<RackFillPoint> out = new ArrayList<>();
      try {
        List<Long> times = pollsIn(since, until) <= maxPoints ? null : lastFillOfEachShare(since, until, maxPoints);
        if (times != null && times.isEmpty()) {
          return out;
        }
        StringBuilder sql = new StringBuilder("SELECT finished, rack, capacity, used FROM rack_fill WHERE ");
        if (times == null) {
          sql.append("finished >= ? AND finished <= ?");
        } else {
          sql.append("finished IN (?");
          for (int k = 1; k < times.size(); k++) {
            sql.append(", ?");
          }
          sql.append(')');
        }
        try (PreparedStatement p = reader.prepareStatement(sql.append(" ORDER BY finished, rack").toString())) {
          bind(p, times == null ? new Object[] {since, until} : times.toArray());
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              out.add(new RackFillPoint(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
            }
          }
        }
        return out;
      } catch (SQLException e) {
        readerFailed();
        throw new IOException("cannot read rack fill: " + e.getMessage(), e);
      }
    }
  }

  private static void checkRange(long since, long until, int maxPoints) {
    if (maxPoints < 1 || since < 0 || until < since) {
      throw new IllegalArgumentException("a chart range needs 0 <= since <= until and at least one point: since " + since
          + ", until " + until + ", points " + maxPoints);
    }
  }

  /** Polls of every namespace in the range (an index range count). */
  private long pollsIn(long since, long until) throws SQLException {
    try (PreparedStatement p = reader.prepareStatement("SELECT COUNT(*) FROM poll WHERE finished >= ? AND finished <= ?")) {
      bind(p, since, until);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** The last rack fill time in each of {@code maxPoints} equal shares of the range that has one, oldest first. */
  private List<Long> lastFillOfEachShare(long since, long until, int maxPoints) throws SQLException {
    long width = (until - since) / maxPoints + 1;
    List<Long> times = new ArrayList<>();
    try (PreparedStatement p = reader.prepareStatement("SELECT finished FROM rack_fill WHERE finished >= ? AND finished <= ? "
        + "ORDER BY finished DESC FETCH FIRST 1 ROWS ONLY")) {
      for (int k = 0; k < maxPoints; k++) {
        long from = since + k * width;
        if (from > until || from < since) {
          break;
        }
        bind(p, from, until - from < width ? until : from + width - 1);
        try (ResultSet rs = p.executeQuery()) {
          if (rs.next()) {
            times.add(rs.getLong(1));
          }
        }
      }
    }
    return times;
  }

  /**
   * The width of a poll chart's time bucket: 0 (a bucket per poll) when no namespace has more polls in the range
   * than {@code maxPoints}, else the range over {@code maxPoints}, rounded up so that it makes at most that many.
   */
  private long pollBucketWidth(long since, long until, int maxPoints) throws SQLException {
    try (PreparedStatement p = reader.prepareStatement("SELECT MAX(c) FROM (SELECT COUNT(*) AS c FROM poll "
        + "WHERE finished >= ? AND finished <= ? GROUP BY namespace_id) counts")) {
      bind(p, since, until);
      try (ResultSet rs = p.executeQuery()) {
        long most = rs.next() ? rs.getLong(1) : 0;
        return most <= maxPoints ? 0 : (until - since) / maxPoints + 1;
      }
    }
  }

  /** The bucket a row's {@code finished} falls in: itself while rows fit (width 0), else its share of the range. */
  private static String bucketOf(long width) {
    return width == 0 ? "finished" : "(finished - ?) / ?";
  }

  private static void bindRange(PreparedStatement p, long since, long until, long width) throws SQLException {
    if (width == 0) {
      bind(p, since, until);
    } else {
      bind(p, since, until, since, width);
    }
  }

  /** The start of a subquery for an open event of a block (its namespace and block conditions follow). */
  private static final String OPEN_EVENT_OF = "SELECT 1 FROM block_event e WHERE e.resolved_at IS NULL AND e.namespace_id = ";

  @Override
  public long deleteHistoryBefore(long time) throws IOException {
    synchronized (writeLock) {
      openWriter();
      long deleted = 0;
      try (Statement s = writer.createStatement()) {
        beginWrite();
        for (String sql : new String[] {
            // A block still missing keeps what forensics shows of it: its last holders, its files and those
            // holders' states, however old.
            "DELETE FROM replica_interval WHERE gone_since IS NOT NULL AND gone_since < " + time + " AND NOT EXISTS ("
                + OPEN_EVENT_OF + "replica_interval.namespace_id AND e.block_id = replica_interval.block_id)",
            "DELETE FROM block_file WHERE gone_since IS NOT NULL AND gone_since < " + time + " AND NOT EXISTS ("
                + OPEN_EVENT_OF + "block_file.namespace_id AND e.block_id = block_file.block_id)",
            "DELETE FROM datanode_state WHERE gone_since IS NOT NULL AND gone_since < " + time + " AND datanode_id NOT IN ("
                + "SELECT s.datanode_id FROM block_event e JOIN replica_interval r ON r.namespace_id = e.namespace_id "
                + "AND r.block_id = e.block_id JOIN storage s ON s.id = r.storage_id WHERE e.resolved_at IS NULL)",
            "DELETE FROM block_event WHERE resolved_at IS NOT NULL AND resolved_at < " + time,
            "DELETE FROM poll WHERE finished < " + time,
            "DELETE FROM rack_fill WHERE finished < " + time}) {
          deleted += s.executeUpdate(sql);
        }
        renewBeforeCommit();
        writer.commit();
        return deleted;
      } catch (SQLException e) {
        rollback();
        throw new IOException("cannot apply retention: " + e.getMessage(), e);
      }
    }
  }

  /** The id of a DataNode named by UUID or host name; -1 when unknown. */
  private int dataNodeKey(String dataNode) throws SQLException {
    // By UUID, else by host: the newest DataNode there (a reimaged host registers under a new UUID).
    try (PreparedStatement p = reader.prepareStatement(
        "SELECT id FROM datanode WHERE uuid = ? OR host = ? ORDER BY CASE WHEN uuid = ? THEN 0 ELSE 1 END, id DESC")) {
      bind(p, dataNode, dataNode, dataNode);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? rs.getInt(1) : -1;
      }
    }
  }

  private List<ReplicaSpan> replicaSpans(String sql, Object... values) throws SQLException {
    List<ReplicaSpan> out = new ArrayList<>();
    try (PreparedStatement p = reader.prepareStatement(sql)) {
      bind(p, values);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(new ReplicaSpan(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
              rs.getString(6), rs.getString(7), rs.getLong(8), rs.getLong(9)));
        }
      }
    }
    return out;
  }

  private List<StateSpan> stateSpans(String sql, Object... values) throws SQLException {
    List<StateSpan> out = new ArrayList<>();
    try (PreparedStatement p = reader.prepareStatement(sql)) {
      bind(p, values);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(new StateSpan(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5),
              rs.getLong(6), rs.getLong(7), rs.getLong(8)));
        }
      }
    }
    return out;
  }

  private static void bind(PreparedStatement p, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (v instanceof Integer) {
        p.setInt(i + 1, (Integer) v);
      } else if (v instanceof Long) {
        p.setLong(i + 1, (Long) v);
      } else {
        p.setString(i + 1, (String) v);
      }
    }
  }

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

  private static boolean isValid(Connection c) {
    try {
      return c != null && c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // Closing.
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
