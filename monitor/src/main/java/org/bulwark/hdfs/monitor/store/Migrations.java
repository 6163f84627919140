package org.bulwark.hdfs.monitor.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a store's schema to the newest version. Versions are the numbered scripts listed in
 * {@code migrations.list} next to this class ({@code V<n>__<what>.sql}); each is applied in one
 * transaction together with its row in {@code schema_version}, so a store is always at a whole version.
 * A store newer than this code is refused rather than written to.
 */
final class Migrations {
  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
  /** The version whose statements differ per engine: carried out by {@link IdentityColumns}. */
  private static final int IDENTITY_VERSION = 3;

  private Migrations() {
  }

  /** Applies what is missing; returns the version the store is at. */
  static int apply(Connection c) throws SQLException, IOException {
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      if (!tableExists(c, "schema_version")) {
        s.execute("CREATE TABLE schema_version (version INT PRIMARY KEY, applied_at BIGINT NOT NULL)");
        c.commit();
      }
    }
    int current = currentVersion(c);
    List<String> scripts = scripts();
    if (current > scripts.size()) {
      throw new SQLException("the store is at schema version " + current + ", newer than this monitor knows ("
          + scripts.size() + "): upgrade the monitor before pointing it at this store");
    }
    for (int v = current + 1; v <= scripts.size(); v++) {
      String name = scripts.get(v - 1);
      try (Statement s = c.createStatement()) {
        for (String sql : statements(name)) {
          s.execute(sql);
        }
        if (v == IDENTITY_VERSION) {
          IdentityColumns.apply(c);
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)")) {
          p.setInt(1, v);
          p.setLong(2, System.currentTimeMillis());
          p.executeUpdate();
        }
        c.commit();
        LOG.info("Store schema migrated to version {} ({})", v, name);
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    }
    return scripts.size();
  }

  /** The version the store is at, without changing it: 0 for an empty database. */
  static int version(Connection c) throws SQLException {
    return tableExists(c, "schema_version") ? currentVersion(c) : 0;
  }

  private static boolean tableExists(Connection c, String table) throws SQLException {
    for (String name : new String[] {table, table.toUpperCase(java.util.Locale.ROOT)}) {
      try (ResultSet rs = c.getMetaData().getTables(null, c.getSchema(), name, null)) {
        if (rs.next()) {
          return true;
        }
      }
    }
    return false;
  }

  private static int currentVersion(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(version) FROM schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static List<String> scripts() throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : read("migrations.list").split("\n")) {
      if (!line.trim().isEmpty()) {
        out.add(line.trim());
      }
    }
    return out;
  }

  private static List<String> statements(String script) throws IOException {
    List<String> out = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    for (String line : read(script).split("\n")) {
      String t = line.trim();
      if (t.isEmpty() || t.startsWith("--")) {
        continue;
      }
      sql.append(line).append('\n');
      if (t.endsWith(";")) {
        out.add(sql.substring(0, sql.lastIndexOf(";")));
        sql.setLength(0);
      }
    }
    return out;
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = Migrations.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("missing resource " + resource + " next to " + Migrations.class.getName());
      }
      StringBuilder s = new StringBuilder();
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          s.append(line).append('\n');
        }
      }
      return s.toString();
    }
  }
}
