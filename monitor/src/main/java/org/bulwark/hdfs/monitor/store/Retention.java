package org.bulwark.hdfs.monitor.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What retention deletes, as statements in the writer's open transaction: history that ended before a time, except
 * what forensics shows of a block still missing (its last holders, its files and those holders' states, however
 * old), which stays until the block is found or its event resolved.
 */
final class Retention {
  /** The start of a subquery for an open event of a block (its namespace and block conditions follow). */
  private static final String OPEN_EVENT_OF = "SELECT 1 FROM block_event e WHERE e.resolved_at IS NULL AND e.namespace_id = ";

  private Retention() {
  }

  /** Deletes what ended before {@code time}; returns the rows deleted. */
  static long deleteBefore(Connection writer, long time) throws SQLException {
    long deleted = 0;
    try (Statement s = writer.createStatement()) {
      for (String sql : new String[] {
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
    }
    return deleted;
  }
}
