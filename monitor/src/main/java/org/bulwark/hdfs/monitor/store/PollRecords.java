package org.bulwark.hdfs.monitor.store;

import static org.bulwark.hdfs.monitor.store.Statements.bind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.PollChanges;

/**
 * The poller's side of the store, on the writer's connection: what a namespace has open (read back when the monitor
 * starts, so the next poll is diffed against it) and a poll's changes, written as steps of one transaction. Only
 * changes are written, so a cluster at rest costs a poll row per namespace and poll.
 */
final class PollRecords {
  private PollRecords() {
  }

  /** The open intervals of {@code namespaceId} and every DataNode's current state. */
  static NamespaceState loadOpen(Connection writer, int namespaceId) throws SQLException {
    NamespaceState state = new NamespaceState();
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
    return state;
  }

  /**
   * Writes a poll's changes and its summary row in the transaction {@code writer} has open; {@code steps} is told
   * each step as it completes. The caller commits.
   */
  static void write(Connection writer, PollChanges c, PollSummary summary, WriteStepListener steps) throws SQLException {
    try (PreparedStatement close = writer.prepareStatement("UPDATE replica_interval SET gone_since = ? "
        + "WHERE namespace_id = ? AND block_id = ? AND storage_id = ? AND gone_since IS NULL")) {
      for (long[] r : c.closedReplicas) {
        bind(close, c.time, c.namespaceId, r[0], (int) r[1]);
        close.addBatch();
      }
      close.executeBatch();
    }
    steps.reached("replicas closed");
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
    steps.reached("replicas opened");
    try (PreparedStatement close = writer.prepareStatement("UPDATE block_file SET gone_since = ? "
        + "WHERE namespace_id = ? AND block_id = ? AND file_id = ? AND gone_since IS NULL")) {
      for (PollChanges.Membership m : c.closedFiles) {
        bind(close, c.time, c.namespaceId, m.blockId, m.fileId);
        close.addBatch();
      }
      close.executeBatch();
    }
    steps.reached("files closed");
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
    steps.reached("files opened");
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
    steps.reached("events");
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
    steps.reached("datanode states");
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
    steps.reached("poll row");
  }
}
