package org.bulwark.hdfs.monitor;

import org.bulwark.hdfs.common.conf.ConfigKey;

/** Configuration keys of the block monitor ({@code hdfs blockmonitor}). */
public final class MonitorKeys {
  public static final ConfigKey<String> DATA_DIR = ConfigKey.text("bulwark.monitor.data.dir", "",
      "Directory of the embedded history store (an H2 file); empty means ${hadoop.tmp.dir}/bulwark-monitor.");
  public static final ConfigKey<String> JDBC_URL = ConfigKey.text("bulwark.monitor.jdbc.url", "",
      "JDBC URL of a PostgreSQL history store (jdbc:postgresql://host:5432/db); empty means the embedded store.");
  public static final ConfigKey<String> JDBC_USER = ConfigKey.text("bulwark.monitor.jdbc.user", "",
      "User for bulwark.monitor.jdbc.url; its password is bulwark.monitor.jdbc.password, read through Hadoop's credential providers.");
  public static final ConfigKey<Long> JDBC_SOCKET_TIMEOUT = ConfigKey.durationMillis("bulwark.monitor.jdbc.socket-timeout", "2m", 1000,
      "Longest wait for PostgreSQL's answer to one statement (the driver's socketTimeout; one in the URL wins): a database that stops answering fails the poll and the pages after this instead of holding them.");
  public static final ConfigKey<Long> LEASE_TIMEOUT = ConfigKey.durationMillis("bulwark.monitor.store.lease-timeout", "5m", 1000,
      "How long the history store's writer lease outlives its holder's last renewal (by the database's clock; renewed every third of it, whatever the poll interval): a second monitor on the same store is refused until then, and may take the store over after.");
  public static final ConfigKey<Long> POLL_INTERVAL = ConfigKey.durationMillis("bulwark.monitor.poll.interval", "60s", 100,
      "Pause between the end of one poll of every namespace and the start of the next.");
  public static final ConfigKey<Long> MAX_RPC_PER_SEC = ConfigKey.number("bulwark.monitor.max-rpc-per-sec", 20, 1, 100_000,
      "Most NameNode RPCs per second a poll makes (listings with locations, DataNode reports).");
  public static final ConfigKey<Long> RETENTION_DAYS = ConfigKey.number("bulwark.monitor.retention.days", 90, 1, 36_500,
      "History that ended longer ago than this is deleted (open intervals are always kept).");
  public static final ConfigKey<String> HTTP_ADDRESS = ConfigKey.hostPort("bulwark.monitor.http-address", "0.0.0.0:9880",
      "Address of the monitor's web UI and REST API over HTTP, served unless dfs.http.policy is HTTPS_ONLY (host:port; port 0 picks a free one).");
  public static final ConfigKey<String> HTTPS_ADDRESS = ConfigKey.hostPort("bulwark.monitor.https-address", "0.0.0.0:9881",
      "Address of the web UI and REST API over HTTPS, served when dfs.http.policy is HTTPS_ONLY or HTTP_AND_HTTPS, with the keystore of ssl-server.xml as the NameNode's.");
  public static final ConfigKey<Long> ADVISOR_DEPTH = ConfigKey.number("bulwark.monitor.advisor.depth", 3, 0, 64,
      "How many directory levels below / the storage-cost advisor reports.");

  public static final ConfigKey<Long> HEALTH_INTERVAL = ConfigKey.durationMillis("bulwark.monitor.health.interval", "30s", 100,
      "Pause between two rounds of health checks (canary, missing and corrupt blocks, DataNodes, active NameNode, last poll).");
  public static final ConfigKey<Long> HEALTH_TIMEOUT = ConfigKey.durationMillis("bulwark.monitor.health.timeout", "20s", 100,
      "How long a round waits for a namespace's NameNodes and canary: a canary not done by then is CRITICAL, block counts and DataNode reports not answered are UNKNOWN, a NameNode not answered counts as not active.");
  public static final ConfigKey<String> CANARY_DIR = ConfigKey.text("bulwark.monitor.health.canary.dir", "/tmp/.bulwark-canary",
      "Directory in each namespace where the canary creates, writes, reads back and deletes a small file; empty disables the canary.");
  public static final ConfigKey<Long> CANARY_WARNING = ConfigKey.durationMillis("bulwark.monitor.health.canary.warning", "5s", 1,
      "A canary that succeeds but takes longer than this is WARNING (a failed or timed-out one is CRITICAL).");
  public static final ConfigKey<Double> MISSING_WARNING = ConfigKey.percent("bulwark.monitor.health.missing-blocks.warning-percent", "0",
      "Missing blocks above this share of all blocks (percent) make the check WARNING; 0 means any missing block.");
  public static final ConfigKey<Double> MISSING_CRITICAL = ConfigKey.percent("bulwark.monitor.health.missing-blocks.critical-percent", "0",
      "Missing blocks above this share of all blocks (percent) make the check CRITICAL; 100 means never.");
  public static final ConfigKey<Double> CORRUPT_WARNING = ConfigKey.percent("bulwark.monitor.health.corrupt-blocks.warning-percent", "0",
      "Blocks with a corrupt replica above this share of all blocks (percent) make the check WARNING.");
  public static final ConfigKey<Double> CORRUPT_CRITICAL = ConfigKey.percent("bulwark.monitor.health.corrupt-blocks.critical-percent", "0.1",
      "Blocks with a corrupt replica above this share of all blocks (percent) make the check CRITICAL.");
  public static final ConfigKey<Double> DEAD_WARNING = ConfigKey.percent("bulwark.monitor.health.dead-datanodes.warning-percent", "0",
      "Dead DataNodes above this share of all registered DataNodes (percent) make the check WARNING.");
  public static final ConfigKey<Double> DEAD_CRITICAL = ConfigKey.percent("bulwark.monitor.health.dead-datanodes.critical-percent", "10",
      "Dead DataNodes above this share of all registered DataNodes (percent) make the check CRITICAL.");
  public static final ConfigKey<Double> STALE_WARNING = ConfigKey.percent("bulwark.monitor.health.stale-datanodes.warning-percent", "0",
      "Live DataNodes without a heartbeat for dfs.namenode.stale.datanode.interval, above this share (percent): WARNING.");
  public static final ConfigKey<Double> STALE_CRITICAL = ConfigKey.percent("bulwark.monitor.health.stale-datanodes.critical-percent", "25",
      "Stale live DataNodes above this share of the live ones (percent): CRITICAL.");
  public static final ConfigKey<Long> ACTIVE_WINDOW = ConfigKey.durationMillis("bulwark.monitor.health.active-namenode.window", "90s", 0,
      "How long a namespace may be without an active NameNode (a failover under way) before WARNING turns CRITICAL.");
  public static final ConfigKey<Long> POLL_AGE_WARNING = ConfigKey.durationMillis("bulwark.monitor.health.last-poll.warning", "10m", 1,
      "How late the monitor's next complete poll may be before the last-poll check is WARNING: past the poll interval plus the longest of the last three polls (since the start, before the first).");
  public static final ConfigKey<Long> POLL_AGE_CRITICAL = ConfigKey.durationMillis("bulwark.monitor.health.last-poll.critical", "30m", 1,
      "How late the next complete poll may be before the last-poll check is CRITICAL, counted as for last-poll.warning.");

  public static final ConfigKey<String> KERBEROS_PRINCIPAL = ConfigKey.text("bulwark.monitor.kerberos.principal", "",
      "Principal the monitor logs in as to read the NameNodes when hadoop.security.authentication is kerberos "
      + "(_HOST is this host), such as hdfs/_HOST@EXAMPLE.COM.");
  public static final ConfigKey<String> KEYTAB = ConfigKey.text("bulwark.monitor.keytab.file", "",
      "Keytab holding bulwark.monitor.kerberos.principal.");
  public static final ConfigKey<String> HTTP_ADMINS = ConfigKey.text("bulwark.monitor.http.administrators", "",
      "Who may use the web UI and JSON API: an ACL of users and groups (\"alice,bob ops\"), \"*\" for every "
      + "authenticated user; empty means dfs.cluster.administrators, and that unset means \"*\".");

  /** Not a ConfigKey: read with Configuration.getPassword so it can live in a credential store. */
  public static final String JDBC_PASSWORD = "bulwark.monitor.jdbc.password";

  private MonitorKeys() {
  }
}
