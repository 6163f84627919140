package org.bulwark.hdfs.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.TcpProxy;
import org.bulwark.hdfs.testkit.TestPostgres;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;

/**
 * The monitor survives its database: a TCP proxy between it and the real PostgreSQL server cuts every
 * connection (as a database restart or a partition would) and refuses new ones; meanwhile polls fail, the
 * history API answers 503 and the monitor keeps running; once the proxy serves again, the next poll
 * records what changed during the outage, and nothing is recorded twice.
 */
class StoreOutageIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static long rows(String schema, String sql) throws Exception {
    try (Connection c = TestPostgres.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + schema + "." + sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void pollsAndQueriesResumeAfterTheDatabaseComesBackWithNothingRecordedTwice() throws Exception {
    String schema = TestPostgres.createSchema("bulwark_outage");
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:1").replication(2).build();
        TcpProxy proxy = new TcpProxy(new InetSocketAddress("127.0.0.1", 5432))) {
      for (int i = 0; i < 5; i++) {
        c.writeFile(new Path("/d/f" + i), 1024, WriteOrigin.offCluster());
      }
      c.awaitReplication(0, new Path("/d"), WAIT);
      Configuration conf = c.conf();
      conf.set("bulwark.monitor.jdbc.url", "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/test?currentSchema=" + schema
          + "&socketTimeout=10&connectTimeout=5");
      conf.set("bulwark.monitor.jdbc.user", "postgres");
      conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
      conf.set("bulwark.monitor.poll.interval", "1h");
      try (BlockMonitor monitor = new BlockMonitor(conf)) {
        monitor.start();
        monitor.pollNow();
        String api = "http://127.0.0.1:" + monitor.httpAddress().getPort() + "/api/block?path=/d/f0";
        assertTrue(BlockMonitorClusterIT.get(api, 200).contains("\"goneSince\" : 0"));
        assertEquals(10, rows(schema, "replica_interval WHERE gone_since IS NULL"));

        proxy.cut();
        // Changes the next successful poll must record.
        c.fs().delete(new Path("/d/f0"), false);
        c.writeFile(new Path("/d/new"), 1024, WriteOrigin.offCluster());
        c.awaitReplication(0, new Path("/d"), WAIT);
        assertThrows(IOException.class, monitor::pollNow, "a poll fails while the database is away");
        assertThrows(IOException.class, monitor::pollNow, "and the next one too");
        BlockMonitorClusterIT.get(api, 503);
        assertTrue(monitor.status().failedPolls() >= 2);

        proxy.restore();
        monitor.pollNow();
        BlockMonitorClusterIT.get(api, 200);
        assertEquals(10, rows(schema, "replica_interval WHERE gone_since IS NULL"), "4 old files and the new one, 2 replicas each");
        assertEquals(12, rows(schema, "replica_interval"), "every interval once: 10 open, f0's 2 closed");
        monitor.pollNow();
        assertEquals(12, rows(schema, "replica_interval"), "a poll after recovery records nothing again");
      }
    }
  }

  @Test
  void aDatabaseThatStopsAnsweringFailsPagesAndPollsAfterTheSocketTimeout() throws Exception {
    String schema = TestPostgres.createSchema("bulwark_frozen");
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:1").replication(2).build();
        TcpProxy proxy = new TcpProxy(new InetSocketAddress("127.0.0.1", 5432))) {
      c.writeFile(new Path("/d/f"), 1024, WriteOrigin.offCluster());
      Configuration conf = c.conf();
      // No timeout in the URL: the monitor's own default, set here shorter, must bound the wait.
      conf.set("bulwark.monitor.jdbc.url", "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/test?currentSchema=" + schema);
      conf.set("bulwark.monitor.jdbc.user", "postgres");
      conf.set("bulwark.monitor.jdbc.socket-timeout", "3s");
      conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
      conf.set("bulwark.monitor.poll.interval", "1h");
      try (BlockMonitor monitor = new BlockMonitor(conf)) {
        monitor.start();
        monitor.pollNow();
        String api = "http://127.0.0.1:" + monitor.httpAddress().getPort() + "/api/block?path=/d/f";
        assertEquals(200, status(api));

        proxy.freeze();
        assertEquals(503, status(api), "a query the database never answers ends in 503, not a page that hangs");
        assertThrows(IOException.class, monitor::pollNow, "and a poll fails rather than hangs");

        proxy.thaw();
        monitor.pollNow();
        assertEquals(200, status(api), "served again on new connections");
      }
    }
  }

  /** The HTTP status of a GET, failing the test (not hanging it) when no answer comes within 60 s. */
  private static int status(String url) throws IOException {
    java.net.HttpURLConnection c = (java.net.HttpURLConnection) new java.net.URL(url).openConnection();
    c.setConnectTimeout(10_000);
    c.setReadTimeout(60_000);
    try {
      return c.getResponseCode();
    } finally {
      c.disconnect();
    }
  }
}
