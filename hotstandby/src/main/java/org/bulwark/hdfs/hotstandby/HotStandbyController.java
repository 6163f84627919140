package org.bulwark.hdfs.hotstandby;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.ha.BadFencingConfigurationException;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.tools.NNHAServiceTarget;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.Tool;
import org.bulwark.hdfs.common.cli.DaemonCommand;
import org.bulwark.hdfs.common.security.KeytabLogin;
import org.bulwark.hdfs.hotstandby.controller.ControllerLoop;
import org.bulwark.hdfs.hotstandby.reports.BlockReportTrigger;
import org.bulwark.hdfs.hotstandby.controller.ControllerMetrics;
import org.bulwark.hdfs.hotstandby.controller.ControllerSettings;
import org.bulwark.hdfs.hotstandby.controller.ControllerState;
import org.bulwark.hdfs.hotstandby.controller.LocalNameNode;
import org.bulwark.hdfs.hotstandby.controller.OtherNameNodes;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.fencing.LocalExitWitness;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;
import org.bulwark.hdfs.hotstandby.health.HealthMonitor;
import org.bulwark.hdfs.hotstandby.health.HaServiceProxies;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.rpc.FailoverRpcServer;
import org.bulwark.hdfs.hotstandby.warmup.ClientProtocolPrimer;
import org.bulwark.hdfs.hotstandby.zookeeper.ZnodeGuard;
import org.bulwark.hdfs.hotstandby.zookeeper.ZooKeeperAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hdfs hotstandby}: the ZooKeeper failover controller that runs beside one NameNode of an HA
 * nameservice (any number of NameNodes, any number of nameservices). It checks its NameNode's health,
 * stands for election while healthy, and when it wins fences the previous active and makes its own
 * NameNode active, then publishes it for {@link ZooKeeperFailoverProxyProvider} clients.
 *
 * <p>Its NameNode is found as the stock ZKFC finds it: {@code dfs.nameservice.id} /
 * {@code dfs.ha.namenode.id} when set, else the configured NameNode whose address is local.
 */
public final class HotStandbyController extends Configured implements Tool, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HotStandbyController.class);
  private static final String USAGE = "Usage: hdfs hotstandby [generic options]";

  private CuratorFramework zooKeeper;
  private LeaderElection election;
  private ControllerLoop loop;
  private Consumer<String> activationFaults;
  private HealthMonitor health;
  /** The other NameNodes of the nameservice, checked as this controller's own is: see PreviousActiveFencer. Filled before any thread starts. */
  private final Map<String, HealthMonitor> peers = new HashMap<>();
  private BlockReportTrigger blockReports;
  private ClientProtocolPrimer primer;
  private LocalExitWitness exitWitness;
  private FailoverRpcServer rpc;
  private ControllerMetrics metrics;
  private LocalNameNode nameNode;
  private boolean started;
  private boolean closed;

  public HotStandbyController() {
    super(new HdfsConfiguration());
  }

  public HotStandbyController(Configuration conf) {
    super(conf);
  }

  /**
   * Checks the configuration, connects to ZooKeeper and starts the controller; returns at once.
   *
   * @throws IllegalArgumentException (one line) on configuration a controller cannot run with
   */
  public synchronized void start() throws IOException {
    if (started) {
      throw new IllegalStateException("already started");
    }
    started = true;
    Configuration conf = getConf();
    String ns = DFSUtil.getNamenodeNameServiceId(conf);
    if (ns == null) {
      throw new IllegalArgumentException("cannot tell which nameservice this controller serves: set dfs.nameservices "
          + "(one nameservice) or dfs.nameservice.id");
    }
    if (!HAUtil.isHAEnabled(conf, ns)) {
      throw new IllegalArgumentException("nameservice " + ns + " is not HA: dfs.ha.namenodes." + ns
          + " must list two or more NameNodes");
    }
    String nn;
    try {
      nn = HAUtil.getNameNodeId(conf, ns);
    } catch (HadoopIllegalArgumentException e) {
      throw new IllegalArgumentException("cannot tell which NameNode of " + ns + " runs here: no dfs.namenode.rpc-address."
          + ns + ".<nn> is a local address; set dfs.ha.namenode.id");
    }
    Map<String, Integer> priorities = new LinkedHashMap<>();
    for (String other : DFSUtilClient.getNameNodeIds(conf, ns)) {
      priorities.put(other, HotStandbyKeys.PRIORITY.get(conf, ns, other).intValue());
    }
    if (!priorities.containsKey(nn)) {
      throw new IllegalArgumentException("NameNode " + nn + " is not listed in dfs.ha.namenodes." + ns + " " + priorities.keySet());
    }
    NNHAServiceTarget target = new NNHAServiceTarget(conf, ns, nn);
    if (!target.isAutoFailoverEnabled()) {
      throw new IllegalArgumentException("dfs.ha.automatic-failover.enabled is not true for " + ns
          + ": the NameNodes would refuse the controller's transitions; set it to true and restart them");
    }
    try {
      target.checkFencingConfigured();
    } catch (BadFencingConfigurationException e) {
      throw new IllegalArgumentException("dfs.ha.fencing.methods is not valid: " + e.getMessage().split("\n")[0]
          + " (use e.g. sshfence or shell(/path/to/fence.sh))");
    }
    loginAsNameNode(conf, ns, nn, target.getAddress().getHostName());
    ZooKeeperAccess access = ZooKeeperAccess.from(conf);
    String quorum = access.quorum();
    String parent = HotStandbyKeys.parentZnode(conf);
    long sessionTimeout = HotStandbyKeys.ZK_SESSION_TIMEOUT.get(conf);
    ControllerSettings settings = new ControllerSettings(priorities.get(nn), priorities,
        HotStandbyKeys.FAILBACK.get(conf), HotStandbyKeys.FAILBACK_DELAY.get(conf),
        HotStandbyKeys.LOWER_PRIORITY_DELAY.get(conf), Math.max(1000, HotStandbyKeys.LOWER_PRIORITY_DELAY.get(conf)),
        sessionTimeout, HotStandbyKeys.UNCLAIMED_ACTIVE_WAIT.get(conf));
    long healthInterval = HotStandbyKeys.HEALTH_INTERVAL.get(conf);
    long healthTimeout = HotStandbyKeys.HEALTH_RPC_TIMEOUT.get(conf);
    long gracefulTimeout = HotStandbyKeys.GRACEFUL_FENCE_TIMEOUT.get(conf);
    long transitionTimeout = HotStandbyKeys.TRANSITION_TIMEOUT.get(conf);
    long manualTimeout = HotStandbyKeys.MANUAL_FAILOVER_TIMEOUT.get(conf);

    nameNode = new LocalNameNode(conf, ns, nn, target.getAddress(),
        conf.getTrimmed(DFSUtil.addKeySuffixes("dfs.namenode.rpc-address", ns, nn)), transitionTimeout);
    try {
      zooKeeper = access.builder((int) sessionTimeout).build();
      zooKeeper.start();
      if (!zooKeeper.blockUntilConnected((int) Math.max(sessionTimeout, 5000), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        throw new IOException("cannot connect to ZooKeeper at " + quorum + " (bulwark.hotstandby.zookeeper.quorum / "
            + "ha.zookeeper.quorum)");
      }
      refuseIfStockZkfcRuns(conf, ns);
      ZNodes paths = new ZNodes(parent, ns);
      new ZnodeGuard(zooKeeper, access, paths).secure(nn);
      metrics = new ControllerMetrics(ns, nn);
      // The nameservice's other NameNodes, resolved once: watched as peers, asked for their state before a takeover.
      Map<String, NNHAServiceTarget> otherTargets = new LinkedHashMap<>();
      for (String other : priorities.keySet()) {
        if (!other.equals(nn)) {
          otherTargets.put(other, new NNHAServiceTarget(conf, ns, other));
        }
      }
      PreviousActiveFencer.Silence silence = PreviousActiveFencer.Silence.UNKNOWN;
      if (HotStandbyKeys.SKIP_GRACEFUL_WHEN_SILENT.get(conf)) {
        for (Map.Entry<String, NNHAServiceTarget> other : otherTargets.entrySet()) {
          HealthMonitor peer = new HealthMonitor(conf, healthCheckAddress(other.getValue()), healthInterval,
              healthTimeout, report -> { }, ns + "-" + other.getKey() + "-seen-by-" + nn);
          peer.onFatalError(this::fatal);
          peers.put(other.getKey(), peer);
        }
        silence = other -> {
          HealthMonitor peer = peers.get(other);
          return peer == null ? 0 : peer.unansweredMillis();
        };
      }
      PreviousActiveFencer fencer = new PreviousActiveFencer(conf, ns, gracefulTimeout, silence);
      ControllerLoop[] holder = new ControllerLoop[1];
      election = new LeaderElection(zooKeeper, paths, nn, () -> {
        if (holder[0] != null) {
          holder[0].onElectionChange();
        }
      });
      OtherNameNodes others = new OtherNameNodes(otherTargets.keySet(), other -> {
        HAServiceState[] state = new HAServiceState[1];
        HaServiceProxies.call(conf, otherTargets.get(other).getAddress(), gracefulTimeout,
            p -> state[0] = p.getServiceStatus().getState());
        return state[0];
      });
      loop = new ControllerLoop(settings, nameNode, election, fencer, others, metrics);
      loop.onFatalError(this::fatal);
      holder[0] = loop;
      if (HotStandbyKeys.WITNESS_LOCAL_EXIT.get(conf)) {
        exitWitness = LocalExitWitness.forAddress(target.getAddress(), ns + "." + nn);
        loop.witnessExits(exitWitness);
      }
      if (activationFaults != null) {
        loop.injectActivationFaults(activationFaults);
      }
      if (HotStandbyKeys.TRIGGER_BLOCK_REPORTS.get(conf)) {
        blockReports = new BlockReportTrigger(conf, NetUtils.createSocketAddr(nameNode.rpcAddress()), target.getAddress(),
            HotStandbyKeys.TRIGGER_BLOCK_REPORTS_PER_SECOND.get(conf), ns + "-" + nn);
        BlockReportTrigger trigger = blockReports;
        loop.onActivity(new ControllerLoop.ActivityListener() {
          @Override
          public void activated() {
            trigger.activated();
          }

          @Override
          public void deactivated() {
            trigger.stopped();
          }
        });
      }
      zooKeeper.getConnectionStateListenable().addListener((client, state) -> loop.onConnectionState(state));
      loop.onConnectionState(org.apache.curator.framework.state.ConnectionState.CONNECTED);
      election.start();
      Consumer<HealthReport> onHealth = loop::onHealth;
      if (HotStandbyKeys.PRIME_CLIENT_RPC.get(conf)) {
        primer = new ClientProtocolPrimer(conf, NetUtils.createSocketAddr(nameNode.rpcAddress()), ns + "-" + nn);
        ClientProtocolPrimer p = primer;
        onHealth = report -> {
          p.onHealth(report);
          loop.onHealth(report);
        };
      }
      health = new HealthMonitor(conf, healthCheckAddress(target), healthInterval, healthTimeout, onHealth, ns + "-" + nn);
      health.onFatalError(this::fatal);
      loop.healthRecheck(health::reportNextCheck);
      long witnessPoll = HotStandbyKeys.WITNESS_POLL_INTERVAL.get(conf);
      if (exitWitness != null && witnessPoll > 0) {
        exitWitness.watchLeaving(health::processLeaving, witnessPoll);
      }
      InetSocketAddress rpcAddress = target.getZKFCAddress();
      rpc = new FailoverRpcServer(conf, rpcAddress, loop, manualTimeout);
      rpc.start();
      metrics.register();
      loop.start();
      health.start();
      for (HealthMonitor peer : peers.values()) {
        peer.start();
      }
      LOG.info("Hot standby controller of {} started (ZooKeeper {}, znodes {}, priority {}, health checks to {})", nameNode,
          quorum, paths.base(), settings.priority(), healthCheckAddress(target));
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    } catch (Exception e) {
      close();
      throw new IOException("cannot start the controller: " + e.getMessage(), e);
    }
  }

  /**
   * An Error (out of memory, a class that cannot be loaded) ended a thread the controller cannot run without: its
   * decisions, or a health check's. Left so, its ZooKeeper session would hold the lock with nothing to act on a
   * failure. The session is closed first, so the lock and the candidacy go at once (the next leader fences this
   * NameNode if the breadcrumb says it may be active), then the process is halted at once, as Hadoop's daemons halt on
   * an OutOfMemoryError: a JVM past an Error is not trusted with the shutdown hook's clean close, which would also
   * wait for a health-check thread that broke. Through ExitUtil: where halting is disabled (a test's JVM embedding
   * controllers) it throws on this thread instead.
   */
  private void fatal(Throwable error) {
    try {
      zooKeeper.close();
    } finally {
      ExitUtil.halt(1, error);
    }
  }

  /**
   * Fault injection for tests, set before {@link #start}: told after each activation step (see
   * {@link ControllerLoop#injectActivationFaults}), so a test can crash a controller's JVM right after one.
   */
  void injectActivationFaults(Consumer<String> faults) {
    activationFaults = faults;
  }

  /**
   * On a Kerberized cluster, logs in with its NameNode's keytab and principal (the stock ZKFC's
   * identity: {@code dfs.namenode.keytab.file}, {@code dfs.namenode.kerberos.principal}, suffixed keys
   * resolved for this NameNode), and names that principal as the server of its HAServiceProtocol calls.
   */
  private static void loginAsNameNode(Configuration conf, String ns, String nn, String host) {
    if (!KeytabLogin.isKerberos(conf)) {
      return;
    }
    Configuration local = new Configuration(conf);
    NameNode.initializeGenericKeys(local, ns, nn);
    KeytabLogin.loginIfKerberos(local, DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY,
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, host);
    if (conf.get(CommonConfigurationKeys.HADOOP_SECURITY_SERVICE_USER_NAME_KEY) == null) {
      conf.set(CommonConfigurationKeys.HADOOP_SECURITY_SERVICE_USER_NAME_KEY,
          local.get(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY));
    }
  }

  /**
   * Where a NameNode's health is checked: its lifeline RPC address ({@code dfs.namenode.lifeline.rpc-address}) where one
   * is set, as the stock ZKFC does (HDFS-9311), so that a NameNode whose client handlers are all busy (behind a long
   * write lock) is not taken for hung; otherwise its service RPC address, where transitions go too.
   */
  private static InetSocketAddress healthCheckAddress(NNHAServiceTarget target) {
    InetSocketAddress lifeline = target.getHealthMonitorAddress();
    return lifeline != null ? lifeline : target.getAddress();
  }

  private void refuseIfStockZkfcRuns(Configuration conf, String ns) throws Exception {
    String stockLock = conf.getTrimmed("ha.zookeeper.parent-znode", "/hadoop-ha") + "/" + ns + "/ActiveStandbyElectorLock";
    if (zooKeeper.checkExists().forPath(stockLock) != null) {
      throw new IllegalArgumentException("a stock ZKFC (DFSZKFailoverController) manages nameservice " + ns + " (its lock "
          + stockLock + " exists): stop every zkfc of " + ns + " (hdfs --daemon stop zkfc) before starting hdfs hotstandby");
    }
  }

  public ControllerState state() {
    return loop == null ? ControllerState.INITIALIZING : loop.state();
  }

  public boolean isActive() {
    return loop != null && loop.isActive();
  }

  public ControllerMetrics metrics() {
    return metrics;
  }

  /** The controller's ZooKeeper client (tests expire its session). */
  public CuratorFramework zooKeeperClient() {
    return zooKeeper;
  }

  /** Where {@code hdfs haadmin -failover} reaches this controller. */
  public InetSocketAddress rpcAddress() {
    return rpc.address();
  }

  /** Stops the controller; a leader releases its lock, and its NameNode is fenced by the next leader. */
  @Override
  public synchronized void close() {
    close(false);
  }

  /**
   * Stops the controller as {@code hdfs --daemon stop} does, the process about to exit: a leader keeps its lock, and
   * its ZooKeeper session is left to expire (the process's end drops the connection), so that a controller started
   * again within the session timeout (an upgrade, a restart) takes the lock over and the NameNode stays active.
   */
  public synchronized void stopLeavingLock() {
    close(true);
  }

  private void close(boolean keepLock) {
    if (closed) {
      return;
    }
    closed = true;
    boolean leaveSession = keepLock && loop != null && loop.isActive();
    // The loop first: it must decide nothing on the health checks the close cuts short.
    closeQuietly(rpc);
    if (leaveSession) {
      loop.closeKeepingLock();
    } else {
      closeQuietly(loop);
    }
    closeQuietly(health);
    for (HealthMonitor peer : peers.values()) {
      closeQuietly(peer);
    }
    closeQuietly(exitWitness);
    closeQuietly(blockReports);
    closeQuietly(primer);
    closeQuietly(election);
    if (metrics != null) {
      metrics.unregister();
    }
    if (zooKeeper != null && !leaveSession) {
      zooKeeper.close();
    }
  }

  private static void closeQuietly(Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Closing {}: {}", c.getClass().getSimpleName(), e.toString());
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    return DaemonCommand.runUntilStopped("hotstandby", USAGE, args, new DaemonCommand.Daemon() {
      @Override
      public void start() throws Exception {
        HotStandbyController.this.start();
      }

      @Override
      public void close() {
        HotStandbyController.this.stopLeavingLock();
      }
    });
  }

  public static void main(String[] args) {
    System.exit(runMain(args, System.err));
  }

  static int runMain(String[] args, PrintStream err) {
    return runMain(new HotStandbyController(), args, err);
  }

  /** The daemon's command line run with {@code controller} (a test's, with faults injected). */
  static int runMain(HotStandbyController controller, String[] args, PrintStream err) {
    DefaultMetricsSystem.initialize("HotStandby");
    return DaemonCommand.main("hotstandby", new HdfsConfiguration(), controller, args, err);
  }
}
