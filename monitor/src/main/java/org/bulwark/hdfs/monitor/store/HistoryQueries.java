package org.bulwark.hdfs.monitor.store;

import static org.bulwark.hdfs.monitor.store.Statements.bind;
import static org.bulwark.hdfs.monitor.store.Statements.placeholders;
import static org.bulwark.hdfs.monitor.store.Statements.rows;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.bulwark.hdfs.monitor.history.BlockEvent;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.FileSpan;
import org.bulwark.hdfs.monitor.history.MissingBlock;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.monitor.history.StateSpan;

/**
 * The history's questions an operator asks, on the reader's connection: a block's or a file's history, what a
 * DataNode held and went through, which replicas a DataNode or rack holds alone, and the forensics of missing
 * blocks. The reader runs with auto-commit, so each answer is as of the last committed poll.
 */
final class HistoryQueries {
  private static final String REPLICA_COLUMNS = "n.uri, r.block_id, d.uuid, d.host, d.rack, s.storage_uuid, "
      + "s.storage_type, r.first_seen, r.gone_since";
  private static final String REPLICA_JOIN = " FROM replica_interval r JOIN storage s ON s.id = r.storage_id "
      + "JOIN datanode d ON d.id = s.datanode_id JOIN namespace n ON n.id = r.namespace_id";
  private static final String STATE_COLUMNS = "d.uuid, d.host, d.rack, t.state, t.capacity, t.used, t.first_seen, "
      + "t.gone_since FROM datanode_state t JOIN datanode d ON d.id = t.datanode_id";

  private final Connection reader;

  HistoryQueries(Connection reader) {
    this.reader = reader;
  }

  /** The block's history in every namespace that had a block of that id. */
  List<BlockHistory> blockHistory(long blockId) throws SQLException {
    List<Object[]> namespaces = rows(reader, "SELECT DISTINCT n.id, n.uri FROM namespace n WHERE EXISTS "
        + "(SELECT 1 FROM block_file f WHERE f.namespace_id = n.id AND f.block_id = ?) OR EXISTS "
        + "(SELECT 1 FROM replica_interval r WHERE r.namespace_id = n.id AND r.block_id = ?) ORDER BY n.id",
        rs -> new Object[] {rs.getInt(1), rs.getString(2)}, blockId, blockId);
    List<BlockHistory> out = new ArrayList<>();
    for (Object[] n : namespaces) {
      out.add(history((Integer) n[0], (String) n[1], blockId));
    }
    return out;
  }

  /** The history of every block a file at {@code path} ever had, oldest first. */
  List<BlockHistory> fileHistory(String path) throws SQLException {
    List<Object[]> blocks = rows(reader, "SELECT f.namespace_id, n.uri, f.block_id, MIN(f.first_seen) "
        + "FROM block_file f JOIN namespace n ON n.id = f.namespace_id WHERE f.path = ? "
        + "GROUP BY f.namespace_id, n.uri, f.block_id ORDER BY 4, 3",
        rs -> new Object[] {rs.getInt(1), rs.getString(2), rs.getLong(3)}, path);
    List<BlockHistory> out = new ArrayList<>();
    for (Object[] b : blocks) {
      out.add(history((Integer) b[0], (String) b[1], (Long) b[2]));
    }
    return out;
  }

  private BlockHistory history(int namespaceId, String uri, long blockId) throws SQLException {
    List<ReplicaSpan> replicas = replicaSpans("SELECT " + REPLICA_COLUMNS + REPLICA_JOIN
        + " WHERE r.namespace_id = ? AND r.block_id = ? ORDER BY r.first_seen, d.host", namespaceId, blockId);
    List<FileSpan> files = rows(reader, "SELECT file_id, path, first_seen, gone_since FROM block_file "
        + "WHERE namespace_id = ? AND block_id = ? ORDER BY first_seen",
        rs -> new FileSpan(uri, blockId, rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4)), namespaceId, blockId);
    List<BlockEvent> events = rows(reader, "SELECT kind, first_seen, resolved_at FROM block_event "
        + "WHERE namespace_id = ? AND block_id = ? ORDER BY first_seen",
        rs -> new BlockEvent(uri, blockId, rs.getString(1), rs.getLong(2), rs.getLong(3)), namespaceId, blockId);
    return new BlockHistory(uri, blockId, replicas, files, events);
  }

  /** The newest {@code limit} replicas a DataNode (UUID or host name) held, newest first. */
  List<ReplicaSpan> dataNodeReplicas(String dataNode, int limit) throws SQLException {
    List<Integer> ids = storagesWhere("d.id = ?", dataNodeKey(dataNode));
    List<ReplicaSpan> out = new ArrayList<>();
    // Per storage, its newest rows in the order of the (storage_id, first_seen DESC) index, cut at the
    // limit, then joined: sorted any other way, H2 reads every row the storage ever had.
    for (int id : ids) {
      out.addAll(replicaSpans("SELECT " + REPLICA_COLUMNS + " FROM (SELECT * FROM replica_interval WHERE storage_id = ? "
          + "ORDER BY storage_id, first_seen DESC FETCH FIRST " + limit + " ROWS ONLY) r "
          + "JOIN storage s ON s.id = r.storage_id JOIN datanode d ON d.id = s.datanode_id "
          + "JOIN namespace n ON n.id = r.namespace_id", id));
    }
    out.sort((x, y) -> x.firstSeen != y.firstSeen ? Long.compare(y.firstSeen, x.firstSeen) : Long.compare(x.blockId, y.blockId));
    return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
  }

  /** A DataNode's states (live, decommissioning, dead, ...), newest first. */
  List<StateSpan> dataNodeStates(String dataNode) throws SQLException {
    return stateSpans("SELECT " + STATE_COLUMNS + " WHERE d.id = ? ORDER BY t.first_seen DESC", dataNodeKey(dataNode));
  }

  /** Every DataNode registered now, by rack and host. */
  List<StateSpan> currentDataNodes() throws SQLException {
    return stateSpans("SELECT " + STATE_COLUMNS + " WHERE t.gone_since IS NULL AND t.state <> ? ORDER BY d.rack, d.host",
        DataNodeObservation.UNREGISTERED_STATE);
  }

  /** The replicas present now whose block has no other present replica outside the DataNode or rack. */
  List<ReplicaSpan> soleReplicas(String dataNodeOrRack, boolean rack, int limit) throws SQLException {
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
  }

  /**
   * The oldest {@code limit} blocks missing or corrupt now, each with its last path, its last holders (the replicas
   * that ended last, or are still there for a corrupt block) and those holders' states.
   */
  List<MissingBlock> forensics(int limit) throws SQLException {
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
      List<ReplicaSpan> holders = new ArrayList<>(h.replicas);
      holders.sort((a, b) -> Long.compare(b.isOpen() ? Long.MAX_VALUE : b.goneSince, a.isOpen() ? Long.MAX_VALUE : a.goneSince));
      Set<String> holderIds = new LinkedHashSet<>();
      for (ReplicaSpan r : holders) {
        holderIds.add(r.dataNode);
      }
      List<StateSpan> states = new ArrayList<>();
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
  }

  /** Store ids of the storages whose DataNode {@code d} matches {@code where} (one parameter). */
  private List<Integer> storagesWhere(String where, Object key) throws SQLException {
    return rows(reader, "SELECT s.id FROM storage s JOIN datanode d ON d.id = s.datanode_id WHERE " + where,
        rs -> rs.getInt(1), key);
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
    return rows(reader, sql, rs -> new ReplicaSpan(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4),
        rs.getString(5), rs.getString(6), rs.getString(7), rs.getLong(8), rs.getLong(9)), values);
  }

  private List<StateSpan> stateSpans(String sql, Object... values) throws SQLException {
    return rows(reader, sql, rs -> new StateSpan(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
        rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8)), values);
  }
}
