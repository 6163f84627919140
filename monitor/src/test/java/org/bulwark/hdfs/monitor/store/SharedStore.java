package org.bulwark.hdfs.monitor.store;

import java.io.File;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import org.bulwark.hdfs.testkit.TestPostgres;

/**
 * One history store that a test opens as several monitors would, on either engine: an embedded H2 file
 * (opened twice in one JVM, where H2's file lock does not keep the second out) or a schema of its own on the
 * PostgreSQL server on 127.0.0.1:5432. The test also reaches its tables directly, around the store.
 */
public final class SharedStore {
  /** The default {@code bulwark.monitor.store.lease-timeout}. */
  public static final long LEASE_TIMEOUT = 300_000;

  private final File dir;
  private final String url;
  private final Properties props;

  /** A new, empty store: {@code engine} is {@code embedded} or {@code postgresql}. */
  public SharedStore(String engine, File parent, String name) {
    if ("embedded".equals(engine)) {
      dir = new File(parent, name);
      url = "jdbc:h2:file:" + new File(dir, "history").getAbsolutePath() + ";WRITE_DELAY=0";
      props = new Properties();
    } else {
      dir = null;
      url = TestPostgres.url(TestPostgres.createSchema("bulwark_" + name));
      props = TestPostgres.credentials();
    }
  }

  /** Its JDBC URL. */
  public String url() {
    return url;
  }

  /** Opens the store for writing, as a monitor starting on it does. */
  public HistoryStore open() throws IOException {
    return open(LEASE_TIMEOUT);
  }

  public HistoryStore open(long leaseTimeoutMillis) throws IOException {
    return dir != null ? StoreFactory.embedded(dir, leaseTimeoutMillis)
        : JdbcHistoryStore.open(url, props, "PostgreSQL " + url, leaseTimeoutMillis);
  }

  /** The lease looks expired, whatever the clocks say: renewed long before any lease timeout. */
  public void expireLease() throws SQLException {
    execute("UPDATE writer_lease SET renewed_at = TIMESTAMP WITH TIME ZONE '2000-01-01 00:00:00+00:00'");
  }

  /** The instance the lease row names, or null. */
  public String leaseHolder() throws SQLException {
    return text("SELECT instance FROM writer_lease");
  }

  /** Every table's row count and the lease row: what a monitor that must write nothing could have changed. */
  public String visible() throws SQLException {
    StringBuilder b = new StringBuilder();
    for (String table : new String[] {"schema_version", "namespace", "datanode", "storage", "replica_interval", "block_file",
        "block_event", "datanode_state", "poll", "rack_fill"}) {
      b.append(table).append('=').append(text("SELECT COUNT(*) FROM " + table)).append(' ');
    }
    return b.append(text("SELECT instance || ' ' || host || ' ' || pid || ' ' || acquired_at || ' ' || renewed_at FROM writer_lease"))
        .toString();
  }

  /** A connection of its own to the store's database, for a test writing many rows at once. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, props);
  }

  public void execute(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, props); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** The first column of the first row of {@code query}, as text. */
  public String text(String query) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, props); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }
}
