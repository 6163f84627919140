package org.bulwark.hdfs.monitor;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.util.Tool;
import org.bulwark.hdfs.common.cli.DaemonCommand;
import org.bulwark.hdfs.common.security.KeytabLogin;
import org.bulwark.hdfs.monitor.collect.HistoryPoller;
import org.bulwark.hdfs.monitor.collect.MonitorStatus;
import org.bulwark.hdfs.monitor.collect.NamespaceUris;
import org.bulwark.hdfs.monitor.collect.PollerMetrics;
import org.bulwark.hdfs.monitor.health.HealthChecker;
import org.bulwark.hdfs.monitor.health.HealthMetrics;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.StoreFactory;
import org.bulwark.hdfs.monitor.web.MonitorHttpServer;
import org.bulwark.hdfs.monitor.web.WebEndpoints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hdfs blockmonitor}: polls every namespace for where each replica is, records only what
 * changed (so the history of every replica's location is kept), and serves it in a web UI and JSON
 * API. An unreachable NameNode does not stop it: the UI stays up and shows how stale its figures are.
 */
public final class BlockMonitor extends Configured implements Tool, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(BlockMonitor.class);
  private static final String USAGE = "Usage: hdfs blockmonitor [generic options]";

  private HistoryStore store;
  private HistoryPoller poller;
  private MonitorHttpServer http;
  private PollerMetrics metrics;
  private HealthChecker health;
  private HealthMetrics healthMetrics;

  public BlockMonitor() {
    super(new HdfsConfiguration());
  }

  public BlockMonitor(Configuration conf) {
    super(conf);
  }

  /** Opens the store, starts the web UI and the poller; returns at once. Bad configuration: one-line exception. */
  public synchronized void start() throws IOException {
    Configuration conf = getConf();
    List<URI> namespaces = NamespaceUris.of(conf);
    long interval = MonitorKeys.POLL_INTERVAL.get(conf);
    long rate = MonitorKeys.MAX_RPC_PER_SEC.get(conf);
    long retention = TimeUnit.DAYS.toMillis(MonitorKeys.RETENTION_DAYS.get(conf));
    WebEndpoints web = WebEndpoints.of(conf);
    String canaryDir = HealthChecker.canaryDir(conf);
    KeytabLogin.loginIfKerberos(conf, MonitorKeys.KEYTAB.getName(), MonitorKeys.KERBEROS_PRINCIPAL.getName(),
        web.host());
    try {
      store = StoreFactory.open(conf);
      poller = new HistoryPoller(conf, namespaces, store, rate, interval, retention, canaryDir);
      health = new HealthChecker(conf, namespaces, poller.status(), canaryDir);
      http = new MonitorHttpServer(conf, web, store, poller.status(), health);
      http.start();
      metrics = new PollerMetrics(poller.status());
      metrics.register();
      healthMetrics = new HealthMetrics(health::latest, health.namespaces());
      healthMetrics.register();
      poller.start();
      health.start();
      LOG.info("Block monitor: namespaces {}, store {}, web UI {}", namespaces, store.describe(), http.urls());
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Where the web UI answers over HTTP; null when {@code dfs.http.policy} is HTTPS_ONLY. */
  public InetSocketAddress httpAddress() {
    return http.httpAddress();
  }

  /** Where the web UI answers over HTTPS; null under the default {@code dfs.http.policy} HTTP_ONLY. */
  public InetSocketAddress httpsAddress() {
    return http.httpsAddress();
  }

  public MonitorStatus status() {
    return poller.status();
  }

  public HealthChecker health() {
    return health;
  }

  public HistoryStore store() {
    return store;
  }

  /** One poll of every namespace now (tests and the demo; the daemon polls on its own). */
  public void pollNow() throws IOException, InterruptedException {
    poller.pollOnce();
  }

  @Override
  public synchronized void close() {
    if (metrics != null) {
      metrics.unregister();
    }
    if (healthMetrics != null) {
      healthMetrics.unregister();
    }
    if (health != null) {
      health.close();
    }
    if (poller != null) {
      poller.close();
    }
    if (http != null) {
      try {
        http.close();
      } catch (IOException e) {
        LOG.warn("{}", e.getMessage());
      }
    }
    if (store != null) {
      try {
        store.close();
      } catch (IOException e) {
        LOG.warn("{}", e.getMessage());
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    return DaemonCommand.runUntilStopped("blockmonitor", USAGE, args, new DaemonCommand.Daemon() {
      @Override
      public void start() throws Exception {
        BlockMonitor.this.start();
      }

      @Override
      public void close() {
        BlockMonitor.this.close();
      }
    });
  }

  public static void main(String[] args) {
    System.exit(runMain(args, System.err));
  }

  static int runMain(String[] args, PrintStream err) {
    DefaultMetricsSystem.initialize("BlockMonitor");
    return DaemonCommand.main("blockmonitor", new HdfsConfiguration(), new BlockMonitor(), args, err);
  }
}
