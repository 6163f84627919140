package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.hadoop.hdfs.server.namenode.ha.ObserverReadProxyProvider;
import org.apache.hadoop.hdfs.server.namenode.ha.RequestHedgingProxyProvider;
import org.bulwark.hdfs.hotstandby.ProcessHaCluster.ControllerKind;
import org.bulwark.hdfs.hotstandby.warmup.ActiveStateWarmup;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.DaemonProcess;

/**
 * The failover benchmark's process mode: a {@link ProcessHaCluster} (every NameNode and controller a JVM
 * of its own) under one kind of controller, its active NameNode failed again and again in one way, with
 * clients of several providers looping on their operation throughout. Per failover: from the failure to
 * the other NameNode answering active ({@code failover_ms}), that NameNode's {@code transitionToActive}
 * as its controller logged it ({@code switch_ms}), and each client's longest gap between two successes
 * ({@code outage_ms}).
 */
final class ProcessFailoverRuns {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final Pattern OUR_TRANSITION = Pattern.compile("is active, epoch .* transition (\\d+) ms");
  static final Pattern OUR_STATE = Pattern.compile("Controller of .*-> (\\w+)$");
  /** What {@link ActiveStateWarmup} logs when it is over (done or failed). */
  private static final String WARMUP_OVER = "Active-state warm-up";
  /** What {@link org.bulwark.hdfs.hotstandby.warmup.ClientProtocolPrimer} logs when it is over (done or failed). */
  private static final String[] PRIMED = {"Primed the client RPC path", "Could not prime the client RPC path"};
  /** Pause between a client's calls, so eight clients leave the NameNodes their CPU (and 5 ms is the resolution). */
  private static final long CLIENT_PAUSE_MICROS = 5000;
  /** How often every process's CPU time is read: twice the kernel's 10 ms tick. */
  private static final long CPU_SAMPLE_MILLIS = 5;
  /**
   * A failure comes at a seeded random moment up to this long after the standby is ready, not at once:
   * the standby's joining the election is ZooKeeper traffic that the leader's session sees, and a failure
   * right after it makes that session expire a whole timeout later, never sooner, which no host failure
   * in production is timed to do. Twins draw the same delays.
   */
  private static final int MAX_FAILURE_DELAY_MILLIS = 1000;
  private static final long FAILURE_DELAY_SEED = 20261126L;
  /**
   * With {@code -Dbench.failover.settledCoreShare=0.1}, each failover waits until the standby's process used
   * under that share of one core over a second (a standby in production has run for days; one restarted
   * seconds ago may still be compiling its start-up code). Measured on 2026-11-26: a settled standby's
   * transition is no faster, so by default (1) nothing waits.
   */
  private static final Duration SETTLE_LIMIT = Duration.ofSeconds(30);
  /**
   * Each JournalNode a JVM of its own, as in production (by default; the clients-at-scale runs too);
   * {@code -Dbench.failover.journalProcesses=false} runs them in the benchmark's JVM, the layout of every run
   * before 2026-11-28. Measured that day (kill -9, twins of 10): on one machine the stock ZKFC's transition was
   * alike in both layouts and ours 60-150 ms slower with the JournalNodes apart; on another both 40-50 ms slower.
   */
  static final boolean JOURNAL_PROCESSES = Boolean.parseBoolean(System.getProperty("bench.failover.journalProcesses", "true"));
  /** Where the JournalNodes ran, as the JSON's {@code journal_nodes} says it. */
  static String journalNodesLayout() {
    return JOURNAL_PROCESSES ? "own-jvms" : "benchmark-jvm";
  }

  /**
   * {@code -Dbench.failover.fenceMethods=shell(sleep 1)}: both controllers' fencing methods instead of
   * {@code shell(true)}, for a fence that takes as long as an ssh fence to a slow host (with
   * {@code witnessExits=false}, so that ours fences a killed NameNode too).
   */
  static final String FENCE_METHODS = System.getProperty("bench.failover.fenceMethods");
  /** {@code -Dbench.failover.witnessExits=false} makes our controllers fence a killed NameNode as a hung one. */
  static final boolean WITNESS_EXITS = Boolean.parseBoolean(System.getProperty("bench.failover.witnessExits", "true"));
  /**
   * {@code -Dbench.failover.controllerConnectTimeoutMs=N}: both controllers' (and the clients')
   * {@code ipc.client.connect.timeout}; by default the graceful-fence timeout. 20000 is Hadoop's default.
   */
  private static final long CONTROLLER_CONNECT_TIMEOUT_MILLIS = Long.getLong("bench.failover.controllerConnectTimeoutMs", -1);

  /** The {@code ipc.client.connect.timeout} process mode sets: {@link #CONTROLLER_CONNECT_TIMEOUT_MILLIS} if given. */
  static long connectTimeoutMillis(long gracefulFenceMillis) {
    return CONTROLLER_CONNECT_TIMEOUT_MILLIS >= 0 ? CONTROLLER_CONNECT_TIMEOUT_MILLIS : gracefulFenceMillis;
  }
  private static final double SETTLED_CORE_SHARE = Double.parseDouble(System.getProperty("bench.failover.settledCoreShare", "1"));

  /** How the active NameNode fails. */
  enum Failure {
    /** kill -9 of its process: its sockets close at once. */
    PROCESS("-process"),
    /** kill -STOP of its process: alive, connections open, answering nothing. */
    HANG("-hang"),
    /** kill -STOP of it and of its controller together: a host that vanished, its kernel still answering. */
    HOST("-host"),
    /**
     * Its host (it and its controller, each on a {@link HostNetwork} host of their own) taken off the network:
     * every packet dropped both ways, the processes running on. A host that vanished as its peers see it:
     * connects time out instead of being accepted by a frozen host's kernel.
     */
    UNREACHABLE("-unreachable");

    final String suffix;

    Failure(String suffix) {
      this.suffix = suffix;
    }
  }

  /** A client provider measured: its name in the report and the configuration that selects it. */
  enum Peer {
    CONFIGURED("configured", ConfiguredFailoverProxyProvider.class.getName(), false),
    CONFIGURED_TUNED("configured-tuned", ConfiguredFailoverProxyProvider.class.getName(), false),
    HEDGING("hedging", RequestHedgingProxyProvider.class.getName(), false),
    ZOOKEEPER("zookeeper", ZooKeeperFailoverProxyProvider.class.getName(), false),
    OBSERVER("observer", ObserverReadProxyProvider.class.getName(), true),
    ZOOKEEPER_OBSERVER("zookeeper-observer", ZooKeeperObserverReadProxyProvider.class.getName(), true);

    final String label;
    final String provider;
    final boolean needsObserver;

    Peer(String label, String provider, boolean needsObserver) {
      this.label = label;
      this.provider = provider;
      this.needsObserver = needsObserver;
    }

    Configuration clientConf(Configuration base) {
      Configuration c = new Configuration(base);
      c.set("dfs.client.failover.proxy.provider." + ProcessHaCluster.NS, provider);
      if (this == CONFIGURED_TUNED) {
        c.setInt("dfs.client.failover.sleep.base.millis", 100);
      }
      return c;
    }
  }

  /** What one variant measured. */
  static final class Result {
    final List<double[]> failovers = new ArrayList<>();
    /**
     * Outages per client, keyed "peer/operation": for reads the longest gap between two answers, for writes the time
     * from the failure to the first write that began after it completing.
     */
    final Map<String, List<Double>> outages = new LinkedHashMap<>();
    /** Per client, its calls' median latency before each failure. */
    final Map<String, List<Double>> steady = new LinkedHashMap<>();
    long splitBrain;
    /** Per process role (new/old NameNode, their controllers, bench), the CPU it used during each transition. */
    final Map<String, List<Double>> transitionCpu = new LinkedHashMap<>();
    /** Per step of the new active NameNode's transition ({@link TransitionPhases}), its ms in each failover. */
    final Map<String, List<Double>> transitionPhases = new LinkedHashMap<>();
  }

  private final File dir;
  private final ControllerKind kind;
  private final Failure failure;
  private final int runs;
  private final long gracefulFenceMillis;
  private final long clientRpcTimeoutMillis;
  private boolean defaultIpcRetries;
  private boolean warmup;
  private final Random failureDelays = new Random(FAILURE_DELAY_SEED);
  /** The directory of the cluster the current {@link #run} started. */
  private File runDir;

  ProcessFailoverRuns(File dir, ControllerKind kind, Failure failure, int runs, long gracefulFenceMillis,
      long clientRpcTimeoutMillis) {
    this.dir = dir;
    this.kind = kind;
    this.failure = failure;
    this.runs = runs;
    this.gracefulFenceMillis = gracefulFenceMillis;
    this.clientRpcTimeoutMillis = clientRpcTimeoutMillis;
  }

  /**
   * The controllers keep Hadoop's default IPC connection retries (10, 1 s apart) instead of the test
   * cluster's (3, 100 ms apart): what an administrator who tuned only the health checks and the session runs.
   * The stock ZKFC's graceful fence of a dead NameNode retries its connection once, after that interval.
   */
  ProcessFailoverRuns withDefaultIpcRetries() {
    defaultIpcRetries = true;
    return this;
  }

  /**
   * Every NameNode runs {@link ActiveStateWarmup} ({@code dfs.namenode.plugins}), under either controller: a NameNode
   * setting, so twins share it. Each failover then waits for the standby's warm-up to be over (2-3 s after it
   * started): without that wait, most transitions ran while the warm-up was still loading classes.
   */
  ProcessFailoverRuns withWarmup() {
    warmup = true;
    return this;
  }

  boolean warmup() {
    return warmup;
  }

  String name() {
    return (kind == ControllerKind.BULWARK ? "bulwark" : "stock") + failure.suffix + (defaultIpcRetries ? "-default-ipc" : "")
        + (warmup ? "-warm" : "");
  }

  /** The configuration of the controller of NameNode {@code i}. */
  private Configuration controllerConf(ProcessHaCluster ha, int i) {
    Configuration c = ha.controllerConf(i);
    if (defaultIpcRetries) {
      c.unset("ipc.client.connect.max.retries");
      c.unset("ipc.client.connect.retry.interval");
    }
    return c;
  }

  private void controllerSettings(Configuration conf) {
    sameControllerSettings(conf, gracefulFenceMillis, clientRpcTimeoutMillis);
    if (fencingKills()) {
      conf.set("dfs.ha.fencing.methods", killingFence(runDir));
    }
    if (warmup) {
      conf.set("dfs.namenode.plugins", ActiveStateWarmup.class.getName());
    }
  }

  /**
   * Whether the controllers fence with a method that kills the NameNode (a hung one, or one on a vanished host, as a
   * PDU or IPMI script would): a fenced NameNode is then really gone, and the split-brain checker sees any that is
   * not. Kill -9 needs no fencing to be gone; {@code -Dbench.failover.fenceMethods} overrides it.
   */
  boolean fencingKills() {
    return FENCE_METHODS == null && (failure == Failure.HANG || failure == Failure.HOST);
  }

  /** {@code kill -9} of the NameNode fenced, found by its id in the pid file {@link ProcessHaCluster} keeps. */
  static String killingFence(File clusterDir) {
    return "shell(kill -9 $(cat " + ProcessHaCluster.pidFile(clusterDir, "$target_namenodeid").getAbsolutePath() + "))";
  }

  /** The same settings for both controllers: 200 ms health checks, 1 s health-check timeout, 2 s sessions. */
  static void sameControllerSettings(Configuration conf, long gracefulFenceMillis, long clientRpcTimeoutMillis) {
    HotStandbyCluster.fastFailover(conf);
    conf.set("bulwark.hotstandby.fencing.graceful-timeout", gracefulFenceMillis + "ms");
    // The stock ZKFC's thread-dump fetch before it quits the election waits up to 20 s by default for a hung NameNode
    // (measured: a 22 s failover); sameSettingsAsOurs turns it off.
    StockZkfc.sameSettingsAsOurs(conf);
    conf.setLong("ha.failover-controller.graceful-fence.rpc-timeout.ms", gracefulFenceMillis);
    conf.setLong("ipc.client.rpc-timeout.ms", clientRpcTimeoutMillis);
    // The stock ZKFC's graceful fence of a host that vanished waits for its connection to time out, twice
    // (measured: 40 s at Hadoop's 20 s); the graceful-fence timeout instead, the strongest setting for it. Ours
    // bounds its connects by its own timeouts. On one host's loopback a connect never waits either way.
    conf.setLong("ipc.client.connect.timeout", connectTimeoutMillis(gracefulFenceMillis));
    conf.setBoolean("bulwark.hotstandby.fencing.witness-local-exit", WITNESS_EXITS);
    if (FENCE_METHODS != null) {
      conf.set("dfs.ha.fencing.methods", FENCE_METHODS);
    }
  }

  /**
   * Runs the variant with clients of {@code peers} (each reading and writing); the variant's own client
   * (its {@code client_outage_ms}) is {@code own}'s reader. Twins compared with each other get the same
   * peers, so the same load.
   */
  Result run(Peer own, List<Peer> peers) throws Exception {
    boolean observer = peers.stream().anyMatch(p -> p.needsObserver);
    Result result = new Result();
    runDir = new File(dir, name() + (observer ? "-observer" : ""));
    boolean ownHosts = failure == Failure.UNREACHABLE;
    try (ProcessHaCluster ha = ProcessHaCluster.start(runDir, observer ? 3 : 2, 3, -1, JOURNAL_PROCESSES || ownHosts,
        ownHosts, this::controllerSettings);
        CpuSampler cpu = new CpuSampler(processesOf(ha), CPU_SAMPLE_MILLIS)) {
      if (observer) {
        ha.makeObserver(2);
      }
      if (kind == ControllerKind.STOCK) {
        StockZkfc.formatZooKeeper(ha.controllerConf(0));
      }
      for (int i = 0; i < 2; i++) {
        ha.startController(i, kind, controllerConf(ha, i));
      }
      Await.until(name() + " made a NameNode active", WAIT, () -> ha.active() >= 0);
      List<ClientLoop> clients = new ArrayList<>();
      try {
        for (Peer p : peers) {
          for (ClientLoop.Operation op : ClientLoop.Operation.values()) {
            clients.add(new ClientLoop(p.label, op, p.clientConf(ha.conf()), CLIENT_PAUSE_MICROS));
            result.outages.put(p.label + "/" + op.label(), new ArrayList<>());
            result.steady.put(p.label + "/" + op.label(), new ArrayList<>());
          }
        }
        for (int r = 0; r < runs; r++) {
          failOnce(ha, cpu, clients, own, result);
        }
      } finally {
        for (ClientLoop c : clients) {
          c.close();
        }
      }
      result.splitBrain = ha.splitBrain.observations();
    }
    return result;
  }

  /**
   * The processes whose CPU is sampled: both NameNodes and their controllers, the JournalNodes when they run
   * apart, and this JVM (clients, DataNodes, ZooKeeper, and otherwise the JournalNodes).
   */
  private static Map<String, Supplier<Long>> processesOf(ProcessHaCluster ha) {
    Map<String, Supplier<Long>> p = new LinkedHashMap<>();
    for (int i = 0; i < 2; i++) {
      int n = i;
      p.put(ProcessHaCluster.id(i), () -> ha.nameNode(n) == null ? null : ha.nameNode(n).pid());
      p.put("controller-" + ProcessHaCluster.id(i), () -> ha.controller(n) == null ? null : ha.controller(n).pid());
    }
    for (DaemonProcess jn : ha.journalNodes()) {
      p.put(jn.name(), jn::pid);
    }
    long self = ProcessHandle.current().pid();
    p.put("bench", () -> self);
    return p;
  }

  private void failOnce(ProcessHaCluster ha, CpuSampler cpu, List<ClientLoop> clients, Peer own, Result result)
      throws Exception {
    Await.until(name() + ": one NameNode of the pair active", WAIT, () -> ha.active() >= 0);
    int active = ha.active();
    int other = 1 - active;
    Await.until(name() + ": the standby's controller ready", WAIT, () -> standbyReady(kind, ha.controller(other)));
    if (warmup) {
      // A standby fails over hours after it started, not seconds: its one-time warm-up is long over.
      Await.until(name() + ": the standby's warm-up over", WAIT,
          () -> !DaemonLog.matching(ha.nameNode(other).log(), WARMUP_OVER).isEmpty());
    }
    if (kind == ControllerKind.BULWARK) {
      // Our controller primes its standby's client RPC path once per NameNode process (ClientProtocolPrimer);
      // a standby fails over long after it started, so that is over.
      Await.until(name() + ": the standby primed", WAIT, () -> primedSinceStart(ha, other));
    }
    awaitSettled(ha.nameNode(other));
    long ready = System.nanoTime();
    Await.until(name() + ": every client served", WAIT, () -> clients.stream().allMatch(c -> c.lastSuccess() > ready));
    TimeUnit.MILLISECONDS.sleep(failureDelays.nextInt(MAX_FAILURE_DELAY_MILLIS + 1));
    Map<String, Long> threadsBefore = CpuSampler.ticksByThread(ha.nameNode(other).pid());
    long failed = System.nanoTime();
    // Wall-clock, to read the daemons' logs and ZooKeeper's session expiry against.
    System.out.println(name() + ": " + ProcessHaCluster.id(active) + " fails at " + LocalTime.now());
    switch (failure) {
      case PROCESS:
        ha.killNameNode(active);
        break;
      case HANG:
        ha.freezeNameNode(active);
        break;
      case HOST:
        ha.freezeHost(active);
        break;
      case UNREACHABLE:
        ha.cutHost(active);
        break;
      default:
        throw new IllegalStateException(failure.name());
    }
    long failureDone = System.nanoTime();
    long activeAgain = awaitActive(ha, other);
    Map<String, Long> threadsAfter = CpuSampler.ticksByThread(ha.nameNode(other).pid());
    Await.until(name() + ": every client served again, by a call begun after the failure", WAIT,
        () -> clients.stream().allMatch(c -> c.lastSuccess() > activeAgain && !Double.isNaN(c.firstAnswerAfterMillis(failed))));
    double failoverMs = (activeAgain - failed) / 1e6;
    double switchMs = lastSwitchMillis(ha.controller(other));
    double ownOutage = Double.NaN;
    StringBuilder line = new StringBuilder();
    StringBuilder writes = new StringBuilder();
    for (ClientLoop c : clients) {
      String key = c.name() + "/" + c.operation().label();
      result.steady.get(key).add(c.steadyMillisBefore(failed));
      double firstWrite = c.firstAnswerAfterMillis(failed);
      double longestGap = c.longestGapMillisAfter(failed);
      double gap = c.operation() == ClientLoop.Operation.WRITE ? firstWrite : longestGap;
      result.outages.get(key).add(gap);
      if (c.name().equals(own.label) && c.operation() == ClientLoop.Operation.READ) {
        ownOutage = gap;
      }
      line.append(String.format(Locale.ROOT, "  %s/%s %.0f (%s)", c.name(), c.operation().label(), gap,
          c.lastGapAround(failed, activeAgain)));
      if (c.operation() == ClientLoop.Operation.WRITE) {
        writes.append(String.format(Locale.ROOT, "%n  %s/write, calls ending in its longest gap (ms from the failure):%s",
            c.name(), c.lastGapStory()));
      }
    }
    result.failovers.add(new double[] {failoverMs, switchMs, ownOutage});
    TimeUnit.MILLISECONDS.sleep(2 * CPU_SAMPLE_MILLIS); // the sample that closes the window
    long switchStart = activeAgain - (long) (switchMs * 1e6);
    StringBuilder used = new StringBuilder();
    double total = 0;
    for (Map.Entry<String, Double> e : cpu.cpuMillisBetween(switchStart, activeAgain).entrySet()) {
      String role = e.getKey().replace(ProcessHaCluster.id(other), "new").replace(ProcessHaCluster.id(active), "old");
      used.append(String.format(Locale.ROOT, " %s %.0f", role, e.getValue()));
      total += Double.isNaN(e.getValue()) ? 0 : e.getValue();
      result.transitionCpu.computeIfAbsent(role, k -> new ArrayList<>()).add(e.getValue());
    }
    Map<String, Long> phases = TransitionPhases.lastIn(ha.nameNode(other).log());
    if (!phases.isEmpty()) {
      long logged = 0;
      for (Map.Entry<String, Long> e : phases.entrySet()) {
        result.transitionPhases.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add((double) e.getValue());
        logged += e.getValue();
      }
      // The controller's call, the NameNode's own lock, the new segment's opening and the active services' start.
      result.transitionPhases.computeIfAbsent("rest_of_switch", k -> new ArrayList<>()).add(switchMs - logged);
      System.out.println("  the new NameNode's transition, ms by step: " + phases + ", rest of the switch "
          + Math.round(switchMs - logged));
    }
    StringBuilder threads = new StringBuilder();
    CpuSampler.threadMillisBetween(threadsBefore, threadsAfter)
        .forEach((t, ms) -> threads.append(String.format(Locale.ROOT, " [%s] %d", t, ms)));
    System.out.println("  new NameNode's threads, CPU ms from the failure to active:" + threads);
    System.out.printf(Locale.ROOT, "  CPU ms during the transition (%.0f ms, %d cores):%s; idle %.0f%n", switchMs,
        Runtime.getRuntime().availableProcessors(), used, Runtime.getRuntime().availableProcessors() * switchMs - total);
    // For kill -9, the time until the process had exited: the kernel closes its sockets only then.
    System.out.printf(Locale.ROOT, "%-16s failover %7.1f ms  switch %6.1f ms  (failure took %.1f ms)  outage%s%n", name(),
        failoverMs, switchMs, (failureDone - failed) / 1e6, line);
    System.out.println("  active again " + String.format(Locale.ROOT, "%+.0f", (activeAgain - failed) / 1e6) + " ms" + writes);
    restore(ha, active);
  }

  /**
   * Waits until the process uses less than {@link #SETTLED_CORE_SHARE} of a core over one second, for at
   * most {@link #SETTLE_LIMIT} (then says so and goes on); a share of 1 or more waits for nothing.
   */
  private static void awaitSettled(DaemonProcess process) throws Exception {
    if (SETTLED_CORE_SHARE >= 1) {
      return;
    }
    long start = System.nanoTime();
    long cpu = cpuNanos(process);
    double share = Double.NaN;
    while (System.nanoTime() - start < SETTLE_LIMIT.toNanos()) {
      TimeUnit.SECONDS.sleep(1);
      long now = cpuNanos(process);
      share = (now - cpu) / 1e9;
      if (share < SETTLED_CORE_SHARE) {
        System.out.printf(Locale.ROOT, "  standby settled after %.1f s (%.0f %% of a core)%n",
            (System.nanoTime() - start) / 1e9, share * 100);
        return;
      }
      cpu = now;
    }
    System.out.printf(Locale.ROOT, "  standby not settled after %d s (%.0f %% of a core): failing over anyway%n",
        SETTLE_LIMIT.toSeconds(), share * 100);
  }

  private static long cpuNanos(DaemonProcess process) {
    return ProcessHandle.of(process.pid()).flatMap(h -> h.info().totalCpuDuration())
        .orElseThrow(() -> new AssertionError("no CPU time for " + process)).toNanos();
  }

  /**
   * Brings the failed NameNode (and, for a vanished host, its controller) back as a fresh process. An unreachable
   * host's processes are killed before it is back on the network, as fencing would have.
   */
  private void restore(ProcessHaCluster ha, int failed) throws Exception {
    boolean hostGone = failure == Failure.HOST || failure == Failure.UNREACHABLE;
    if (failure != Failure.PROCESS) {
      ha.nameNode(failed).kill();
    }
    if (hostGone) {
      ha.controller(failed).kill();
    }
    if (failure == Failure.UNREACHABLE) {
      ha.healHost(failed);
    }
    ha.startNameNode(failed);
    if (hostGone) {
      ha.startController(failed, kind, controllerConf(ha, failed));
    }
    ha.awaitState(failed, HAServiceState.STANDBY);
  }

  /** Polls NameNode {@code nn} every 2 ms until it answers active; returns when (nanoTime). */
  private static long awaitActive(ProcessHaCluster ha, int nn) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (ha.state(nn) == HAServiceState.ACTIVE) {
        return System.nanoTime();
      }
      TimeUnit.MILLISECONDS.sleep(2);
    }
    throw new AssertionError(ProcessHaCluster.id(nn) + " did not become active within " + WAIT);
  }

  /** Whether NameNode {@code nn}'s controller logged it primed (or failed to) since the NameNode's process started. */
  static boolean primedSinceStart(ProcessHaCluster ha, int nn) {
    long started = ProcessHandle.of(ha.nameNode(nn).pid()).flatMap(h -> h.info().startInstant())
        .map(i -> LocalTime.ofInstant(i, java.time.ZoneId.systemDefault()).toNanoOfDay() / 1_000_000).orElse(Long.MAX_VALUE);
    List<String> primed = DaemonLog.matching(ha.controller(nn).log(), PRIMED);
    return !primed.isEmpty() && DaemonLog.millisOfDay(primed.get(primed.size() - 1)) >= started;
  }

  /** Whether the controller of a standby NameNode is in the election, ready to take over (from its log). */
  static boolean standbyReady(ControllerKind kind, DaemonProcess controller) {
    if (kind == ControllerKind.BULWARK) {
      return "STANDBY".equals(DaemonLog.lastGroup(controller.log(), OUR_STATE));
    }
    List<String> lines = DaemonLog.matching(controller.log(), "entered state:", "should become standby",
        "should become active");
    return !lines.isEmpty() && lines.get(lines.size() - 1).contains("should become standby");
  }

  /** The last transitionToActive of the controller's NameNode, as the controller timed and logged it. */
  private double lastSwitchMillis(DaemonProcess controller) throws Exception {
    double[] found = {Double.NaN};
    Await.until("the controller of the new active logged its transition", WAIT, () -> {
      if (kind == ControllerKind.BULWARK) {
        String ms = DaemonLog.lastGroup(controller.log(), OUR_TRANSITION);
        found[0] = ms == null ? Double.NaN : Double.parseDouble(ms);
      } else {
        List<String> lines = DaemonLog.matching(controller.log(), "Trying to make ", "Successfully transitioned ");
        int n = lines.size();
        if (n >= 2 && lines.get(n - 2).contains("Trying to make ") && lines.get(n - 1).contains("to active state")) {
          found[0] = DaemonLog.millisOfDay(lines.get(n - 1)) - DaemonLog.millisOfDay(lines.get(n - 2));
        }
      }
      return !Double.isNaN(found[0]);
    });
    return found[0];
  }
}
