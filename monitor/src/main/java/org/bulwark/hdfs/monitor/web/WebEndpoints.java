package org.bulwark.hdfs.monitor.web;

import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.http.HttpConfig;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.bulwark.hdfs.monitor.MonitorKeys;

/**
 * Where the monitor's web server listens, by the rule Hadoop applies to its own daemons' web servers:
 * {@code dfs.http.policy} (HTTP_ONLY by default, HTTPS_ONLY, HTTP_AND_HTTPS) picks the HTTP address, the HTTPS
 * one or both, so a cluster that serves its NameNode UIs over TLS only gets a monitor that does too.
 */
public final class WebEndpoints {
  private final String httpAddress;
  private final String httpsAddress;
  private final Configuration ssl;

  private WebEndpoints(String httpAddress, String httpsAddress, Configuration ssl) {
    this.httpAddress = httpAddress;
    this.httpsAddress = httpsAddress;
    this.ssl = ssl;
  }

  /**
   * Reads the policy, the addresses it serves and, for HTTPS, the keystore settings; a bad value (or HTTPS without
   * a keystore): {@link InvalidConfigException}, before the monitor opens anything.
   */
  public static WebEndpoints of(Configuration conf) {
    HttpConfig.Policy policy = policy(conf);
    return new WebEndpoints(policy.isHttpEnabled() ? MonitorKeys.HTTP_ADDRESS.get(conf) : null,
        policy.isHttpsEnabled() ? MonitorKeys.HTTPS_ADDRESS.get(conf) : null,
        policy.isHttpsEnabled() ? sslConfiguration(conf, policy) : null);
  }

  /**
   * The keystore and truststore settings, from the resource {@code dfs.https.server.keystore.resource} names
   * ({@code ssl-server.xml} on the classpath) as the NameNode reads them; without a keystore the server could not
   * start, so that is said up front, naming the key and the file.
   */
  private static Configuration sslConfiguration(Configuration conf, HttpConfig.Policy policy) {
    Configuration ssl = DFSUtil.loadSslConfiguration(conf);
    String location = ssl.getTrimmed(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_LOCATION_KEY, "");
    if (location.isEmpty()) {
      String resource = conf.get(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY,
          DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_DEFAULT);
      throw new InvalidConfigException(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_LOCATION_KEY, location,
          "the web server's keystore, set in " + resource + " on the classpath, as " + DFSConfigKeys.DFS_HTTP_POLICY_KEY
          + " = " + policy + " serves HTTPS");
    }
    return ssl;
  }

  /** {@code dfs.http.policy}, matched as Hadoop matches it (any case). */
  static HttpConfig.Policy policy(Configuration conf) {
    String text = conf.getTrimmed(DFSConfigKeys.DFS_HTTP_POLICY_KEY, DFSConfigKeys.DFS_HTTP_POLICY_DEFAULT);
    HttpConfig.Policy policy = HttpConfig.Policy.fromString(text);
    if (policy == null) {
      throw new InvalidConfigException(DFSConfigKeys.DFS_HTTP_POLICY_KEY, text, "HTTP_ONLY, HTTPS_ONLY or HTTP_AND_HTTPS");
    }
    return policy;
  }

  /** The HTTP endpoint, or null when the policy serves HTTPS only. */
  URI http() {
    return httpAddress == null ? null : URI.create("http://" + httpAddress);
  }

  /** The HTTPS endpoint, or null when the policy serves HTTP only. */
  URI https() {
    return httpsAddress == null ? null : URI.create("https://" + httpsAddress);
  }

  /** The keystore and truststore settings HTTPS is served with; null when it is not. */
  Configuration ssl() {
    return ssl;
  }

  /** The host the server binds first (the one {@code _HOST} in a Kerberos principal stands for). */
  public String host() {
    String address = httpAddress != null ? httpAddress : httpsAddress;
    return address.substring(0, address.lastIndexOf(':'));
  }
}
