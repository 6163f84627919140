package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.qjournal.MiniJournalCluster;
import org.apache.hadoop.hdfs.qjournal.MiniQJMHACluster;
import org.apache.hadoop.hdfs.qjournal.server.JournalNode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.tools.NNHAServiceTarget;
import org.apache.hadoop.ipc.RPC;
import org.bulwark.hdfs.hotstandby.health.HaServiceProxies;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.DaemonProcess;
import org.bulwark.hdfs.testkit.FastClusterSettings;
import org.bulwark.hdfs.testkit.FreePorts;
import org.bulwark.hdfs.testkit.SplitBrainChecker;

/**
 * One HA nameservice (ns1) laid out as an administrator runs it: every NameNode is a JVM of its own
 * ({@code hdfs --daemon start namenode}), started from its own site file, so it can be killed with
 * kill -9 or frozen with kill -STOP, and its {@code transitionToActive} takes what a real one takes
 * (class loading, a cold JIT, its own heap) rather than what an embedded one does. The JournalNodes
 * (quorum journal, as in production), the DataNodes and ZooKeeper stay in the test's JVM: they are
 * never what fails. Optionally the three JournalNodes run as JVMs of their own too
 * ({@code hdfs --daemon start journalnode}), as a production quorum does: their answers are on every
 * activation's path, and in the test's JVM they would share its heap, collector and JIT with the
 * DataNodes, ZooKeeper and the clients. A split-brain checker asks every NameNode for its HA state over
 * RPC throughout.
 *
 * <p>Every NameNode starts standby; controllers (ours or the stock ZKFC, each in its own JVM too:
 * {@link #startController}) elect the active one.
 */
final class ProcessHaCluster implements AutoCloseable {
  static final String NS = MiniQJMHACluster.NAMESERVICE;
  private static final Duration WAIT = Duration.ofSeconds(90);
  /** ZooKeeper's tick: sessions expire within one tick of their timeout (the default 3 s tick would stretch 2 s to 6 s). */
  private static final int ZOOKEEPER_TICK_MS = 100;
  /**
   * Without it ZooKeeper grants at most 20 ticks (2 s): a test that waits for no expiry asks for longer sessions,
   * which a slow host's pauses do not end.
   */
  private static final int ZOOKEEPER_MAX_SESSION_TIMEOUT_MS = 60_000;
  /** One RPC per NameNode per sample: every 5 ms costs the NameNodes little of their CPU on 2 cores. */
  private static final long SPLIT_BRAIN_SAMPLE_MILLIS = 5;
  /** A {@code :port} in a {@code qjournal://} URI, followed by the next entry's {@code ;} or the journal id's {@code /}. */
  private static final Pattern JOURNAL_PORT = Pattern.compile("(:[0-9]+)(?=[;/])");
  /**
   * {@code -Dbench.failover.serviceRpc=true}: DataNodes, controllers and this JVM's HA probes on a service RPC
   * port of each NameNode; by default they share the client RPC port, as without
   * {@code dfs.namenode.servicerpc-address}.
   */
  private static final boolean SERVICE_RPC = Boolean.parseBoolean(System.getProperty("bench.failover.serviceRpc", "false"));
  /**
   * {@code -Dbench.failover.lockReportMs=N}: the NameNodes log every hold of their namesystem lock longer
   * than N ms, with the holder's stack (Hadoop's lock reporting; 5 s by default).
   */
  private static final long LOCK_REPORT_MILLIS = Long.getLong("bench.failover.lockReportMs", 0);
  /** {@code -Dbench.failover.auditLog=true}: every client call a NameNode served, timed, to place an outage's end. */
  private static final boolean AUDIT_LOG = Boolean.getBoolean("bench.failover.auditLog");

  /** Which failover controller a cluster runs. */
  enum ControllerKind {
    BULWARK, STOCK
  }

  private final File dir;
  private final TestingServer zooKeeper;
  private final MiniQJMHACluster journalAndDataNodes;
  private final Configuration conf;
  private final File[] nameNodeSites;
  private final DaemonProcess[] nameNodes;
  private final DaemonProcess[] controllers;
  /** The JournalNodes' own JVMs; empty when they run in the test's JVM. */
  private final List<DaemonProcess> journalNodes = new ArrayList<>();
  /** Each thread its own proxies: the split-brain checker and the test ask at the same time. */
  private final ThreadLocal<HAServiceProtocol[]> probes;
  private final List<HAServiceProtocol> allProbes = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final File daemonLog4j;
  /** Each NameNode's host (with its controller), or null when every daemon shares this host's loopback. */
  private final HostNetwork hosts;
  final SplitBrainChecker splitBrain;

  private ProcessHaCluster(File dir, TestingServer zooKeeper, MiniQJMHACluster qjm, Configuration conf,
      File[] nameNodeSites, File daemonLog4j, HostNetwork hosts) {
    this.dir = dir;
    this.hosts = hosts;
    this.zooKeeper = zooKeeper;
    this.journalAndDataNodes = qjm;
    this.conf = conf;
    this.nameNodeSites = nameNodeSites;
    this.nameNodes = new DaemonProcess[nameNodeSites.length];
    this.controllers = new DaemonProcess[nameNodeSites.length];
    this.probes = ThreadLocal.withInitial(() -> new HAServiceProtocol[nameNodeSites.length]);
    this.daemonLog4j = daemonLog4j;
    int[] indexes = new int[nameNodeSites.length];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = i;
    }
    this.splitBrain = SplitBrainChecker.start(i -> state(i) == HAServiceState.ACTIVE, SPLIT_BRAIN_SAMPLE_MILLIS, indexes);
  }

  /**
   * Formats ns1 of {@code nameNodes} NameNodes on a quorum journal, starts {@code dataNodes} DataNodes and
   * every NameNode in its own JVM, all standby.
   *
   * @param settings applied to the configuration of every daemon and client before anything starts
   */
  static ProcessHaCluster start(File dir, int nameNodes, int dataNodes, Consumer<Configuration> settings)
      throws Exception {
    return start(dir, nameNodes, dataNodes, -1, settings);
  }

  /** As {@link #start(File, int, int, Consumer)}, with ZooKeeper's {@code maxClientCnxns} (-1: its default). */
  static ProcessHaCluster start(File dir, int nameNodes, int dataNodes, int zooKeeperMaxClientCnxns,
      Consumer<Configuration> settings) throws Exception {
    return start(dir, nameNodes, dataNodes, zooKeeperMaxClientCnxns, false, settings);
  }

  /**
   * As {@link #start(File, int, int, int, Consumer)}; with {@code journalProcesses} every JournalNode is a
   * JVM of its own.
   */
  static ProcessHaCluster start(File dir, int nameNodes, int dataNodes, int zooKeeperMaxClientCnxns,
      boolean journalProcesses, Consumer<Configuration> settings) throws Exception {
    return start(dir, nameNodes, dataNodes, zooKeeperMaxClientCnxns, journalProcesses, false, settings);
  }

  /**
   * As {@link #start(File, int, int, int, boolean, Consumer)}; with {@code hostsOfTheirOwn} each NameNode and its
   * controller run on a {@link HostNetwork} host of their own, which {@link #cutHost} can take off the network
   * (the JournalNodes must then be processes: they bind every address of this host).
   */
  static ProcessHaCluster start(File dir, int nameNodes, int dataNodes, int zooKeeperMaxClientCnxns,
      boolean journalProcesses, boolean hostsOfTheirOwn, Consumer<Configuration> settings) throws Exception {
    if (hostsOfTheirOwn && !journalProcesses) {
      throw new IllegalArgumentException("NameNodes on hosts of their own need the JournalNodes as processes");
    }
    HostNetwork hosts = hostsOfTheirOwn ? HostNetwork.create(nameNodes) : null;
    try {
      return start(dir, nameNodes, dataNodes, zooKeeperMaxClientCnxns, journalProcesses, hosts, settings);
    } catch (Exception | Error e) {
      if (hosts != null) {
        hosts.close();
      }
      throw e;
    }
  }

  private static ProcessHaCluster start(File dir, int nameNodes, int dataNodes, int zooKeeperMaxClientCnxns,
      boolean journalProcesses, HostNetwork hosts, Consumer<Configuration> settings) throws Exception {
    TestingServer zk = new TestingServer(new InstanceSpec(new File(dir, "zookeeper"), -1, -1, -1, true, -1,
        ZOOKEEPER_TICK_MS, zooKeeperMaxClientCnxns,
        Collections.singletonMap("maxSessionTimeout", String.valueOf(ZOOKEEPER_MAX_SESSION_TIMEOUT_MS))), true);
    Configuration conf = FastClusterSettings.apply(new HdfsConfiguration());
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(dir, "dfs").getAbsolutePath());
    conf.set("ha.zookeeper.quorum", zk.getConnectString());
    conf.setBoolean("dfs.ha.automatic-failover.enabled", true);
    conf.set("dfs.ha.fencing.methods", "shell(true)");
    // An observer (and a standby) follows the journal's in-progress segment, as observer reads need.
    conf.setBoolean("dfs.ha.tail-edits.in-progress", true);
    conf.set("dfs.ha.tail-edits.period", "100ms");
    conf.setBoolean("dfs.namenode.state.context.enabled", true);
    if (hosts != null) {
      // A DataNode reaches a NameNode on another host from this host's address there, which has no name.
      conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
      // The NameNode on host i knows this host's DataNodes by 10.88.i.1, where they do not listen: clients and
      // DataNodes dial them by the name they register with instead (loopback, as the embedded cluster names them).
      conf.setBoolean("dfs.client.use.datanode.hostname", true);
      conf.setBoolean("dfs.datanode.use.datanode.hostname", true);
    }
    HotStandbyCluster.fastFailover(conf);
    if (SERVICE_RPC) {
      // As administrators run HA (Cloudera Manager's default, port 8022): DataNodes and failover controllers
      // on a service RPC server of its own, so the client port's handlers are left to clients.
      int[] servicePorts = FreePorts.pick(nameNodes);
      for (int i = 0; i < nameNodes; i++) {
        conf.set("dfs.namenode.servicerpc-address." + NS + "." + id(i), "127.0.0.1:" + servicePorts[i]);
      }
    }
    if (LOCK_REPORT_MILLIS > 0) {
      conf.setLong("dfs.namenode.write-lock-reporting-threshold-ms", LOCK_REPORT_MILLIS);
      conf.setLong("dfs.namenode.read-lock-reporting-threshold-ms", LOCK_REPORT_MILLIS);
      conf.set("dfs.lock.suppress.warning.interval", "1ms"); // every long hold, not one per 10 s
    }
    settings.accept(conf);
    MiniQJMHACluster.Builder b = new MiniQJMHACluster.Builder(conf);
    b.setNumNameNodes(nameNodes);
    b.getDfsBuilder().numDataNodes(dataNodes);
    MiniQJMHACluster qjm = b.build();
    MiniDFSCluster dfs = qjm.getDfsCluster();
    dfs.waitActive();
    int[] zkfcPorts = FreePorts.pick(nameNodes);
    // The NameNode processes bind ports of FreePorts' picking, not the embedded NameNodes': MiniQJMHACluster picks
    // those at random from 10000-13999, and another test JVM's cluster can take one while its NameNode is down.
    int[] rpcPorts = FreePorts.pick(nameNodes);
    int[] httpPorts = FreePorts.pick(nameNodes);
    for (int i = 0; i < nameNodes; i++) {
      publishAddresses(conf, i, dfs.getNameNode(i), rpcPorts[i], httpPorts[i], hosts);
      conf.setInt("dfs.ha.zkfc.port." + NS + "." + id(i), zkfcPorts[i]);
    }
    int[] journalPorts = journalProcesses ? repointJournal(qjm.getJournalCluster(), conf, dfs, nameNodes) : null;
    File[] sites = new File[nameNodes];
    for (int i = 0; i < nameNodes; i++) {
      Configuration own = new Configuration(dfs.getConfiguration(i));
      for (int k = 0; k < nameNodes; k++) {
        publishAddresses(own, k, dfs.getNameNode(k), rpcPorts[k], httpPorts[k], hosts);
        own.setInt("dfs.ha.zkfc.port." + NS + "." + id(k), zkfcPorts[k]);
      }
      // The embedded cluster's unsuffixed addresses name one NameNode; a site file names the nameservice.
      own.unset("dfs.namenode.rpc-address");
      own.unset("dfs.namenode.servicerpc-address");
      own.unset("dfs.namenode.http-address");
      own.set("fs.defaultFS", "hdfs://" + NS);
      own.set("dfs.nameservice.id", NS);
      own.set("dfs.ha.namenode.id", id(i));
      rehome(own, hosts, i);
      sites[i] = writeSite(new File(dir, id(i) + "-site.xml"), own);
    }
    dfs.shutdownNameNodes();
    ProcessHaCluster c = new ProcessHaCluster(dir, zk, qjm, conf, sites,
        writeDaemonLog4j(new File(dir, "daemon-log4j.properties")), hosts);
    try {
      if (journalProcesses) {
        c.moveJournalNodesToProcesses(dfs.getConfiguration(0), journalPorts);
      }
      for (int i = 0; i < nameNodes; i++) {
        c.startNameNode(i);
      }
      for (int i = 0; i < nameNodes; i++) {
        c.awaitState(i, HAServiceState.STANDBY);
      }
      // The DataNodes registered with the embedded NameNodes; the NameNodes answer at other addresses now. Once
      // they answer, so that a DataNode's first call does not fail and wait out its 5 s before asking again.
      for (org.apache.hadoop.hdfs.server.datanode.DataNode dn : dfs.getDataNodes()) {
        dn.refreshNamenodes(conf);
      }
    } catch (Exception | Error e) {
      try {
        c.close(); // the daemons started so far
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return c;
  }

  /**
   * Picks the ports the JournalNodes' own JVMs will bind and points every shared-edits URI in {@code conf} and in the
   * NameNodes' configurations at them. Why not the embedded JournalNodes' ports: those are ephemeral ones, which a
   * port-0 bind or an outgoing connection of any JVM on this machine can take between the embedded node's stop and
   * its process's bind (the likely cause of a JournalNode process that ended at its start in CI, its log lost).
   * {@link FreePorts} picks below the ephemeral range.
   *
   * @return the new RPC port of each JournalNode, in the embedded cluster's order
   */
  private static int[] repointJournal(MiniJournalCluster embedded, Configuration conf, MiniDFSCluster dfs,
      int nameNodes) {
    int n = embedded.getNumNodes();
    int[] ports = FreePorts.pick(n);
    Map<String, String> moves = new HashMap<>();
    for (int i = 0; i < n; i++) {
      moves.put(":" + embedded.getJournalNode(i).getBoundIpcAddress().getPort(), ":" + ports[i]);
    }
    repointJournal(conf, moves);
    for (int i = 0; i < nameNodes; i++) {
      repointJournal(dfs.getConfiguration(i), moves);
    }
    return ports;
  }

  /** Rewrites the {@code host:port} entries of every {@code qjournal://} URI in {@code conf} by {@code moves}. */
  private static void repointJournal(Configuration conf, Map<String, String> moves) {
    for (Map.Entry<String, String> e : conf) {
      String uri = e.getValue();
      if (!uri.startsWith("qjournal://")) {
        continue;
      }
      Matcher m = JOURNAL_PORT.matcher(uri);
      StringBuffer moved = new StringBuffer();
      while (m.find()) {
        String to = moves.get(m.group(1));
        if (to == null) {
          throw new IllegalStateException(e.getKey() + " names a JournalNode the embedded cluster has not: " + uri);
        }
        m.appendReplacement(moved, to);
      }
      m.appendTail(moved);
      conf.set(e.getKey(), moved.toString());
    }
  }

  /**
   * Stops the embedded JournalNodes and starts each again as a JVM of its own on the same storage, at the RPC port
   * {@link #repointJournal} picked (the address the NameNodes' shared-edits URI names); returns once every one
   * accepts connections.
   *
   * @param nameNodeConf a NameNode's configuration: its shared-edits URI lets each JournalNode find its peers
   * @param ports each JournalNode's RPC port
   */
  private void moveJournalNodesToProcesses(Configuration nameNodeConf, int[] ports) throws Exception {
    MiniJournalCluster embedded = journalAndDataNodes.getJournalCluster();
    int n = embedded.getNumNodes();
    embedded.shutdown();
    for (int i = 0; i < n; i++) {
      Configuration own = new Configuration(nameNodeConf);
      own.set("dfs.journalnode.edits.dir", embedded.getStorageDir(i).getPath());
      // On every address of this host when the NameNodes are on hosts of their own: they dial it from there.
      String bind = hosts == null ? "127.0.0.1:" : "0.0.0.0:";
      own.set("dfs.journalnode.rpc-address", bind + ports[i]);
      own.set("dfs.journalnode.http-address", bind + "0");
      File site = writeSite(new File(dir, "jn" + i + "-site.xml"), own);
      journalNodes.add(DaemonProcess.start("jn" + i, JournalNode.class,
          new File(dir, "jn" + i + "-" + System.nanoTime() + ".log"), jvmOptions(), "-conf", site.getPath()));
    }
    for (int i = 0; i < n; i++) {
      int port = ports[i];
      DaemonProcess jn = journalNodes.get(i);
      jn.awaitWhileAlive(jn + " accepting on port " + port, WAIT, () -> accepting(port));
    }
  }

  private static boolean accepting(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The JournalNodes' own JVMs (empty when they run in the test's JVM). */
  List<DaemonProcess> journalNodes() {
    return journalNodes;
  }

  /** The NameNode id MiniQJMHACluster gives index {@code i}. */
  static String id(int i) {
    return "nn" + i;
  }

  /**
   * Pins NameNode {@code i}'s addresses in {@code conf}, so a restarted process binds the same ones: the RPC and
   * HTTP ports given, and the service RPC port the embedded NameNode bound (when it has one apart), on loopback or
   * on its own host's address.
   */
  private static void publishAddresses(Configuration conf, int i, NameNode nn, int rpcPort, int httpPort,
      HostNetwork hosts) {
    String host = hosts == null ? "127.0.0.1" : hosts.address(i);
    conf.set("dfs.namenode.rpc-address." + NS + "." + id(i), host + ":" + rpcPort);
    if (nn.getServiceRpcAddress().getPort() == nn.getNameNodeAddress().getPort()) {
      conf.unset("dfs.namenode.servicerpc-address." + NS + "." + id(i));
    } else {
      conf.set("dfs.namenode.servicerpc-address." + NS + "." + id(i), host + ":" + nn.getServiceRpcAddress().getPort());
    }
    conf.set("dfs.namenode.http-address." + NS + "." + id(i), host + ":" + httpPort);
  }

  /**
   * For a daemon on host {@code i} of {@code hosts}: what this host serves on loopback (ZooKeeper, the
   * JournalNodes) is dialled at this host's address as host {@code i} sees it. Nothing changes without hosts.
   */
  private static void rehome(Configuration conf, HostNetwork hosts, int i) {
    if (hosts == null) {
      return;
    }
    for (java.util.Map.Entry<String, String> e : conf) {
      String v = e.getValue();
      if (v.contains("127.0.0.1") || v.contains("localhost")) {
        conf.set(e.getKey(), v.replace("127.0.0.1", HostNetwork.gateway(i)).replace("localhost", HostNetwork.gateway(i)));
      }
    }
  }

  /** What runs a daemon of NameNode {@code i}'s host: nothing on loopback, {@code ip netns exec} on a host of its own. */
  private List<String> launcher(int i) {
    return hosts == null ? List.of() : hosts.launcher(i);
  }

  static File writeSite(File f, Configuration c) throws IOException {
    try (OutputStream out = new FileOutputStream(f)) {
      c.writeXml(out);
    }
    return f;
  }

  /** Daemons log at WARN, but their controllers' decisions (ours and the stock ZKFC's) at INFO, with milliseconds. */
  private static File writeDaemonLog4j(File f) throws IOException {
    try (PrintWriter w = new PrintWriter(f, StandardCharsets.UTF_8.name())) {
      w.println("log4j.rootLogger=WARN,stdout");
      w.println("log4j.appender.stdout=org.apache.log4j.ConsoleAppender");
      w.println("log4j.appender.stdout.layout=org.apache.log4j.PatternLayout");
      w.println("log4j.appender.stdout.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c{2} (%t) - %m%n");
      w.println("log4j.logger.org.bulwark=INFO");
      w.println("log4j.logger.org.bulwark.hdfs.hotstandby.health=DEBUG");
      w.println("log4j.logger.org.apache.hadoop.ha=INFO");
      w.println("log4j.logger.org.apache.zookeeper=ERROR");
      w.println("log4j.logger.org.apache.curator=ERROR");
      w.println("log4j.logger.org.apache.hadoop.metrics2=ERROR");
      w.println("log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem=INFO");
      w.println("log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=" + (AUDIT_LOG ? "INFO" : "WARN"));
      w.println("log4j.logger.org.apache.hadoop.hdfs.server.namenode.ha=INFO");
      w.println("log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSEditLog=INFO");
      w.println("log4j.logger.org.apache.hadoop.hdfs.qjournal.client=INFO");
      // JournalNodes run apart: each recovery step (epoch, prepare, accept, finalize) with its time.
      w.println("log4j.logger.org.apache.hadoop.hdfs.qjournal.server=INFO");
    }
    return f;
  }

  private List<String> jvmOptions() {
    List<String> o = new ArrayList<>();
    o.add("-Dlog4j.configuration=file:" + daemonLog4j.getAbsolutePath());
    return o;
  }

  /** The directory of the daemons' site files and logs. */
  File dir() {
    return dir;
  }

  /** A copy of the cluster's configuration: what every client and controller reads. */
  Configuration conf() {
    return new Configuration(conf);
  }

  /** (Re)starts NameNode {@code i}'s process; it comes up standby. */
  void startNameNode(int i) throws IOException {
    nameNodes[i] = DaemonProcess.start(id(i), launcher(i), NameNode.class, new File(dir, id(i) + "-" + System.nanoTime() + ".log"),
        jvmOptions(),
        "-conf", nameNodeSites[i].getPath());
    // As HADOOP_PID_DIR holds it for hdfs --daemon: what a fencing script that kills reads.
    Files.write(pidFile(dir, id(i)).toPath(), Long.toString(nameNodes[i].pid()).getBytes(StandardCharsets.UTF_8));
    splitBrain.markUp(i);
  }

  /** The file holding the pid of NameNode {@code nameNodeId}'s current process. */
  static File pidFile(File clusterDir, String nameNodeId) {
    return new File(clusterDir, "namenode-" + nameNodeId + ".pid");
  }

  /**
   * ZooKeeper stopped for {@code down}, then started again on the same port with its data, as a maintenance restart
   * does: sessions that outlast it live on.
   */
  void restartZooKeeper(Duration down) throws Exception {
    zooKeeper.stop();
    Thread.sleep(down.toMillis());
    zooKeeper.restart();
  }

  /** NameNode {@code i}'s HA state, or null when it does not answer within a second. */
  HAServiceState state(int i) {
    HAServiceProtocol[] mine = probes.get();
    try {
      if (mine[i] == null) {
        mine[i] = HaServiceProxies.open(conf, new NNHAServiceTarget(conf, NS, id(i)).getAddress(), 1000);
        allProbes.add(mine[i]);
      }
      return mine[i].getServiceStatus().getState();
    } catch (IOException | RuntimeException e) {
      if (mine[i] != null) {
        allProbes.remove(mine[i]);
        RPC.stopProxy(mine[i]);
        mine[i] = null;
      }
      return null;
    }
  }

  /** Waits until NameNode {@code i} answers {@code want}; fails at once, with what its log says, if its process ends. */
  void awaitState(int i, HAServiceState want) throws Exception {
    nameNodes[i].awaitWhileAlive(id(i) + " " + want, WAIT, () -> state(i) == want);
  }

  /** The one active NameNode's index, or -1. */
  int active() {
    int found = -1;
    for (int i = 0; i < nameNodes.length; i++) {
      if (nameNodes[i] != null && nameNodes[i].isAlive() && state(i) == HAServiceState.ACTIVE) {
        found = i;
      }
    }
    return found;
  }

  /** Waits until one NameNode of the pair is active and the other standby; returns the active one. */
  int awaitPair() throws Exception {
    Await.until("one NameNode active, the other standby", WAIT, () -> {
      int a = active();
      return a >= 0 && state(1 - a) == HAServiceState.STANDBY;
    });
    return active();
  }

  /** Makes NameNode {@code i} an observer (as {@code hdfs haadmin -transitionToObserver --forcemanual} does). */
  void makeObserver(int i) throws IOException {
    HaServiceProxies.call(conf, new NNHAServiceTarget(conf, NS, id(i)).getAddress(), 10_000,
        p -> p.transitionToObserver(new StateChangeRequestInfo(RequestSource.REQUEST_BY_USER_FORCED)));
  }

  /** Starts our controller beside every NameNode and waits until one NameNode is active. */
  void startBulwarkControllers() throws IOException, TimeoutException, InterruptedException {
    for (int i = 0; i < nameNodes.length; i++) {
      startController(i, ControllerKind.BULWARK, controllerConf(i));
    }
    Await.until("a NameNode is active", WAIT, () -> active() >= 0);
  }

  /**
   * Settings for a test that waits for no session to expire: 6 s ZooKeeper sessions for controllers and clients
   * instead of the benchmark's 2 s, which a slow host's pauses (the DataNodes, JournalNodes and ZooKeeper share
   * the test's JVM) could end and so fail a NameNode over that nothing failed.
   */
  static void sessionsOutlastingPauses(Configuration conf) {
    conf.set(HotStandbyKeys.ZK_SESSION_TIMEOUT.getName(), "6s");
  }

  /** A client's configuration, on {@link ZooKeeperFailoverProxyProvider}. */
  Configuration zooKeeperProviderConf() {
    Configuration c = conf();
    c.set("dfs.client.failover.proxy.provider." + NS, ZooKeeperFailoverProxyProvider.class.getName());
    return c;
  }

  /** The configuration a controller of NameNode {@code i} reads. */
  Configuration controllerConf(int i) {
    Configuration c = conf();
    c.set("dfs.nameservice.id", NS);
    c.set("dfs.ha.namenode.id", id(i));
    rehome(c, hosts, i);
    return c;
  }

  /** Starts the controller of NameNode {@code i} in a JVM of its own, as {@code hdfs --daemon start} does. */
  DaemonProcess startController(int i, ControllerKind kind, Configuration controllerConf) throws IOException {
    File site = writeSite(new File(dir, "controller-" + id(i) + "-site.xml"), controllerConf);
    String name = (kind == ControllerKind.BULWARK ? "hotstandby-" : "zkfc-") + id(i);
    Class<?> main = kind == ControllerKind.BULWARK ? HotStandbyController.class
        : org.apache.hadoop.hdfs.tools.DFSZKFailoverController.class;
    controllers[i] = DaemonProcess.start(name, launcher(i), main, new File(dir, name + "-" + System.nanoTime() + ".log"),
        jvmOptions(), "-conf", site.getPath());
    return controllers[i];
  }

  DaemonProcess nameNode(int i) {
    return nameNodes[i];
  }

  DaemonProcess controller(int i) {
    return controllers[i];
  }

  /** kill -9 of NameNode {@code i}: counted out by the split-brain checker first, since it serves nobody from now. */
  void killNameNode(int i) throws InterruptedException {
    splitBrain.markDown(i);
    nameNodes[i].kill();
  }

  /**
   * kill -STOP of NameNode {@code i} (hung: alive, connections open, answering nothing). It is never
   * resumed, only killed ({@link #killNameNode}), as a fencing method would, so from now it serves nobody.
   */
  void freezeNameNode(int i) throws IOException, InterruptedException {
    splitBrain.markDown(i);
    nameNodes[i].freeze();
  }

  /**
   * kill -STOP of NameNode {@code i} and its controller in one signal: a host that vanished, its
   * connections left open. Both are later killed, never resumed.
   */
  void freezeHost(int i) throws java.io.IOException, InterruptedException {
    splitBrain.markDown(i);
    DaemonProcess.freezeTogether(nameNodes[i], controllers[i]);
  }

  /**
   * Takes NameNode {@code i}'s host off the network (its NameNode and controller run on, reaching nobody and
   * reached by nobody): a host that vanished, as its peers see it. Counted out by the split-brain checker first,
   * which cannot reach it either.
   */
  void cutHost(int i) throws IOException {
    if (hosts == null) {
      throw new IllegalStateException("the NameNodes share this host; start the cluster with hosts of their own");
    }
    splitBrain.markDown(i);
    hosts.cut(i);
  }

  /** Puts NameNode {@code i}'s host back on the network, with whatever still runs there. */
  void healHost(int i) throws IOException {
    hosts.heal(i);
  }

  @Override
  public void close() throws Exception {
    splitBrain.close();
    for (DaemonProcess p : controllers) {
      if (p != null) {
        p.close();
      }
    }
    for (DaemonProcess p : nameNodes) {
      if (p != null) {
        p.close();
      }
    }
    for (HAServiceProtocol p : allProbes) {
      RPC.stopProxy(p);
    }
    if (hosts != null) {
      hosts.healAll(); // the NameNodes are gone: the DataNodes' calls to a cut-off one are refused, not left waiting
    }
    if (journalNodes.isEmpty()) {
      journalAndDataNodes.shutdown();
    } else {
      journalAndDataNodes.getDfsCluster().shutdown(); // the embedded JournalNodes were stopped at the move
      for (DaemonProcess jn : journalNodes) {
        jn.close();
      }
    }
    zooKeeper.close();
    if (hosts != null) {
      hosts.close();
    }
  }
}
