package org.bulwark.hdfs.monitor.store;

import static org.bulwark.hdfs.monitor.store.Statements.bind;
import static org.bulwark.hdfs.monitor.store.Statements.update;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Ties a namespace's history to its block pool, in the writer's open transaction. A namespace is named by the URI the
 * monitor polls, but its block ids mean something only within its block pool: the same pool seen at a new URI keeps
 * its history, and a namespace formatted again (a new pool at the same URI) starts a new one.
 */
final class BlockPoolClaim {
  private BlockPoolClaim() {
  }

  /**
   * Records that the namespace {@code namespaceId}, polled at {@code uri}, has the block pool {@code blockPool};
   * returns the id its history goes on under (another one's when the pool was seen before at another URI).
   */
  static int claim(Connection writer, int namespaceId, String uri, String blockPool, long time) throws SQLException {
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
    if (owner == namespaceId) {
      return namespaceId;
    }
    if (owner != -1 && !hasHistory(writer, namespaceId)) {
      // The same namespace at a new URI: its history goes on under that URI.
      update(writer, "DELETE FROM namespace WHERE id = ?", namespaceId);
      update(writer, "UPDATE namespace SET uri = ? WHERE id = ?", uri, owner);
      return owner;
    }
    if (ownPool != null && !ownPool.equals(blockPool)) {
      // Formatted again: block ids start over, so the old history must not be diffed or shown as present.
      closeOpenHistory(writer, namespaceId, time);
      update(writer, "UPDATE namespace SET uri = ? WHERE id = ?", uri + " (block pool " + ownPool + ")", namespaceId);
      try (PreparedStatement p = writer.prepareStatement("INSERT INTO namespace (uri, block_pool) VALUES (?, ?)",
          new String[] {"id"})) {
        bind(p, uri, blockPool);
        p.executeUpdate();
        try (ResultSet keys = p.getGeneratedKeys()) {
          keys.next();
          return keys.getInt(1);
        }
      }
    }
    if (ownPool == null && owner == -1) {
      update(writer, "UPDATE namespace SET block_pool = ? WHERE id = ?", blockPool, namespaceId);
    }
    return namespaceId;
  }

  private static boolean hasHistory(Connection writer, int namespaceId) throws SQLException {
    for (String table : new String[] {"replica_interval", "block_file", "block_event", "poll"}) {
      try (PreparedStatement p = writer.prepareStatement("SELECT 1 FROM " + table
          + " WHERE namespace_id = ? FETCH FIRST 1 ROWS ONLY")) {
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

  private static void closeOpenHistory(Connection writer, int namespaceId, long time) throws SQLException {
    update(writer, "UPDATE replica_interval SET gone_since = ? WHERE namespace_id = ? AND gone_since IS NULL", time,
        namespaceId);
    update(writer, "UPDATE block_file SET gone_since = ? WHERE namespace_id = ? AND gone_since IS NULL", time, namespaceId);
    update(writer, "UPDATE block_event SET resolved_at = ? WHERE namespace_id = ? AND resolved_at IS NULL", time,
        namespaceId);
  }
}
