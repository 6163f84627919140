package org.bulwark.hdfs.balancer.cli;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.text.DateFormat;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Time;
import org.bulwark.hdfs.balancer.BalancerKeys;
import org.bulwark.hdfs.balancer.exec.ActiveNameNodeState;
import org.bulwark.hdfs.balancer.exec.AvailabilityBalancer;
import org.bulwark.hdfs.balancer.exec.BalancerSettings;
import org.bulwark.hdfs.balancer.exec.IterationResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of {@code hdfs balancer -policy availability}, shaped like the stock balancer's: keytab
 * login, the stock lock file ({@code /system/balancer.id}, so it never runs beside a stock
 * balancer), iterations with the stock pause between them, the stock exit codes, and
 * {@code -asService} rounds with the stock interval and retry settings.
 */
public final class AvailabilityRun {
  private static final Logger LOG = LoggerFactory.getLogger(AvailabilityRun.class);
  /** The stock balancer's lock file: one balancer per cluster, stock or ours. */
  static final Path BALANCER_ID_PATH = new Path("/system/balancer.id");

  private final Configuration conf;
  private final BalancerSettings settings;
  private final PrintStream out;

  public AvailabilityRun(Configuration conf, BalancerSettings settings, PrintStream out) {
    this.conf = conf;
    this.settings = settings;
    this.out = out;
  }

  public int run(Collection<URI> nameNodes, Collection<String> nsIds) throws IOException, InterruptedException {
    DefaultMetricsSystem.initialize("Balancer");
    if (!settings.runAsService()) {
      return balanceOnce(nameNodes, nsIds);
    }
    long interval = conf.getTimeDuration(DFSConfigKeys.DFS_BALANCER_SERVICE_INTERVAL_KEY,
        DFSConfigKeys.DFS_BALANCER_SERVICE_INTERVAL_DEFAULT, java.util.concurrent.TimeUnit.MILLISECONDS);
    int retries = conf.getInt(DFSConfigKeys.DFS_BALANCER_SERVICE_RETRIES_ON_EXCEPTION,
        DFSConfigKeys.DFS_BALANCER_SERVICE_RETRIES_ON_EXCEPTION_DEFAULT);
    int exceptions = 0;
    while (!Thread.currentThread().isInterrupted()) {
      try {
        int code = balanceOnce(nameNodes, nsIds);
        LOG.info(code < 0 ? "Balance failed, error code: " + code : "Balance succeed!");
        exceptions = 0;
      } catch (IOException | RuntimeException e) {
        if (e instanceof InterruptedIOException || Thread.currentThread().isInterrupted()) {
          throw (InterruptedException) new InterruptedException("balancer service stopped").initCause(e);
        }
        if (++exceptions > retries) {
          throw e;
        }
        LOG.warn("Encounter exception while do balance work. Already tried {} times", exceptions, e);
      }
      LOG.info("Finished one round, will wait for {} ms for next round", interval);
      Thread.sleep(interval);
    }
    return ExitStatus.SUCCESS.getExitCode();
  }

  private int balanceOnce(Collection<URI> nameNodes, Collection<String> nsIds)
      throws IOException, InterruptedException {
    LOG.info("namenodes  = {}", nameNodes);
    LOG.info("parameters = {}", settings);
    loginFromKeytab();
    ProgressPrinter progress = new ProgressPrinter(out);
    progress.header();
    long start = Time.monotonicNow();
    List<NameNodeConnector> connectors = Collections.emptyList();
    AvailabilityBalancer balancer = null;
    try {
      connectors = connect(nameNodes, nsIds);
      List<NameNodeConnector> selected = new ArrayList<>();
      for (NameNodeConnector c : connectors) {
        if (settings.blockPools().isEmpty() || settings.blockPools().contains(c.getBlockpoolID())) {
          selected.add(c);
        } else {
          LOG.info("Skipping blockpool {}", c.getBlockpoolID());
        }
      }
      if (selected.isEmpty()) {
        out.println("None of the block pools " + settings.blockPools() + " is served by " + nameNodes + ". Exiting...");
        return ExitStatus.ILLEGAL_ARGUMENTS.getExitCode();
      }
      balancer = new AvailabilityBalancer(selected, settings, conf, BALANCER_ID_PATH);
      if (settings.reportFile() != null) {
        balancer.countBlocksBefore();
      }
      List<URI> namespaces = new ArrayList<>();
      for (NameNodeConnector c : selected) {
        namespaces.add(c.getNameNodeUri());
      }
      ReportedStoragesWait reported = new ReportedStoragesWait(new ActiveNameNodeState(conf),
          BalancerKeys.REPORTED_STORAGES_WAIT.get(conf), out, Time::monotonicNow);
      SettledBalanceCheck settled = new SettledBalanceCheck();
      ExitStatus status = ExitStatus.IN_PROGRESS;
      for (int iteration = 0; status == ExitStatus.IN_PROGRESS; iteration++) {
        if (!reported.await(namespaces)) {
          status = ExitStatus.NO_MOVE_PROGRESS;
          break;
        }
        IterationResult r = balancer.runIteration();
        progress.iteration(iteration, r);
        long deleting = reported.awaitingDeletion();
        status = settled.afterIteration(r.status(), !r.nothingPlanned(), deleting > 0);
        if (status != r.status()) {
          out.println("The cluster looks balanced, but " + (deleting > 0 ? "the NameNode has " + deleting
              + " replicas to delete that the DataNodes still count" : "the last iteration's moves may not all be"
              + " reported yet (their excess replicas deleted, the DataNodes' use)") + ": looking again in "
              + settings.iterationPauseMillis() + " ms.");
        }
        if (r.status() == ExitStatus.IN_PROGRESS && r.nothingPlanned()) {
          // The NameNode deletes a moved block's source replica a redundancy round or two and a heartbeat
          // after the move, and the source reports its use a heartbeat later: until then it still looks full.
          out.println("No block can be moved on what the NameNode and the DataNodes report now; the last "
              + "iteration's moves may not all be reported yet. Looking again in " + settings.iterationPauseMillis()
              + " ms (an idle iteration; " + idleLimit(settings.maxIdleIterations()) + ").");
        }
        if (status == ExitStatus.IN_PROGRESS) {
          Thread.sleep(settings.iterationPauseMillis());
        }
      }
      if (status == ExitStatus.NO_MOVE_BLOCK) {
        out.println("No block can be moved. Exiting...");
      }
      if (status == ExitStatus.SUCCESS) {
        out.println(settings.spreadRacks() ? "The cluster is balanced and its racks spread as far as allowed. Exiting..."
            : "The cluster is balanced. Exiting...");
      }
      if (settings.reportFile() != null) {
        balancer.countBlocksAfter();
      }
      BalanceReport report = new BalanceReport(balancer.record(), settings.threshold(),
          (Time.monotonicNow() - start) / 1000.0);
      report.printSummary(out);
      if (settings.reportFile() != null) {
        report.writeJson(settings.reportFile());
        out.println("Report written to " + settings.reportFile());
      }
      return status.getExitCode();
    } finally {
      if (balancer != null) {
        balancer.close();
      }
      for (NameNodeConnector c : connectors) {
        IOUtils.cleanupWithLogger(LOG, c);
      }
      out.format("%-24s ", DateFormat.getDateTimeInstance().format(new Date()));
      out.println("Balancing took " + (Time.monotonicNow() - start) / 1000.0 + " seconds");
    }
  }

  /** What {@code -idleiterations} allows, in words. */
  private static String idleLimit(int maxIdleIterations) {
    return maxIdleIterations < 0 ? "-idleiterations -1: no limit"
        : "the run ends after " + maxIdleIterations + " in a row, -idleiterations";
  }

  /**
   * One connector per namespace, as {@code NameNodeConnector.newNameNodeConnectors} makes them, but
   * closing those already made when a later one fails: each holds the lock file of its namespace,
   * and a leaked one would lock every later run out while this JVM lives.
   */
  private List<NameNodeConnector> connect(Collection<URI> nameNodes, Collection<String> nsIds) throws IOException {
    List<NameNodeConnector> made = new ArrayList<>();
    try {
      for (URI uri : nameNodes) {
        String nsId = nsIds != null && nsIds.contains(uri.getAuthority()) ? uri.getAuthority() : null;
        NameNodeConnector c = new NameNodeConnector("Balancer", uri, nsId, BALANCER_ID_PATH, null, conf,
            settings.maxIdleIterations());
        made.add(c);
        c.getKeyManager().startBlockKeyUpdater();
      }
      return made;
    } catch (IOException | RuntimeException e) {
      for (NameNodeConnector c : made) {
        IOUtils.cleanupWithLogger(LOG, c);
      }
      throw e;
    }
  }

  /** As the stock balancer: {@code dfs.balancer.keytab.enabled} logs in from the keytab. */
  private void loginFromKeytab() throws IOException {
    if (conf.getBoolean(DFSConfigKeys.DFS_BALANCER_KEYTAB_ENABLED_KEY,
        DFSConfigKeys.DFS_BALANCER_KEYTAB_ENABLED_DEFAULT)) {
      LOG.info("Keytab is configured, will login using keytab.");
      UserGroupInformation.setConfiguration(conf);
      InetSocketAddress addr = NetUtils.createSocketAddr(conf.get(DFSConfigKeys.DFS_BALANCER_ADDRESS_KEY,
          DFSConfigKeys.DFS_BALANCER_ADDRESS_DEFAULT), 0, DFSConfigKeys.DFS_BALANCER_ADDRESS_KEY);
      SecurityUtil.login(conf, DFSConfigKeys.DFS_BALANCER_KEYTAB_FILE_KEY,
          DFSConfigKeys.DFS_BALANCER_KERBEROS_PRINCIPAL_KEY, addr.getHostName());
    }
  }
}
