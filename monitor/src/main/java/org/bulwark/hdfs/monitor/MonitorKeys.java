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
  public static final ConfigKey<Long> POLL_INTERVAL = ConfigKey.durationMillis("bulwark.monitor.poll.interval", "60s", 100,
      "Pause between the end of one poll of every namespace and the start of the next.");
  public static final ConfigKey<Long> MAX_RPC_PER_SEC = ConfigKey.number("bulwark.monitor.max-rpc-per-sec", 20, 1, 100_000,
      "Most NameNode RPCs per second a poll makes (listings with locations, DataNode reports).");
  public static final ConfigKey<Long> RETENTION_DAYS = ConfigKey.number("bulwark.monitor.retention.days", 90, 1, 36_500,
      "History that ended longer ago than this is deleted (open intervals are always kept).");
  public static final ConfigKey<String> HTTP_ADDRESS = ConfigKey.text("bulwark.monitor.http-address", "0.0.0.0:9880",
      "Address of the monitor's web UI and REST API (host:port; port 0 picks a free one).");
  public static final ConfigKey<Long> ADVISOR_DEPTH = ConfigKey.number("bulwark.monitor.advisor.depth", 3, 0, 64,
      "How many directory levels below / the storage-cost advisor reports.");

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
