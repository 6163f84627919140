package org.bulwark.hdfs.it.failure;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.JdbcHistoryStore;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.ForkedJvm;
import org.bulwark.hdfs.testkit.FreePorts;
import org.bulwark.hdfs.testkit.TestPostgres;

/**
 * {@code hdfs blockmonitor} in a JVM of its own, recording into a schema of its own on the PostgreSQL
 * server at 127.0.0.1:5432 (the production store): a process the suite can kill with kill -9 while the
 * test reads the same store to compare it with the NameNodes.
 */
final class ForkedMonitor implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Pattern POLLS = Pattern.compile("\"polls\" : (\\d+)");
  private static final Pattern IN_PROGRESS = Pattern.compile("\"pollInProgress\" : (true|false)");

  private final Configuration clusterConf;
  private final File dir;
  private final String schema;
  private final int port;
  private Process process;
  private int starts;

  private ForkedMonitor(Configuration clusterConf, File dir, String schema, int port) {
    this.clusterConf = clusterConf;
    this.dir = dir;
    this.schema = schema;
    this.port = port;
  }

  /** Creates a fresh schema for the history and starts the monitor polling every second. */
  static ForkedMonitor start(Configuration clusterConf, File dir) throws IOException, InterruptedException {
    String schema = TestPostgres.createSchema("it");
    ForkedMonitor m = new ForkedMonitor(clusterConf, dir, schema, FreePorts.pick());
    m.restart(1000);
    return m;
  }

  private String jdbcUrl() {
    return TestPostgres.url(schema);
  }

  /**
   * Starts the monitor process again (it must not be running), at most {@code rpcPerSecond} NameNode
   * calls a second, and waits until it has finished a poll.
   */
  synchronized void restart(int rpcPerSecond) throws IOException, InterruptedException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("the monitor is running");
    }
    Configuration conf = new Configuration(clusterConf);
    conf.set("bulwark.monitor.jdbc.url", jdbcUrl());
    conf.set("bulwark.monitor.jdbc.user", "postgres");
    conf.set("bulwark.monitor.http-address", "127.0.0.1:" + port);
    conf.set("bulwark.monitor.poll.interval", "1s");
    conf.setInt("bulwark.monitor.max-rpc-per-sec", rpcPerSecond);
    File site = new File(dir, "monitor-site.xml");
    try (OutputStream out = new FileOutputStream(site)) {
      conf.writeXml(out);
    }
    starts++;
    process = ForkedJvm.start(BlockMonitor.class, new File(dir, "monitor-" + starts + ".log"), "-conf", site.getPath());
    try {
      Await.until("the forked monitor finished a poll", WAIT, () -> polls() >= 1);
    } catch (TimeoutException e) {
      throw new IOException("the block monitor did not poll; see " + new File(dir, "monitor-" + starts + ".log"), e);
    }
  }

  /** Polls the running process has finished, or -1 when it does not answer. */
  long polls() {
    return overviewNumber(POLLS);
  }

  /** Whether the running process says a poll is under way (false when it does not answer). */
  boolean pollInProgress() {
    return overviewNumber(IN_PROGRESS) == 1;
  }

  synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  private long overviewNumber(Pattern field) {
    try {
      HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/api/overview").openConnection();
      c.setConnectTimeout(1000);
      c.setReadTimeout(5000);
      try (InputStream in = c.getInputStream()) {
        Matcher m = field.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        return !m.find() ? -1 : "true".equals(m.group(1)) ? 1 : "false".equals(m.group(1)) ? 0 : Long.parseLong(m.group(1));
      }
    } catch (IOException e) {
      return -1;
    }
  }

  /** Waits until a poll that started after this call has finished: the store then holds what the NameNodes said since. */
  void awaitFreshPoll() throws TimeoutException, InterruptedException {
    long now = polls();
    Await.until("the monitor finished a poll begun after now", WAIT, () -> polls() >= now + 2);
  }

  /** kill -9 */
  synchronized void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  /** A reader of the monitor's store, for the test to compare with the NameNodes (read-only: the monitor holds the lease). */
  HistoryStore openStore() throws IOException {
    return JdbcHistoryStore.openReadOnly(jdbcUrl(), TestPostgres.credentials(), "PostgreSQL " + schema);
  }

  @Override
  public void close() throws InterruptedException {
    kill();
    try (Connection c = TestPostgres.connect(); Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA " + schema + " CASCADE");
    } catch (SQLException e) {
      // The schema stays behind for a look; it is one of many in database test.
    }
  }
}
