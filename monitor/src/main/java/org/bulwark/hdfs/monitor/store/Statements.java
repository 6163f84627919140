package org.bulwark.hdfs.monitor.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDBC plumbing every part of the store repeats: a row's values bound by their Java type, a query's rows read,
 * one statement run, a connection checked or closed without an exception to handle. Values are only ever {@code Integer},
 * {@code Long} or {@code String}, the column types the schema uses.
 */
final class Statements {
  private Statements() {
  }

  static void bind(PreparedStatement p, Object... values) throws SQLException {
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

  /** Turns the current row of a result into a value. */
  interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /** Every row {@code sql} selects with {@code values} bound, each read by {@code reader}, in the query's order. */
  static <T> List<T> rows(Connection c, String sql, RowReader<T> reader, Object... values) throws SQLException {
    List<T> out = new ArrayList<>();
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, values);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(reader.read(rs));
        }
      }
    }
    return out;
  }

  /** One statement, in whatever transaction {@code c} has open. */
  static void update(Connection c, String sql, Object... values) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, values);
      p.executeUpdate();
    }
  }

  /** {@code ?, ?, ...}: {@code n} parameters for an {@code IN} list. */
  static String placeholders(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "?" : ", ?");
    }
    return b.toString();
  }

  static boolean isValid(Connection c) {
    try {
      return c != null && c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // Closing.
      }
    }
  }
}
