package org.bulwark.hdfs.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The PostgreSQL server the monitor's production-store tests run against: the one these machines run on
 * 127.0.0.1:5432 (trust authentication, database {@code test}), each test in a schema of its own so runs
 * never see each other's rows. When the server cannot be reached the test fails with one line naming it
 * and the command that starts it, rather than with a driver's stack of connection errors.
 */
public final class TestPostgres {
  /** The server's database {@code test}. */
  public static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

  private TestPostgres() {
  }

  /** The test user's connection properties (trust authentication: no password). */
  public static Properties credentials() {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    return p;
  }

  /** A connection to the database {@code test}. */
  public static Connection connect() {
    try {
      return DriverManager.getConnection(URL, credentials());
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL at 127.0.0.1:5432 (database test, user postgres, trust authentication) "
          + "is needed and cannot be reached (" + firstLine(e) + "): run the tests with ./bulwark test, which starts it");
    }
  }

  /** Creates a new schema named {@code prefix} plus a unique suffix; returns its name. */
  public static String createSchema(String prefix) {
    String schema = prefix.replaceAll("\\W", "_") + "_" + Long.toString(System.nanoTime(), 36) + "_" + ProcessHandle.current().pid();
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the schema " + schema + " in PostgreSQL's database test: " + firstLine(e));
    }
    return schema;
  }

  /** The JDBC URL of {@code schema} in the database {@code test}. */
  public static String url(String schema) {
    return URL + "?currentSchema=" + schema;
  }

  private static String firstLine(Exception e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    return m.split("\n")[0];
  }
}
