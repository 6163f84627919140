package org.bulwark.hdfs.hotstandby;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.common.conf.ConfigKey;
import org.bulwark.hdfs.common.conf.InvalidConfigException;

/** Configuration keys of the hot standby controller and of the ZooKeeper failover proxy provider. */
public final class HotStandbyKeys {
  public static final ConfigKey<String> ZK_QUORUM = ConfigKey.text(
      "bulwark.hotstandby.zookeeper.quorum", "",
      "ZooKeeper connect string (host:port,...) of controllers and clients; empty means ha.zookeeper.quorum.");
  public static final ConfigKey<String> PARENT_ZNODE = ConfigKey.text(
      "bulwark.hotstandby.zookeeper.parent-znode", "/bulwark-ha",
      "Znode under which each nameservice keeps its election, epoch and active-NameNode record.");
  public static final ConfigKey<String> ZK_ACL = ConfigKey.text(
      "bulwark.hotstandby.zookeeper.acl", "",
      "ACL of the znodes controllers create (scheme:id:perms,...; @/file reads it from a file); empty means "
      + "ha.zookeeper.acl, and that unset means world:anyone:rwcda. Grant rwcda to the controllers only.");
  public static final ConfigKey<String> ZK_READ_ACL = ConfigKey.text(
      "bulwark.hotstandby.zookeeper.read-acl", "world:anyone:r",
      "ACL entries added to every znode so clients can read the active-NameNode record without being able to change it.");
  public static final ConfigKey<String> ZK_AUTH = ConfigKey.text(
      "bulwark.hotstandby.zookeeper.auth", "",
      "Controllers' ZooKeeper identity (scheme:auth,... such as digest:hdfs-zkfcs:SECRET, or @/file), read through "
      + "credential providers; empty means ha.zookeeper.auth. SASL/Kerberos comes from the JVM's JAAS Client section.");
  public static final ConfigKey<Long> ZK_SESSION_TIMEOUT = ConfigKey.durationMillis(
      "bulwark.hotstandby.zookeeper.session-timeout", "10s", 500,
      "ZooKeeper session timeout of controllers and clients: how long a dead controller host holds leadership, and how "
      + "long a stopped controller has to come back without a failover. Unset, ha.zookeeper.session-timeout.ms where "
      + "set; the default is the stock ZKFC's, so that no pause the stock ZKFC rides out fails ours over.")
      .withStockTwin("ha.zookeeper.session-timeout.ms");
  public static final ConfigKey<Long> HEALTH_INTERVAL = ConfigKey.durationMillis(
      "bulwark.hotstandby.health.check-interval", "200ms", 10,
      "How often a controller checks its NameNode's health over HAServiceProtocol. Unset, "
      + "ha.health-monitor.check-interval.ms where set.")
      .withStockTwin("ha.health-monitor.check-interval.ms");
  public static final ConfigKey<Long> HEALTH_RPC_TIMEOUT = ConfigKey.durationMillis(
      "bulwark.hotstandby.health.rpc-timeout", "45s", 100,
      "A health check slower than this marks the NameNode unresponsive (hung), which gives up leadership. Unset, "
      + "ha.health-monitor.rpc-timeout.ms where set; the default is the stock ZKFC's, so that a pause (GC, a long "
      + "write lock) the stock ZKFC rides out does not fail ours over.")
      .withStockTwin("ha.health-monitor.rpc-timeout.ms");
  public static final ConfigKey<Long> GRACEFUL_FENCE_TIMEOUT = ConfigKey.durationMillis(
      "bulwark.hotstandby.fencing.graceful-timeout", "2s", 100,
      "RPC timeout of the transitionToStandby sent to the previous active before the fencing methods run (and of "
      + "asking the other NameNodes their state before a leader takes over). Unset, "
      + "ha.failover-controller.graceful-fence.rpc-timeout.ms where set.")
      .withStockTwin("ha.failover-controller.graceful-fence.rpc-timeout.ms");
  public static final ConfigKey<Boolean> SKIP_GRACEFUL_WHEN_SILENT = ConfigKey.flag(
      "bulwark.hotstandby.fencing.skip-graceful-when-silent", true,
      "Whether each controller also checks the other NameNodes, so that a new leader whose checks of the previous "
      + "active went unanswered for longer than the graceful timeout runs the fencing methods at once instead of "
      + "waiting that timeout in vain (a hung NameNode, a vanished host).");
  public static final ConfigKey<Boolean> WITNESS_LOCAL_EXIT = ConfigKey.flag(
      "bulwark.hotstandby.fencing.witness-local-exit", true,
      "Whether a controller whose NameNode's process ended (seen in /proc on the NameNode's host: the process it "
      + "found listening on the NameNode's port has exited and nothing listens there) tells the next leader so, "
      + "which then does not fence that NameNode. Needs Linux and the controller running as the NameNode's user; "
      + "otherwise, or when false, a failed NameNode is always fenced.");
  public static final ConfigKey<Long> WITNESS_POLL_INTERVAL = ConfigKey.durationMillis(
      "bulwark.hotstandby.fencing.witness-poll-interval", "10ms", 0,
      "With witness-local-exit, how often the controller reads its NameNode process's state in /proc to see a kill "
      + "at once: a killed process's sockets close only after the kernel has released its heap (about 75 ms per GB "
      + "measured), its threads show the exit within milliseconds. One small file read per poll; 0 turns it off.");
  public static final ConfigKey<Long> TRANSITION_TIMEOUT = ConfigKey.durationMillis(
      "bulwark.hotstandby.transition-timeout", "60s", 1000,
      "RPC timeout of transitionToActive on the controller's own NameNode. Unset, "
      + "ha.failover-controller.new-active.rpc-timeout.ms where set.")
      .withStockTwin("ha.failover-controller.new-active.rpc-timeout.ms");
  public static final ConfigKey<Long> PRIORITY = ConfigKey.number(
      "bulwark.hotstandby.priority.<ns>.<nn>", 0, Integer.MIN_VALUE, Integer.MAX_VALUE,
      "Election priority of NameNode <nn> of nameservice <ns>: among healthy NameNodes the highest becomes active.");
  public static final ConfigKey<Long> LOWER_PRIORITY_DELAY = ConfigKey.durationMillis(
      "bulwark.hotstandby.election.lower-priority-delay", "1s", 0,
      "How long a candidate waits, per healthy candidate ranked above it, before contending for a free leadership.");
  public static final ConfigKey<Long> UNCLAIMED_ACTIVE_WAIT = ConfigKey.durationMillis(
      "bulwark.hotstandby.election.unclaimed-active-wait", "60s", 0,
      "How long a controller whose NameNode is standby leaves a free leadership to another NameNode that answers "
      + "active though no controller of ours made it so (the stock ZKFC's active, during a migration), so that its "
      + "own controller, once started, takes the leadership without a failover. After it, the controller takes the "
      + "leadership and fences that NameNode first. Start every controller within this time of the first.");
  public static final ConfigKey<Boolean> FAILBACK = ConfigKey.flag(
      "bulwark.hotstandby.failback.enabled", false,
      "Whether an active NameNode hands over to a healthy NameNode of higher priority.");
  public static final ConfigKey<Long> FAILBACK_DELAY = ConfigKey.durationMillis(
      "bulwark.hotstandby.failback.delay", "30s", 0,
      "How long a higher-priority NameNode must stay healthy before the active one hands over to it.");
  public static final ConfigKey<Long> MANUAL_FAILOVER_TIMEOUT = ConfigKey.durationMillis(
      "bulwark.hotstandby.manual-failover.timeout", "30s", 1000,
      "How long a graceful failover (hdfs haadmin -failover) waits for the target NameNode to become active.");
  public static final ConfigKey<Long> CLIENT_FAILOVER_WAIT = ConfigKey.durationMillis(
      "bulwark.hotstandby.client.failover-wait", "3s", 0,
      "How long a client whose NameNode failed waits for a new active NameNode (ZooKeeper's record, or the NameNodes' own answer) before trying the configured list.");
  public static final ConfigKey<Long> CLIENT_ZK_IDLE_CLOSE = ConfigKey.durationMillis(
      "bulwark.hotstandby.client.zookeeper.idle-close", "10s", 0,
      "How long a client JVM keeps the ZooKeeper session it opened at a failover once nothing waits on it; "
          + "between failovers a client holds no session.");
  public static final ConfigKey<Long> CLIENT_ZK_CONNECT_WAIT = ConfigKey.durationMillis(
      "bulwark.hotstandby.client.zookeeper.connect-wait", "1s", 1,
      "How long a client waits for ZooKeeper to accept its session at a failover before relying on the NameNodes' "
          + "answer alone (a refused session, past maxClientCnxns, is given up then); plus, per server the quorum can "
          + "lose (a minority of those listed), the session timeout over their number: the time a server on a vanished "
          + "host holds the ZooKeeper client before it tries the next. (A quorum listed as one DNS name counts as one "
          + "server.)");
  public static final ConfigKey<Long> CLIENT_ZK_REFUSAL_BACKOFF = ConfigKey.durationMillis(
      "bulwark.hotstandby.client.zookeeper.refusal-backoff", "30s", 0,
      "After ZooKeeper refused or could not take a client's session, how long (jittered by half either way) the "
          + "client asks the NameNodes instead of trying ZooKeeper again.");
  public static final ConfigKey<Long> CLIENT_ZK_SESSIONS_PER_HOST = ConfigKey.number(
      "bulwark.hotstandby.client.zookeeper.sessions-per-host", 2, 0, 10_000,
      "How many client JVMs of one host and user may hold a ZooKeeper session for NameNode discovery at once (a lock "
          + "file in bulwark.hotstandby.client.host-dir); the others read the record those sessions relay there and "
          + "ask the NameNodes. Two, so that one slow JVM does not hold up the host; raise it with "
          + "bulwark.hotstandby.client.relay off. Keep it, times the nameservices, plus the controllers "
          + "on the host, below ZooKeeper's maxClientCnxns; 0 means no cap.");
  public static final ConfigKey<String> CLIENT_HOST_DIR = ConfigKey.text(
      "bulwark.hotstandby.client.host-dir", "/tmp",
      "Directory where the client JVMs of one host and user share their ZooKeeper session slots and the active-"
          + "NameNode record those sessions relay (files named for the user and the quorum); empty means "
          + "java.io.tmpdir. Not java.io.tmpdir by default: YARN gives every container its own, and the JVMs of a "
          + "host must find the same files.");
  public static final ConfigKey<Boolean> CLIENT_RELAY = ConfigKey.flag(
      "bulwark.hotstandby.client.relay", true,
      "Whether the client JVMs of a host share the active-NameNode record through a file in "
          + "bulwark.hotstandby.client.host-dir: those with a ZooKeeper session write each record they see, those "
          + "without wait for it to change (woken by inotify, else reading it every 20 ms). Off, a JVM without a "
          + "session learns of a new active NameNode only by asking the NameNodes.");
  public static final ConfigKey<Boolean> CLIENT_ZK_PRELOAD = ConfigKey.flag(
      "bulwark.hotstandby.client.zookeeper.preload", true,
      "Whether a client JVM loads the ZooKeeper client's classes in the background when its first ZooKeeper-"
          + "discovering client is made (about 110 ms of CPU once), rather than at its first failover, when every "
          + "client JVM of a host would pay it at the same moment.");
  public static final ConfigKey<Long> CLIENT_COMPLETE_REASK = ConfigKey.durationMillis(
      "bulwark.hotstandby.client.complete-reask", "300ms", 0,
      "For 10 s after a client failed over, how long it keeps asking the new active NameNode again (every 20 ms) "
          + "when closing a file is answered \"last block not yet reported\", before the stock client's own "
          + "400 ms sleep (dfs.client.block.write.locateFollowingBlock.initial.delay.ms); 0 turns it off.");
  public static final ConfigKey<Long> CLIENT_PROBE_INTERVAL = ConfigKey.durationMillis(
      "bulwark.hotstandby.client.probe-interval", "50ms", 1,
      "While a failing-over client waits for a new active NameNode, the pause before it asks the other NameNodes "
          + "for their HA state again the first time; each later pause doubles, up to probe-max-interval, jittered "
          + "by half either way. Also the longest it waits for their answers each time: one not answered by then "
          + "(hung, or its host's connects hang) is not asked again until it answers.");
  public static final ConfigKey<Long> CLIENT_PROBE_MAX_INTERVAL = ConfigKey.durationMillis(
      "bulwark.hotstandby.client.probe-max-interval", "1s", 1,
      "The longest nominal pause between a failing-over client's questions to the NameNodes (never below "
          + "probe-interval): with many client JVMs on a host, quicker questions load the NameNode that is taking over.");

  public static final ConfigKey<Boolean> PRIME_CLIENT_RPC = ConfigKey.flag(
      "bulwark.hotstandby.prime-client-rpc", true,
      "Whether the controller sends its standby NameNode one client-protocol call (getHAServiceState) once per "
          + "NameNode process, so the RPC server's one-time set-up for client calls is done before a failover "
          + "instead of during the transition.");
  public static final ConfigKey<Boolean> TRIGGER_BLOCK_REPORTS = ConfigKey.flag(
      "bulwark.hotstandby.trigger-block-reports", false,
      "Whether the controller asks every live DataNode for a full block report after making its NameNode active, "
          + "so the NameNode trusts its replica map (deletes excess replicas, serves the balancer) within seconds "
          + "rather than at the DataNodes' next scheduled report (dfs.blockreport.intervalMsec).");
  public static final ConfigKey<Long> TRIGGER_BLOCK_REPORTS_PER_SECOND = ConfigKey.number(
      "bulwark.hotstandby.trigger-block-reports.per-second", 20, 1, 100_000,
      "How many DataNodes a second the controller asks for a block report after an activation.");

  private HotStandbyKeys() {
  }

  /** The ZooKeeper quorum: ours, else Hadoop's {@code ha.zookeeper.quorum}; fails naming both keys when neither is set. */
  public static String zooKeeperQuorum(Configuration conf) {
    String quorum = ZK_QUORUM.get(conf);
    if (quorum == null) {
      quorum = conf.getTrimmed("ha.zookeeper.quorum", "");
    }
    if (quorum.isEmpty()) {
      throw new InvalidConfigException(ZK_QUORUM.getName(), "",
          "a ZooKeeper connect string such as zk1:2181,zk2:2181 (or set ha.zookeeper.quorum)");
    }
    return quorum;
  }

  /** The parent znode, validated as an absolute ZooKeeper path without a trailing slash. */
  public static String parentZnode(Configuration conf) {
    String parent = PARENT_ZNODE.get(conf);
    if (parent == null || !parent.matches("(/[^/\\s]+)+")) {
      throw new InvalidConfigException(PARENT_ZNODE.getName(), parent == null ? "" : parent,
          "an absolute znode path such as /bulwark-ha");
    }
    return parent;
  }
}
