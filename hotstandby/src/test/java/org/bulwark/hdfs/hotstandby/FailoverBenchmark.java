package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.ZKFailoverController;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.bulwark.hdfs.hotstandby.ProcessFailoverRuns.Failure;
import org.bulwark.hdfs.hotstandby.ProcessFailoverRuns.Peer;
import org.bulwark.hdfs.hotstandby.ProcessHaCluster.ControllerKind;
import org.bulwark.hdfs.hotstandby.controller.ControllerState;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BenchChart;
import org.bulwark.hdfs.testkit.BenchReport;
import org.bulwark.hdfs.testkit.DaemonProcess;
import org.bulwark.hdfs.testkit.SplitBrainChecker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code mvn -B -T 1 -Pbench -Dbench=failover verify}: the active NameNode of one HA pair is killed again
 * and again, under Hadoop's stock ZKFC with {@code ConfiguredFailoverProxyProvider} and under
 * {@link HotStandbyController} with {@link ZooKeeperFailoverProxyProvider}, on the same embedded
 * cluster, in alternating rounds, both with health checks every 200 ms and 2 s ZooKeeper sessions.
 * Per failover: active killed to the other active ({@code failover_ms}), the {@code transitionToActive}
 * call alone ({@code switch_ms}), and the longest gap between two successful {@code getFileInfo} calls of
 * a client looping on it ({@code client_outage_ms}); a split-brain checker samples both NameNodes
 * every millisecond throughout. The pause suite ({@link PauseRuns}) counts the failovers that pauses which must not
 * fail over made under each controller ({@code failovers}, mode {@code pause}).
 */
@Tag("bench-all")
@Tag("bench-failover")
class FailoverBenchmark {
  private static final int ROUNDS = 4;
  private static final int PER_ROUND = Integer.getInteger("bench.failover.perRound", 6);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int PROCESS_RUNS = Integer.getInteger("bench.failover.processRuns", 20);
  /** Both controllers' graceful-fence timeout: past it, the fencing methods run (a vanished host never answers). */
  private static final long GRACEFUL_FENCE_MS = Long.getLong("bench.failover.gracefulFenceMs", 200);
  /** {@code -Dbench.failover.peers=false}: the kill -9 rows with their own client only, as the other kinds run. */
  private static final boolean PEERS = Boolean.parseBoolean(System.getProperty("bench.failover.peers", "true"));
  /** Clients' RPC timeout (ipc.client.rpc-timeout.ms): how long a call to a hung NameNode waits. */
  private static final long CLIENT_RPC_TIMEOUT_MS = 2000;
  /** Clients at scale: client JVMs on this host, ZooKeeper's limit of connections from one address, failovers. */
  private static final int SCALE_CLIENTS = Integer.getInteger("bench.failover.scaleClients", 100);
  private static final int SCALE_MAX_CLIENT_CNXNS = 20;
  private static final int SCALE_RUNS = Integer.getInteger("bench.failover.scaleRuns", 2);
  /** {@code -Dbench.failover.clientRelay=false}: the clients-at-scale JVMs without a session share no record. */
  private static final boolean SCALE_CLIENT_RELAY =
      Boolean.parseBoolean(System.getProperty("bench.failover.clientRelay", "true"));
  /**
   * {@code -Dbench.failover.sessionsPerHost=N}: the clients-at-scale JVMs' cap on ZooKeeper sessions
   * ({@code bulwark.hotstandby.client.zookeeper.sessions-per-host}); unset, the key's default.
   */
  private static final Integer SCALE_SESSIONS_PER_HOST = Integer.getInteger("bench.failover.sessionsPerHost");
  /**
   * {@code -Dbench.failover.scaleClientConf=key=value,key=value}: more settings for the clients-at-scale JVMs
   * under either controller (say {@code bulwark.hotstandby.client.probe-interval=1s}), recorded in the JSON.
   */
  private static final String SCALE_CLIENT_CONF = System.getProperty("bench.failover.scaleClientConf", "");
  private static final Duration SCALE_RESTART_WARM_UP = Duration.ofSeconds(15);
  /** Pauses of each kind per controller in the pause suite ({@link PauseRuns}). */
  private static final int PAUSE_RUNS = Integer.getInteger("bench.failover.pauseRuns", 5);

  /** One contender: how its controllers start and stop, and which provider its client uses. */
  private interface Variant extends AutoCloseable {
    String name();

    void start() throws Exception;

    boolean ready(int nn);

    /** The transitionToActive of the last failover, in ms, as the controller timed it. */
    double lastSwitchMillis(int nn) throws Exception;

    String provider();

    @Override
    void close() throws Exception;
  }

  /** The stock ZKFC; its transitionToActive is timed from its own two log lines around the call. */
  private static final class Stock implements Variant {
    private final HotStandbyCluster ha;
    private final StockZkfc[] zkfcs = new StockZkfc[2];
    private final ConcurrentLinkedQueue<long[]> switches = new ConcurrentLinkedQueue<>();
    private final AppenderSkeleton timer = new AppenderSkeleton() {
      private long started;

      @Override
      protected void append(LoggingEvent e) {
        String m = String.valueOf(e.getMessage());
        if (m.startsWith("Trying to make ")) {
          started = System.nanoTime();
        } else if (m.startsWith("Successfully transitioned ") && m.endsWith("to active state")) {
          switches.add(new long[] {started, System.nanoTime()});
        }
      }

      @Override
      public void close() {
      }

      @Override
      public boolean requiresLayout() {
        return false;
      }
    };

    Stock(HotStandbyCluster ha) {
      this.ha = ha;
    }

    @Override
    public String name() {
      return "stock";
    }

    @Override
    public void start() throws Exception {
      Logger log = Logger.getLogger(ZKFailoverController.class);
      log.setLevel(Level.INFO);
      log.addAppender(timer);
      StockZkfc.formatZooKeeper(stockConf(0));
      for (int i = 0; i < 2; i++) {
        zkfcs[i] = StockZkfc.start(stockConf(i));
      }
    }

    private Configuration stockConf(int nn) {
      return StockZkfc.sameSettingsAsOurs(ha.controllerConf(nn));
    }

    @Override
    public boolean ready(int nn) {
      return zkfcs[nn].state() == HAServiceState.STANDBY || zkfcs[nn].state() == HAServiceState.ACTIVE;
    }

    @Override
    public double lastSwitchMillis(int nn) throws Exception {
      Await.until("the stock ZKFC logged its transition", WAIT, () -> !switches.isEmpty());
      long[] last = null;
      for (long[] s; (s = switches.poll()) != null; ) {
        last = s;
      }
      return (last[1] - last[0]) / 1e6;
    }

    @Override
    public String provider() {
      return ConfiguredFailoverProxyProvider.class.getName();
    }

    @Override
    public void close() throws Exception {
      for (StockZkfc z : zkfcs) {
        if (z != null) {
          z.close();
        }
      }
      Logger.getLogger(ZKFailoverController.class).removeAppender(timer);
    }
  }

  /** Ours. */
  private static final class Ours implements Variant {
    private final HotStandbyCluster ha;

    Ours(HotStandbyCluster ha) {
      this.ha = ha;
    }

    @Override
    public String name() {
      return "bulwark";
    }

    @Override
    public void start() throws Exception {
      ha.startControllers();
    }

    @Override
    public boolean ready(int nn) {
      ControllerState s = ha.controller(nn).state();
      return s == ControllerState.STANDBY || s == ControllerState.ACTIVE;
    }

    @Override
    public double lastSwitchMillis(int nn) {
      return ha.controller(nn).metrics().lastTransitionMillis();
    }

    @Override
    public String provider() {
      return ZooKeeperFailoverProxyProvider.class.getName();
    }

    @Override
    public void close() {
      for (int i = 0; i < 2; i++) {
        ha.stopController(i);
      }
    }
  }

  @Test
  void failover() throws Exception {
    // Rows differ in their counts (process rows PROCESS_RUNS failovers, pauses PAUSE_RUNS, embedded PER_ROUND x ROUNDS):
    // each row says its own.
    BenchReport report = BenchReport.start("failover", PROCESS_RUNS);
    ArrayNode variants = report.root().putArray("variants");
    ArrayNode peers = report.root().putArray("client_peers");
    measureProcesses(variants, peers);
    measurePauses(variants);
    measureClientsAtScale(report.root());
    measureEmbedded(variants);
    report.root().put("health_check_interval_ms", 200);
    report.root().put("health_check_timeout_ms", 1000);
    report.root().put("zookeeper_session_timeout_ms", 2000);
    report.root().put("graceful_fence_timeout_ms", GRACEFUL_FENCE_MS);
    report.root().put("client_rpc_timeout_ms", CLIENT_RPC_TIMEOUT_MS);
    report.root().put("ipc_connect_timeout_ms", ProcessFailoverRuns.connectTimeoutMillis(GRACEFUL_FENCE_MS));
    report.root().put("controller_witnesses_exits", ProcessFailoverRuns.WITNESS_EXITS);
    report.root().put("process_runs_per_variant", PROCESS_RUNS);
    report.root().put("pause_health_check_timeout_ms", PauseRuns.HEALTH_TIMEOUT_MS);
    report.root().put("pause_zookeeper_session_timeout_ms", PauseRuns.SESSION_TIMEOUT_MS);
    describeForThePage(report, variants);
    System.out.println("wrote " + report.write());
    System.out.println(report.root().toPrettyString());
  }

  /**
   * Process mode (every NameNode and controller its own JVM): each failure kind under each controller on a
   * fresh cluster; under ours, the client peers of a pair, then those of a pair with an observer.
   */
  private static void measureProcesses(ArrayNode variants, ArrayNode peers) throws Exception {
    File dir = new File("target/failover-processes");
    for (Failure failure : Failure.values()) {
      for (ControllerKind kind : new ControllerKind[] {ControllerKind.STOCK, ControllerKind.BULWARK}) {
        // The peers run under both controllers (the same load for both twins); they are reported under ours.
        boolean withPeers = failure == Failure.PROCESS && PEERS;
        Peer own = kind == ControllerKind.BULWARK ? Peer.ZOOKEEPER : Peer.CONFIGURED;
        List<Peer> clients = withPeers
            ? Arrays.asList(Peer.CONFIGURED, Peer.CONFIGURED_TUNED, Peer.HEDGING, Peer.ZOOKEEPER)
            : Collections.singletonList(own);
        ProcessFailoverRuns runs = new ProcessFailoverRuns(dir, kind, failure, PROCESS_RUNS, GRACEFUL_FENCE_MS,
            CLIENT_RPC_TIMEOUT_MS);
        if (!selected(runs.name())) {
          continue;
        }
        if (failure == Failure.UNREACHABLE && !HostNetwork.available()) {
          System.out.println(runs.name() + ": skipped, this machine makes no network namespaces (root and iproute2)");
          continue;
        }
        ProcessFailoverRuns.Result r = runs.run(own, clients);
        ObjectNode v = variants.addObject();
        summarise(v, runs.name(), r);
        v.put("fencing_kills", runs.fencingKills());
        v.put("namenode_warmup", false);
        chargeAgainstStockSwitch(variants, v);
        if (withPeers && kind == ControllerKind.BULWARK) {
          summarisePeers(peers, r);
        }
      }
    }
    // The warm twins: the same kill -9 with the active-state warm-up on every NameNode, so its effect is a ratio
    // measured in this run.
    for (ControllerKind kind : new ControllerKind[] {ControllerKind.STOCK, ControllerKind.BULWARK}) {
      ProcessFailoverRuns warm = new ProcessFailoverRuns(dir, kind, Failure.PROCESS, PROCESS_RUNS, GRACEFUL_FENCE_MS,
          CLIENT_RPC_TIMEOUT_MS).withWarmup();
      if (selected(warm.name())) {
        Peer own = kind == ControllerKind.BULWARK ? Peer.ZOOKEEPER : Peer.CONFIGURED;
        ObjectNode v = variants.addObject();
        summarise(v, warm.name(), warm.run(own, Collections.singletonList(own)));
        v.put("namenode_warmup", true);
        chargeAgainstStockSwitch(variants, v);
      }
    }
    ProcessFailoverRuns stockDefaults = new ProcessFailoverRuns(dir, ControllerKind.STOCK, Failure.PROCESS, PROCESS_RUNS,
        GRACEFUL_FENCE_MS, CLIENT_RPC_TIMEOUT_MS).withDefaultIpcRetries();
    if (selected(stockDefaults.name())) {
      ProcessFailoverRuns.Result r = stockDefaults.run(Peer.CONFIGURED,
          Arrays.asList(Peer.CONFIGURED, Peer.CONFIGURED_TUNED, Peer.HEDGING, Peer.ZOOKEEPER));
      ObjectNode v = variants.addObject();
      summarise(v, stockDefaults.name(), r);
    }
    ProcessFailoverRuns observed = new ProcessFailoverRuns(dir, ControllerKind.BULWARK, Failure.PROCESS, PROCESS_RUNS,
        GRACEFUL_FENCE_MS, CLIENT_RPC_TIMEOUT_MS);
    if (!selected("bulwark-process-with-observer")) {
      return;
    }
    ProcessFailoverRuns.Result r = observed.run(Peer.ZOOKEEPER_OBSERVER, Arrays.asList(Peer.OBSERVER, Peer.ZOOKEEPER_OBSERVER));
    ObjectNode v = variants.addObject();
    summarise(v, "bulwark-process-with-observer", r);
    summarisePeers(peers, r);
  }

  /** The pause suite under each controller: every pause kind {@link #PAUSE_RUNS} times, counting failovers. */
  private static void measurePauses(ArrayNode variants) throws Exception {
    File dir = new File("target/failover-pauses");
    for (ControllerKind kind : new ControllerKind[] {ControllerKind.STOCK, ControllerKind.BULWARK}) {
      PauseRuns runs = new PauseRuns(dir, kind, PAUSE_RUNS);
      List<PauseRuns.Pause> pauses = new ArrayList<>();
      for (PauseRuns.Pause p : PauseRuns.Pause.values()) {
        if (selected(runs.name(p))) {
          pauses.add(p);
        }
      }
      for (PauseRuns.Result r : runs.run(pauses)) {
        ObjectNode v = variants.addObject();
        v.put("name", r.name);
        v.put("mode", "pause");
        v.put("controller", kind == ControllerKind.BULWARK ? "bulwark" : "stock");
        v.put("pause_ms", r.pause.millis);
        v.put("lifeline", r.pause.lifeline);
        v.put("runs", r.runs);
        v.put("failovers", r.failovers);
        v.put("split_brain_observations", r.splitBrain);
        if (!r.probeMillis.isEmpty()) {
          List<Double> waited = new ArrayList<>(r.probeMillis);
          Collections.sort(waited);
          v.put("client_call_waited_ms_p50", round(percentile(waited, 50)));
          v.put("client_call_waited_ms_min", round(waited.get(0)));
        }
      }
    }
  }

  /**
   * The processes of a clients-at-scale run, by role: the new active NameNode, the controllers, the JournalNodes
   * when they run apart, this JVM, the clients.
   */
  private static Map<String, List<Long>> scaleRoles(ProcessHaCluster ha, int standby, ClientFleet fleet) {
    Map<String, List<Long>> roles = new LinkedHashMap<>();
    roles.put("new-namenode", Collections.singletonList(ha.nameNode(standby).pid()));
    roles.put("controllers", Arrays.asList(ha.controller(0).pid(), ha.controller(1).pid()));
    if (ha.journalNodes().isEmpty()) {
      roles.put("bench(journal,datanode,zookeeper)", Collections.singletonList(ProcessHandle.current().pid()));
    } else {
      roles.put("journal-nodes", ha.journalNodes().stream().map(DaemonProcess::pid).collect(Collectors.toList()));
      roles.put("bench(datanode,zookeeper)", Collections.singletonList(ProcessHandle.current().pid()));
    }
    roles.put("clients", fleet.pids());
    return roles;
  }

  /** CPU ticks (10 ms) used so far by each role's processes, summed; a process gone counts as 0. */
  private static Map<String, Long> cpuTicks(Map<String, List<Long>> roles) {
    Map<String, Long> ticks = new LinkedHashMap<>();
    roles.forEach((role, pids) -> ticks.put(role, pids.stream().mapToLong(p -> Math.max(0, CpuSampler.ticks(p))).sum()));
    return ticks;
  }

  /**
   * Restarts every NameNode whose process has ended; returns how many. With 100 client JVMs starting on 2
   * cores, health checks can time out before the planned kill: the controllers fail over on their own, and
   * the journal then stops the old active (its epoch is stale). Killing the active after that left nothing
   * to fail over to (seen once, 2026-11-27).
   */
  private static int restartEndedNameNodes(ProcessHaCluster ha) throws IOException {
    int restarted = 0;
    for (int i = 0; i < 2; i++) {
      if (!ha.nameNode(i).isAlive()) {
        System.out.println("clients-at-scale: " + ProcessHaCluster.id(i) + " ended before the kill; restarted");
        ha.startNameNode(i);
        restarted++;
      }
    }
    return restarted;
  }

  /**
   * The CPUs this JVM, and so every daemon it starts, may run on ({@code Cpus_allowed_list} of {@code /proc}),
   * or "unknown" off Linux.
   */
  private static String allowedCpus() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return "unknown";
  }

  /**
   * {@code SCALE_CLIENTS} client JVMs on this host read through each twin's provider under its controllers (the
   * same settings as the process rows), while ZooKeeper admits {@code SCALE_MAX_CLIENT_CNXNS} connections from it
   * (the controllers' included) and the active NameNode is killed with kill -9: each client's outage (its longest
   * wait between two answers), the connections ZooKeeper refused, and the failover itself (kill to the other
   * NameNode answering active), per run on a fresh cluster. The twins take turns, the first of a run alternating:
   * every run's cluster is new but the benchmark's JVM (DataNodes, ZooKeeper) is not, and it is warmer for
   * whichever runs later.
   */
  private static void measureClientsAtScale(ObjectNode root) throws Exception {
    List<ScaleTwin> twins = new ArrayList<>();
    // Ours twice, with the clients' host-wide machinery (session slots and the relayed record, files in
    // bulwark.hotstandby.client.host-dir) and without it, so that what it buys is a ratio of one run.
    ScaleTwin withoutHostFiles = new ScaleTwin("clients_at_scale_without_host_files", ControllerKind.BULWARK,
        Peer.ZOOKEEPER);
    withoutHostFiles.clientConf.put(HotStandbyKeys.CLIENT_RELAY.getName(), "false");
    withoutHostFiles.clientConf.put(HotStandbyKeys.CLIENT_ZK_SESSIONS_PER_HOST.getName(), "0");
    for (ScaleTwin t : List.of(new ScaleTwin("clients_at_scale", ControllerKind.BULWARK, Peer.ZOOKEEPER),
        withoutHostFiles, new ScaleTwin("clients_at_scale_stock", ControllerKind.STOCK, Peer.CONFIGURED))) {
      if (selected(t.field.replace('_', '-'))) {
        twins.add(t);
      }
    }
    for (int run = 0; run < SCALE_RUNS; run++) {
      for (int k = 0; k < twins.size(); k++) {
        runClientsAtScale(twins.get((k + run) % twins.size()), run);
      }
    }
    // One object, a twin per controller: clients_at_scale.bulwark and clients_at_scale.stock.
    ObjectNode scale = twins.isEmpty() ? null : root.putObject("clients_at_scale");
    for (ScaleTwin t : twins) {
      t.report(scale.putObject(t.kind == ControllerKind.STOCK ? "stock"
          : t.clientConf.isEmpty() ? "bulwark" : "bulwark_without_host_files"));
    }
  }

  /** One twin of the clients-at-scale comparison (reported as {@code field}, its variant name with underscores). */
  private static final class ScaleTwin {
    final String field;
    final ControllerKind kind;
    final Peer peer;
    /** Client settings of this twin over the run's own ({@code -Dbench.failover.scaleClientConf}). */
    final Map<String, String> clientConf = new java.util.LinkedHashMap<>();
    final List<Double> outages = new ArrayList<>();
    final List<Double> failovers = new ArrayList<>();
    long refused;
    /** Each controller's own log: its ZooKeeper connection lost (or a reconnection refused) while the clients ran. */
    long controllerSessionsRefused;
    long unserved;
    long splitBrain;
    int unplannedExits;

    ScaleTwin(String field, ControllerKind kind, Peer peer) {
      this.field = field;
      this.kind = kind;
      this.peer = peer;
    }

    void report(ObjectNode out) {
      out.put("controller", kind == ControllerKind.BULWARK ? "bulwark" : "stock");
      String relay = clientConf.get(HotStandbyKeys.CLIENT_RELAY.getName());
      out.put("client_relay", relay != null ? Boolean.parseBoolean(relay) : SCALE_CLIENT_RELAY);
      StringBuilder conf = new StringBuilder(SCALE_CLIENT_CONF);
      clientConf.forEach((k, v) -> conf.append(conf.length() == 0 ? "" : ",").append(k).append('=').append(v));
      out.put("client_conf", conf.toString());
      String slots = clientConf.get(HotStandbyKeys.CLIENT_ZK_SESSIONS_PER_HOST.getName());
      out.put("client_sessions_per_host", kind != ControllerKind.BULWARK ? 0
          : slots != null ? Long.parseLong(slots)
          : SCALE_SESSIONS_PER_HOST != null ? SCALE_SESSIONS_PER_HOST.longValue()
          : HotStandbyKeys.CLIENT_ZK_SESSIONS_PER_HOST.get(new Configuration(false)));
      out.put("fence_methods", ProcessFailoverRuns.FENCE_METHODS == null ? "shell(true)" : ProcessFailoverRuns.FENCE_METHODS);
      out.put("client_provider", peer.label);
      out.put("client_cpus", ClientFleet.cpus().isEmpty() ? "all" : ClientFleet.cpus());
      out.put("daemon_cpus", allowedCpus());
      out.put("journal_nodes", ProcessFailoverRuns.journalNodesLayout());
      ArrayNode each = out.putArray("failover_ms_each_run");
      failovers.forEach(f -> each.add(round(f)));
      Collections.sort(outages);
      Collections.sort(failovers);
      out.put("client_jvms", SCALE_CLIENTS);
      out.put("namenodes_ended_before_the_kill", unplannedExits);
      out.put("zookeeper_max_client_cnxns", SCALE_MAX_CLIENT_CNXNS);
      out.put("runs", SCALE_RUNS);
      out.put("failover_ms_p50", round(percentile(failovers, 50)));
      out.put("client_outage_ms_p50", round(percentile(outages, 50)));
      out.put("client_outage_ms_p95", round(percentile(outages, 95)));
      out.put("client_outage_ms_max", round(outages.get(outages.size() - 1)));
      out.put("clients_not_served_after_failover", unserved);
      out.put("zookeeper_connections_refused", refused);
      out.put("controller_sessions_refused", controllerSessionsRefused);
      out.put("split_brain_observations", splitBrain);
    }
  }

  /** Run {@code run} of twin {@code t}, on a cluster of its own. */
  private static void runClientsAtScale(ScaleTwin t, int run) throws Exception {
    File dir = new File("target/failover-" + t.field.replace('_', '-') + "-" + run);
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, SCALE_MAX_CLIENT_CNXNS,
        ProcessFailoverRuns.JOURNAL_PROCESSES,
        c -> ProcessFailoverRuns.sameControllerSettings(c, GRACEFUL_FENCE_MS, CLIENT_RPC_TIMEOUT_MS))) {
      if (t.kind == ControllerKind.STOCK) {
        StockZkfc.formatZooKeeper(ha.controllerConf(0));
      }
      for (int i = 0; i < 2; i++) {
        ha.startController(i, t.kind, ha.controllerConf(i));
      }
      Await.until(t.kind + " made a NameNode active", WAIT, () -> ha.active() >= 0);
      Configuration client = t.peer.clientConf(ha.conf());
      client.setLong("ipc.client.rpc-timeout.ms", CLIENT_RPC_TIMEOUT_MS);
      client.setBoolean("bulwark.hotstandby.client.relay", SCALE_CLIENT_RELAY);
      if (SCALE_SESSIONS_PER_HOST != null) {
        client.setInt(HotStandbyKeys.CLIENT_ZK_SESSIONS_PER_HOST.getName(), SCALE_SESSIONS_PER_HOST);
      }
      for (String setting : SCALE_CLIENT_CONF.split(",")) {
        int eq = setting.indexOf('=');
        if (eq > 0) {
          client.set(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
        } else if (!setting.trim().isEmpty()) {
          throw new IllegalArgumentException("-Dbench.failover.scaleClientConf: '" + setting
              + "' is not key=value (settings are separated by commas)");
        }
      }
      t.clientConf.forEach(client::set);
      long rejectedBefore = org.apache.zookeeper.server.ServerMetrics.getMetrics().CONNECTION_REJECTED.get();
      try (ClientFleet fleet = ClientFleet.start(dir, client, SCALE_CLIENTS, Duration.ofMinutes(5))) {
        Thread.sleep(2000);
        int restarted = restartEndedNameNodes(ha);
        int first = ha.awaitPair();
        if (restarted > 0) {
          // A standby fails over long after it started: the restarted one gets time to warm up, under both twins.
          Thread.sleep(SCALE_RESTART_WARM_UP.toMillis());
          restarted += restartEndedNameNodes(ha);
          first = ha.awaitPair();
        }
        t.unplannedExits += restarted;
        int standby = 1 - first;
        Await.until("the standby's controller ready", WAIT,
            () -> ProcessFailoverRuns.standbyReady(t.kind, ha.controller(standby)));
        if (t.kind == ControllerKind.BULWARK) {
          Await.until("the standby primed", WAIT, () -> ProcessFailoverRuns.primedSinceStart(ha, standby));
        }
        int killedNameNode = first;
        Map<String, List<Long>> roles = scaleRoles(ha, standby, fleet);
        Map<String, Long> cpuBefore = cpuTicks(roles);
        Map<String, Long> clientThreadsBefore = CpuSampler.ticksByThread(fleet.pids());
        long killed = System.nanoTime();
        ha.killNameNode(killedNameNode);
        Await.until("the other NameNode is active", WAIT, () -> ha.active() == standby);
        double failoverMs = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - killed) / 1000.0;
        t.failovers.add(failoverMs);
        Map<String, Long> cpuAfter = cpuTicks(roles);
        StringBuilder clientThreads = new StringBuilder();
        CpuSampler.threadMillisBetween(clientThreadsBefore, CpuSampler.ticksByThread(fleet.pids()))
            .forEach((thread, ms) -> clientThreads.append(String.format(Locale.ROOT, " [%s] %d", thread, ms)));
        StringBuilder used = new StringBuilder();
        cpuBefore.forEach((role, ticks) -> used.append(String.format(Locale.ROOT, " %s %d", role,
            (cpuAfter.get(role) - ticks) * 10)));
        System.out.printf(Locale.ROOT, "%s run %d: killed at %s%n", t.field, run,
            java.time.Instant.now().minusNanos(System.nanoTime() - killed));
        System.out.printf(Locale.ROOT, "%s run %d: failover %.0f ms; CPU ms from the kill to active:%s; the clients' "
            + "threads, summed:%s%n", t.field, run, failoverMs, used, clientThreads);
        Thread.sleep(5000);
        List<Double> runOutages = new ArrayList<>();
        for (ClientFleet.Result r : fleet.stop()) {
          runOutages.add((double) r.longestGapMillis);
          t.unserved += r.failures > 0 || r.lastServedMillisAgo < 0 || r.lastServedMillisAgo > 1000 ? 1 : 0;
        }
        t.outages.addAll(runOutages);
        Collections.sort(runOutages);
        System.out.printf(Locale.ROOT, "%s run %d: failover %.0f ms, client outage p50 %.0f / p95 %.0f / max %.0f ms%n",
            t.field, run, failoverMs, percentile(runOutages, 50), percentile(runOutages, 95),
            runOutages.get(runOutages.size() - 1));
      }
      t.refused += org.apache.zookeeper.server.ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore;
      t.controllerSessionsRefused += controllerSessionsLost(ha, t.kind);
      t.splitBrain += ha.splitBrain.observations();
    }
  }

  /**
   * How often the controllers lost their ZooKeeper connection (a session refused or cut while the clients took the
   * host's connections), as each logs it: ours Curator's SUSPENDED or LOST, the stock ZKFC "Session disconnected" or
   * "Session expired". Their connections opened before the clients'; none should go.
   */
  private static long controllerSessionsLost(ProcessHaCluster ha, ControllerKind kind) {
    long lost = 0;
    for (int i = 0; i < 2; i++) {
      lost += kind == ControllerKind.BULWARK
          ? DaemonLog.matching(ha.controller(i).log(), "): SUSPENDED", "): LOST").size()
          : DaemonLog.matching(ha.controller(i).log(), "Session disconnected", "Session expired").size();
    }
    return lost;
  }

  private static void summarisePeers(ArrayNode peers, ProcessFailoverRuns.Result r) {
    for (Map.Entry<String, List<Double>> e : r.outages.entrySet()) {
      List<Double> values = new ArrayList<>(e.getValue());
      Collections.sort(values);
      String[] nameAndOp = e.getKey().split("/");
      ObjectNode p = peers.addObject();
      p.put("name", nameAndOp[0]);
      p.put("operation", nameAndOp[1]);
      p.put("outage_ms_p50", round(percentile(values, 50)));
      p.put("outage_ms_p95", round(percentile(values, 95)));
      p.put("outage_ms_max", round(values.get(values.size() - 1)));
      p.put("outage", "write".equals(nameAndOp[1]) ? "failure to the first write begun after it completing"
          : "longest gap between two answers");
      List<Double> steady = new ArrayList<>();
      for (double ms : r.steady.get(e.getKey())) {
        if (!Double.isNaN(ms)) {
          steady.add(ms);
        }
      }
      Collections.sort(steady);
      if (!steady.isEmpty()) {
        p.put("steady_ms_p50", round(percentile(steady, 50)));
      }
      p.put("runs", values.size());
    }
  }

  /** Whether {@code -Dbench.failover.variants=a,b} (default: all) names this variant: for reruns of one kind. */
  private static boolean selected(String variant) {
    String only = System.getProperty("bench.failover.variants", "");
    return only.isEmpty() || Arrays.asList(only.split(",")).contains(variant);
  }

  /** Embedded mode: one cluster in this JVM, stock and ours in alternating rounds. */
  private static void measureEmbedded(ArrayNode variants) throws Exception {
    if (!selected("stock") && !selected("bulwark")) {
      return;
    }
    List<double[]> stock = new ArrayList<>();
    List<double[]> ours = new ArrayList<>();
    long[] splitBrain = new long[2];
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.splitBrain.close();
      for (int round = 0; round < ROUNDS; round++) {
        splitBrain[0] += measure(ha, new Stock(ha), stock);
        splitBrain[1] += measure(ha, new Ours(ha), ours);
      }
    }
    ObjectNode s = variants.addObject();
    summarise(s, "stock", stock, splitBrain[0]);
    s.put("mode", "embedded");
    ObjectNode o = variants.addObject();
    summarise(o, "bulwark", ours, splitBrain[1]);
    o.put("mode", "embedded");
  }

  /** One round of one variant: both NameNodes standby, controllers started, PER_ROUND kills. */
  private static long measure(HotStandbyCluster ha, Variant v, List<double[]> out) throws Exception {
    for (int i = 0; i < 2; i++) {
      ha.cluster.mini().transitionToStandby(i);
    }
    try (SplitBrainChecker checker = SplitBrainChecker.start(ha.cluster.mini(), 0, 1); Variant variant = v) {
      variant.start();
      Configuration clientConf = ha.cluster.conf();
      clientConf.set("dfs.client.failover.proxy.provider.ns1", variant.provider());
      for (int k = 0; k < PER_ROUND; k++) {
        Await.until(variant.name() + " made a NameNode active", WAIT, () -> ha.activeNameNode() >= 0);
        Await.until(variant.name() + " controllers ready", WAIT, () -> variant.ready(0) && variant.ready(1));
        int active = ha.activeNameNode();
        int other = 1 - active;
        try (ClientLoop client = new ClientLoop(variant.name(), ClientLoop.Operation.READ, clientConf, 0)) {
          Await.until("the client is being served", WAIT, () -> client.lastSuccess() != Long.MIN_VALUE);
          long killed = System.nanoTime();
          checker.markDown(active);
          ha.cluster.mini().shutdownNameNode(active);
          long activeAgain = awaitActive(ha, other);
          Await.until("the client is served again", WAIT, () -> client.lastSuccess() > activeAgain);
          double failoverMs = (activeAgain - killed) / 1e6;
          double outageMs = client.longestGapMillisAfter(killed);
          double switchMs = variant.lastSwitchMillis(other);
          out.add(new double[] {failoverMs, switchMs, outageMs});
          System.out.printf(Locale.ROOT, "%-8s failover %7.1f ms  switch %6.1f ms  client outage %7.1f ms%n",
              variant.name(), failoverMs, switchMs, outageMs);
        }
        ha.cluster.mini().restartNameNode(active, true);
        checker.markUp(active);
      }
      return checker.observations();
    }
  }

  /** Polls every millisecond until NameNode {@code nn} is active; returns when (nanoTime). */
  private static long awaitActive(HotStandbyCluster ha, int nn) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (ha.cluster.mini().getNameNode(nn).isActiveState()) {
        return System.nanoTime();
      }
      TimeUnit.MICROSECONDS.sleep(500);
    }
    throw new AssertionError("NameNode " + nn + " did not become active within " + WAIT);
  }

  /** A process variant's summary, with the CPU each process used during the transitions (median per role). */
  private static void summarise(ObjectNode v, String name, ProcessFailoverRuns.Result r) {
    summarise(v, name, r.failovers, r.splitBrain);
    v.put("mode", "process");
    v.put("journal_nodes", ProcessFailoverRuns.journalNodesLayout());
    putMedians(v.putObject("transition_cpu_ms_p50"), r.transitionCpu);
    putMedians(v.putObject("transition_phases_ms_p50"), r.transitionPhases);
  }

  /** The median of each key's values (those that are numbers), under that key. */
  private static void putMedians(ObjectNode into, Map<String, List<Double>> valuesByKey) {
    valuesByKey.forEach((key, values) -> {
      List<Double> sorted = new ArrayList<>();
      values.stream().filter(x -> !Double.isNaN(x)).forEach(sorted::add);
      Collections.sort(sorted);
      if (!sorted.isEmpty()) {
        into.put(key, round(percentile(sorted, 50)));
      }
    });
  }

  private static void summarise(ObjectNode v, String name, List<double[]> samples, long splitBrain) {
    v.put("name", name);
    String[] fields = {"failover_ms", "switch_ms", "client_outage_ms"};
    for (int f = 0; f < fields.length; f++) {
      List<Double> values = new ArrayList<>();
      for (double[] s : samples) {
        values.add(s[f]);
      }
      Collections.sort(values);
      v.put(fields[f] + "_p50", round(percentile(values, 50)));
      v.put(fields[f] + "_p90", round(percentile(values, 90)));
      v.put(fields[f] + "_p95", round(percentile(values, 95)));
      v.put(fields[f] + "_max", round(values.get(values.size() - 1)));
    }
    // The controller's own part of each failover: all of it but the new active NameNode's transitionToActive.
    List<Double> overhead = new ArrayList<>();
    for (double[] s : samples) {
      overhead.add(s[0] - s[1]);
    }
    Collections.sort(overhead);
    v.put("overhead_ms_p50", round(percentile(overhead, 50)));
    v.put("split_brain_observations", splitBrain);
    v.put("runs", samples.size());
  }

  /**
   * On a bulwark row, {@code overhead_vs_stock_switch_ms_p50}: its failover p50 less the stock twin's switch p50, so
   * that any slowing of the NameNode's own transition under our controller is charged to ours.
   */
  private static void chargeAgainstStockSwitch(ArrayNode variants, ObjectNode v) {
    String name = v.get("name").asText();
    if (!name.startsWith("bulwark-")) {
      return;
    }
    String twin = "stock-" + name.substring("bulwark-".length());
    for (JsonNode other : variants) {
      if (other.get("name").asText().equals(twin)) {
        v.put("overhead_vs_stock_switch_ms_p50",
            round(v.get("failover_ms_p50").asDouble() - other.get("switch_ms_p50").asDouble()));
      }
    }
  }

  /** The page's table of every variant and a chart of the failover and switch medians of the process twins. */
  private static void describeForThePage(BenchReport report, ArrayNode variants) {
    List<List<String>> rows = new ArrayList<>();
    BenchChart chart = new BenchChart("Failover p50 and the new active NameNode's own switch, process mode", "ms");
    List<List<String>> pauses = new ArrayList<>();
    for (JsonNode v : variants) {
      String name = v.get("name").asText();
      if ("pause".equals(v.path("mode").asText())) {
        pauses.add(List.of(name, v.path("pause_ms").asText(), v.path("runs").asText(), v.path("failovers").asText(),
            v.path("client_call_waited_ms_p50").asText("-"), v.path("split_brain_observations").asText()));
        continue;
      }
      rows.add(List.of(name, v.path("mode").asText(""), v.path("runs").asText(), v.path("failover_ms_p50").asText(),
          v.path("failover_ms_p90").asText(), v.path("switch_ms_p50").asText(), v.path("overhead_ms_p50").asText(),
          v.path("client_outage_ms_p50").asText(), v.path("split_brain_observations").asText()));
      if ("process".equals(v.path("mode").asText())) {
        String kind = name.substring(name.indexOf('-') + 1);
        String controller = name.startsWith("bulwark-") ? "hdfs hotstandby" : "stock ZKFC";
        chart.bar(kind, controller + " failover", v.path("failover_ms_p50").asDouble());
        chart.bar(kind, controller + " switch", v.path("switch_ms_p50").asDouble());
      }
    }
    report.table("Failovers per variant (ms; overhead = failover less the new active's own transitionToActive)",
        List.of("variant", "mode", "failovers", "failover p50", "failover p90", "switch p50", "overhead p50",
            "client outage p50", "split-brain samples"), rows);
    report.table("Pauses that must not fail over (process mode, 1 s health-check timeout, 10 s sessions, same keys for both)",
        List.of("variant", "pause ms", "pauses", "failovers", "client call waited p50 ms", "split-brain samples"), pauses);
    report.chart(chart);
  }

  /** Nearest-rank percentile of sorted values. */
  private static double percentile(List<Double> sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
