package org.bulwark.hdfs.monitor.store;

import java.io.File;
import java.io.IOException;
import java.util.Properties;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.bulwark.hdfs.monitor.MonitorKeys;

/**
 * Opens the store the configuration names. Embedded by default: H2 in one file under
 * {@code bulwark.monitor.data.dir} (pure Java, nothing to install; every commit is on disk before the
 * poll goes on, so kill -9 loses at most the poll under way). PostgreSQL when
 * {@code bulwark.monitor.jdbc.url} is set, with its password from Hadoop's credential providers only.
 * Either is opened for writing, under the store's writer lease ({@code bulwark.monitor.store.lease-timeout}):
 * a second monitor pointed at the same store is refused.
 */
public final class StoreFactory {
  private StoreFactory() {
  }

  public static HistoryStore open(Configuration conf) throws IOException {
    String url = MonitorKeys.JDBC_URL.get(conf);
    if (url != null) {
      if (!url.startsWith("jdbc:postgresql:") && !url.startsWith("jdbc:h2:")) {
        throw new InvalidConfigException(MonitorKeys.JDBC_URL.getName(), url,
            "a PostgreSQL JDBC URL such as jdbc:postgresql://db.example.com:5432/bulwark (or empty for the embedded store)");
      }
      Properties props = new Properties();
      // A poll's rows go in batches; let the driver send them as multi-row inserts (several times faster).
      props.setProperty("reWriteBatchedInserts", "true");
      // Without a socket timeout, a statement waits forever on a database host that froze or whose packets
      // are dropped, and holds the store's lock meanwhile: every page would wait too. Keep-alive lets the
      // kernel find a dead peer of an idle connection. Parameters in the URL override both.
      if (url.startsWith("jdbc:postgresql:")) {
        props.setProperty("socketTimeout", Long.toString(MonitorKeys.JDBC_SOCKET_TIMEOUT.get(conf) / 1000));
        props.setProperty("tcpKeepAlive", "true");
      }
      String user = MonitorKeys.JDBC_USER.get(conf);
      if (user != null) {
        props.setProperty("user", user);
      }
      char[] password = password(conf);
      if (password != null) {
        props.setProperty("password", new String(password));
      }
      return JdbcHistoryStore.open(url, props, url.startsWith("jdbc:h2:") ? "H2 " + url : "PostgreSQL " + url,
          MonitorKeys.LEASE_TIMEOUT.get(conf));
    }
    File dir = dataDir(conf);
    return embedded(dir, MonitorKeys.LEASE_TIMEOUT.get(conf));
  }

  /**
   * The store's password from Hadoop's credential providers ({@code hadoop.security.credential.provider.path}),
   * never from plain configuration, where {@code /conf} and every copy of the file would show it.
   */
  private static char[] password(Configuration conf) throws IOException {
    char[] password = conf.getPasswordFromCredentialProviders(MonitorKeys.JDBC_PASSWORD);
    if (password == null && conf.get(MonitorKeys.JDBC_PASSWORD) != null) {
      throw new InvalidConfigException(MonitorKeys.JDBC_PASSWORD, "(hidden)", "no password in plain configuration: store it "
          + "with 'hadoop credential create " + MonitorKeys.JDBC_PASSWORD + " -provider jceks://file/etc/hadoop/bulwark.jceks' "
          + "and set hadoop.security.credential.provider.path");
    }
    return password;
  }

  /** The embedded store in {@code dir}, opened for writing. */
  public static HistoryStore embedded(File dir, long leaseTimeoutMillis) throws IOException {
    if (!dir.isDirectory() && !dir.mkdirs() || !dir.canWrite()) {
      throw new InvalidConfigException(MonitorKeys.DATA_DIR.getName(), dir.getPath(), "a directory the monitor can create and write");
    }
    String url = "jdbc:h2:file:" + new File(dir, "history").getAbsolutePath() + ";WRITE_DELAY=0";
    JdbcHistoryStore store = JdbcHistoryStore.openLockedFile(url, "embedded H2 in " + dir.getAbsolutePath(), leaseTimeoutMillis);
    store.compactWhenGrown(new File(dir, "history.mv.db"));
    return store;
  }

  private static File dataDir(Configuration conf) {
    String dir = MonitorKeys.DATA_DIR.get(conf);
    if (dir == null) {
      return new File(conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")), "bulwark-monitor");
    }
    return new File(dir);
  }
}
