package org.bulwark.hdfs.it.security;

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import javax.security.auth.login.AppConfigurationEntry;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.KerberosName;

/**
 * A Kerberos realm for one test JVM (MiniKdc, Apache Kerby in-process) and what a secured cluster
 * needs from it: one keytab for the services ({@code hdfs}, {@code HTTP}, {@code zookeeper}), one for
 * an intruder ({@code mallory}), the HDFS
 * settings of a Kerberized cluster with block access tokens and data-transfer protection, and
 * ZooKeeper SASL through JAAS sections ({@code Server}, {@code Client}, {@code MalloryClient}).
 */
final class KerberosRealm implements AutoCloseable {
  static final String MALLORY_SECTION = "MalloryClient";
  /**
   * The host part of the RPC principals. In one JVM every daemon shares the login user, so all log in
   * as {@code hdfs/SERVICE_HOST}; a literal host needs no reverse DNS for the kit's 127.1.0.x DataNodes.
   * It must not be a local address: Hadoop's IPC client binds a Kerberos connection to the principal's
   * host when that host is local, which would undo the kit's per-DataNode source addresses.
   */
  static final String SERVICE_HOST = "cluster.bulwark.test";

  private final MiniKdc kdc;
  final File keytab;
  final File malloryKeytab;

  private KerberosRealm(MiniKdc kdc, File keytab, File malloryKeytab) {
    this.kdc = kdc;
    this.keytab = keytab;
    this.malloryKeytab = malloryKeytab;
  }

  static KerberosRealm start(File dir) throws Exception {
    Properties conf = MiniKdc.createConf();
    MiniKdc kdc = new MiniKdc(conf, new File(dir, "kdc"));
    kdc.start();
    // Hadoop caches the default realm when KerberosName is first used: read it from this KDC's krb5.conf.
    KerberosName.resetDefaultRealm();
    File keytab = new File(dir, "services.keytab");
    kdc.createPrincipal(keytab, "hdfs/" + SERVICE_HOST, "HTTP/localhost", "zookeeper/localhost");
    File mallory = new File(dir, "mallory.keytab");
    kdc.createPrincipal(mallory, "mallory/" + SERVICE_HOST);
    return new KerberosRealm(kdc, keytab, mallory);
  }

  /** {@code hdfs} and {@code mallory} at {@link #SERVICE_HOST}; {@code HTTP} and {@code zookeeper} at localhost, the name clients dial. */
  String principal(String service) {
    boolean rpc = "hdfs".equals(service) || "mallory".equals(service);
    return service + "/" + (rpc ? SERVICE_HOST : "localhost") + "@" + kdc.getRealm();
  }

  /** Kerberized HDFS: Kerberos RPC, service authorization, block access tokens, SASL data-transfer protection. */
  void secureHdfs(Configuration conf) {
    conf.set("hadoop.security.authentication", "kerberos");
    conf.setBoolean("hadoop.security.authorization", true);
    for (String daemon : new String[] {"namenode", "datanode", "journalnode"}) {
      conf.set("dfs." + daemon + ".kerberos.principal", principal("hdfs"));
      conf.set("dfs." + daemon + ".keytab.file", keytab.getAbsolutePath());
    }
    conf.set("dfs.web.authentication.kerberos.principal", principal("HTTP"));
    conf.set("dfs.web.authentication.kerberos.keytab", keytab.getAbsolutePath());
    conf.set("dfs.namenode.kerberos.internal.spnego.principal", principal("HTTP"));
    conf.setBoolean("dfs.block.access.token.enable", true);
    conf.set("dfs.data.transfer.protection", "authentication");
    // DataNodes on unprivileged ports without HTTPS: what a real secure DataNode needs (root-bound ports or
    // HTTPS_ONLY) is beside the point of these tests; the SASL handshake on every transfer is not.
    conf.setBoolean("ignore.secure.ports.for.testing", true);
    conf.set("dfs.http.policy", "HTTP_ONLY");
    conf.set("dfs.cluster.administrators", "hdfs");
    conf.setInt("ipc.client.connect.max.retries.on.sasl", 10);
  }

  /** Logs this JVM in as the services' principal (the daemons started in it log in as the same). */
  void loginAsServices(Configuration conf) throws Exception {
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(principal("hdfs"), keytab.getAbsolutePath());
  }

  UserGroupInformation mallory() throws Exception {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal("mallory"), malloryKeytab.getAbsolutePath());
  }

  UserGroupInformation hdfs() throws Exception {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal("hdfs"), keytab.getAbsolutePath());
  }

  /**
   * ZooKeeper with SASL/Kerberos for every server and client started afterwards in this JVM: the server
   * authenticates as {@code zookeeper/localhost}, clients as {@code hdfs/localhost} ({@code Client}) or, when
   * they choose the {@code MalloryClient} section, as {@code mallory/localhost}; SASL identities are short
   * names ({@code sasl:hdfs}).
   */
  void saslZooKeeper() {
    System.setProperty("zookeeper.authProvider.1", "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
    System.setProperty("zookeeper.kerberos.removeHostFromPrincipal", "true");
    System.setProperty("zookeeper.kerberos.removeRealmFromPrincipal", "true");
    System.setProperty("zookeeper.server.principal", principal("zookeeper"));
    Map<String, AppConfigurationEntry> sections = new HashMap<>();
    sections.put("Server", keytabEntry(principal("zookeeper"), keytab));
    sections.put("Client", keytabEntry(principal("hdfs"), keytab));
    sections.put(MALLORY_SECTION, keytabEntry(principal("mallory"), malloryKeytab));
    javax.security.auth.login.Configuration.setConfiguration(new javax.security.auth.login.Configuration() {
      @Override
      public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        AppConfigurationEntry e = sections.get(name);
        return e == null ? null : new AppConfigurationEntry[] {e};
      }
    });
  }

  private static AppConfigurationEntry keytabEntry(String principal, File keytab) {
    Map<String, String> options = new HashMap<>();
    options.put("useKeyTab", "true");
    options.put("keyTab", keytab.getAbsolutePath());
    options.put("principal", principal);
    options.put("storeKey", "true");
    options.put("useTicketCache", "false");
    options.put("doNotPrompt", "true");
    options.put("refreshKrb5Config", "true");
    return new AppConfigurationEntry("com.sun.security.auth.module.Krb5LoginModule",
        AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options);
  }

  @Override
  public void close() {
    UserGroupInformation.reset();
    kdc.stop();
  }
}
