package org.bulwark.hdfs.it.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.ha.protocolPB.ZKFCProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.tools.NNHAServiceTarget;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticatedURL;
import org.apache.hadoop.security.authentication.client.KerberosAuthenticator;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.hotstandby.HotStandbyController;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.it.cluster.HotStandbyNameservices;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every plugin on a Kerberized cluster (MiniKdc): Kerberos RPC with service authorization, block access
 * tokens and SASL data-transfer protection; ZooKeeper with SASL/Kerberos; an HA nameservice under
 * {@code hdfs hotstandby} controllers that log in from their NameNode's keytab and write their znodes
 * with {@code ha.zookeeper.acl=sasl:hdfs:rwcda}. Intruders (no credentials, or the {@code mallory}
 * principal) can neither redirect clients nor change HA state; the availability balancer logs in from
 * its keytab and moves blocks; the monitor answers only SPNEGO-authenticated administrators.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecureClusterIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final long MB = 1 << 20;

  @TempDir
  static File dir;
  private static KerberosRealm realm;
  private static BulwarkMiniCluster cluster;
  private static HotStandbyNameservices ha;

  @BeforeAll
  static void startSecureCluster() throws Exception {
    realm = KerberosRealm.start(dir);
    realm.saslZooKeeper();
    Configuration login = new Configuration();
    realm.secureHdfs(login);
    realm.loginAsServices(login);
    BulwarkMiniCluster.Builder b = BulwarkMiniCluster.builder().topology("/dc1/r1:2,/dc1/r2:2,/dc2/r3:2")
        .capacity(64 * MB).baseDir(new File(dir, "cluster"));
    HotStandbyNameservices.configure(b, 1, 2);
    b.configure(conf -> {
      realm.secureHdfs(conf);
      conf.set("ha.zookeeper.acl", "sasl:hdfs:rwcda");
      // Only the controllers' identity may call the NameNodes' HAServiceProtocol and the controllers' ZKFCProtocol.
      conf.set("security.ha.service.protocol.acl", "hdfs");
      conf.set("security.zkfc.protocol.acl", "hdfs");
    });
    cluster = b.build();
    ha = HotStandbyNameservices.start(cluster);
  }

  @AfterAll
  static void stop() {
    if (ha != null) {
      ha.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (realm != null) {
      realm.close();
    }
  }

  private static CuratorFramework zooKeeperAsControllers() throws InterruptedException {
    CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(cluster.zooKeeperConnectString())
        .retryPolicy(new RetryOneTime(100)).build();
    zk.start();
    zk.blockUntilConnected();
    return zk;
  }

  /** A ZooKeeper client without SASL ({@code jaasSection} null) or authenticating with another JAAS section. */
  private static ZooKeeper zooKeeperAs(String jaasSection) throws Exception {
    ZKClientConfig config = new ZKClientConfig();
    if (jaasSection == null) {
      config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
    } else {
      config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, jaasSection);
    }
    return new ZooKeeper(cluster.zooKeeperConnectString(), 10_000, e -> { }, config);
  }

  @Test
  @Order(1)
  void failoverUnderKerberosWithSaslZooKeeper() throws Exception {
    cluster.writeFile(new Path("/secure/before"), 3 * MB, WriteOrigin.offCluster());
    ZNodes paths = new ZNodes("/bulwark-ha", "ns1");
    try (CuratorFramework zk = zooKeeperAsControllers()) {
      Set<ACL> expected = Set.of(new ACL(ZooDefs.Perms.ALL, new Id("sasl", "hdfs")),
          new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
      for (String p : List.of(paths.base(), paths.epoch(), paths.active(), paths.lock())) {
        assertEquals(expected, new HashSet<>(zk.getACL().forPath(p)), p);
      }
    }
    int active = ha.awaitActive(0, -1);
    cluster.mini().shutdownNameNode(cluster.nameNodeIndex(0, active));
    int next = ha.awaitActive(0, active);
    assertTrue(next != active);
    // The same Kerberos client, through the ZooKeeper provider, reads the old file and writes a new one.
    assertEquals(3 * MB, cluster.verifyFile(new Path("/secure/before"), 3 * MB));
    cluster.writeFile(new Path("/secure/after"), 2 * MB, WriteOrigin.offCluster());
    assertEquals(2 * MB, cluster.verifyFile(new Path("/secure/after"), 2 * MB));
    cluster.mini().restartNameNode(cluster.nameNodeIndex(0, active), false);
    // The new active NameNode trusts its replica map (and serves getBlocks) after full block reports.
    cluster.mini().triggerBlockReports();
  }

  @Test
  @Order(2)
  void intrudersCannotRedirectClientsNorChangeHaState() throws Exception {
    int active = ha.awaitActive(0, -1);
    ZNodes paths = new ZNodes("/bulwark-ha", "ns1");
    for (String section : new String[] {null, KerberosRealm.MALLORY_SECTION}) {
      ZooKeeper zk = zooKeeperAs(section);
      try {
        byte[] record = zk.getData(paths.active(), false, null);
        assertTrue(ActiveRecord.decode(record).isActive(), "clients may read the record");
        assertThrows(KeeperException.NoAuthException.class, () -> zk.setData(paths.active(), record, -1),
            "as " + (section == null ? "anonymous" : "mallory"));
        assertThrows(KeeperException.NoAuthException.class, () -> zk.delete(paths.lock(), -1));
      } finally {
        zk.close();
      }
    }

    Configuration conf = new Configuration(cluster.conf());
    conf.set(CommonConfigurationKeys.HADOOP_SECURITY_SERVICE_USER_NAME_KEY, realm.principal("hdfs"));
    NNHAServiceTarget target = new NNHAServiceTarget(conf, "ns1", "nn" + (active + 1));
    StateChangeRequestInfo asController = new StateChangeRequestInfo(RequestSource.REQUEST_BY_ZKFC);
    // A Kerberos principal that is not the controllers' is refused by service authorization.
    IOException byMallory = assertThrows(IOException.class, () -> realm.mallory().doAs((PrivilegedExceptionAction<Void>) () -> {
      HAServiceProtocol proxy = target.getProxy(conf, 5000);
      proxy.transitionToStandby(asController);
      return null;
    }));
    assertTrue(String.valueOf(byMallory.getMessage()).contains("not authorized"), byMallory.toString());
    // A caller without Kerberos credentials cannot even connect.
    IOException byNobody = assertThrows(IOException.class, () -> UserGroupInformation.createRemoteUser("hdfs")
        .doAs((PrivilegedExceptionAction<Void>) () -> {
          target.getProxy(conf, 5000).transitionToStandby(asController);
          return null;
        }));
    assertTrue(String.valueOf(byNobody.getMessage()).contains("authenticate"), byNobody.toString());
    // Nor may mallory ask a controller for a failover (hdfs haadmin -failover).
    InetSocketAddress controller = ha.controller(0, 1 - active).rpcAddress();
    assertThrows(IOException.class, () -> realm.mallory().doAs((PrivilegedExceptionAction<Void>) () -> {
      new ZKFCProtocolClientSideTranslatorPB(controller, conf, NetUtils.getDefaultSocketFactory(conf), 5000)
          .gracefulFailover();
      return null;
    }));
    assertEquals(active, ha.active(0), "the active NameNode stayed active");
    assertTrue(cluster.nameNode(0, active).isActiveState());
  }

  @Test
  @Order(3)
  void availabilityBalancerLogsInFromItsKeytabAndMovesBlocks() throws Exception {
    for (int i = 0; i < 10; i++) {
      cluster.writeFile(0, new Path("/skew/" + i), 2 * MB, WriteOrigin.fromDataNode(cluster.dataNodes().get(0)), 3);
    }
    cluster.awaitReplication(0, new Path("/skew"), WAIT);
    cluster.mini().triggerBlockReports();
    Configuration conf = new Configuration(cluster.conf());
    conf.setBoolean("dfs.balancer.keytab.enabled", true);
    conf.set("dfs.balancer.kerberos.principal", realm.principal("hdfs"));
    conf.set("dfs.balancer.address", "localhost:0");
    conf.set("dfs.balancer.keytab.file", new File(dir, "no-such.keytab").getPath());
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errs = new PrintStream(err, true, StandardCharsets.UTF_8);
    String[] args = {"-policy", "availability", "-threshold", "5"};
    BalancerLauncher refused = new BalancerLauncher(System.out, errs);
    refused.setConf(conf);
    assertEquals(-5, refused.run(args));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("cannot log in as " + realm.principal("hdfs")
        + " from keytab " + new File(dir, "no-such.keytab").getPath()), err.toString(StandardCharsets.UTF_8));

    conf.set("dfs.balancer.keytab.file", realm.keytab.getAbsolutePath());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BalancerLauncher balancer = new BalancerLauncher(new PrintStream(out, true, StandardCharsets.UTF_8), errs);
    balancer.setConf(conf);
    int exit = balancer.run(args);
    String printed = out.toString(StandardCharsets.UTF_8);
    System.out.println(printed);
    assertEquals(0, exit, printed);
    assertTrue(printed.matches("(?s).*bytes moved\\s+[1-9].*"), printed);
    for (int i = 0; i < 10; i++) {
      cluster.verifyFile(new Path("/skew/" + i), 2 * MB);
    }
  }

  @Test
  @Order(4)
  void monitorAnswersOnlySpnegoAuthenticatedAdministrators() throws Exception {
    Configuration conf = new Configuration(cluster.conf());
    conf.set("bulwark.monitor.data.dir", new File(dir, "monitor").getPath());
    conf.set("bulwark.monitor.http-address", "localhost:0");
    conf.set("bulwark.monitor.poll.interval", "1h");
    conf.set("bulwark.monitor.kerberos.principal", realm.principal("hdfs"));
    conf.set("bulwark.monitor.keytab.file", realm.keytab.getAbsolutePath());
    conf.set("hadoop.http.authentication.type", "kerberos");
    conf.set("hadoop.http.authentication.kerberos.principal", realm.principal("HTTP"));
    conf.set("hadoop.http.authentication.kerberos.keytab", realm.keytab.getAbsolutePath());
    conf.set("bulwark.monitor.http.administrators", "hdfs");
    try (BlockMonitor monitor = new BlockMonitor(conf)) {
      monitor.start();
      monitor.pollNow();
      String base = "http://localhost:" + monitor.httpAddress().getPort();
      for (String page : List.of("/api/overview", "/api/block?path=/secure/after", "/index.html")) {
        HttpURLConnection plain = (HttpURLConnection) new URL(base + page).openConnection();
        assertEquals(401, plain.getResponseCode(), page + " without credentials");
      }
      String overview = realm.hdfs().doAs((PrivilegedExceptionAction<String>) () -> {
        HttpURLConnection c = new AuthenticatedURL(new KerberosAuthenticator())
            .openConnection(new URL(base + "/api/overview"), new AuthenticatedURL.Token());
        assertEquals(200, c.getResponseCode());
        return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      });
      assertTrue(overview.contains("hdfs://ns1"), "the monitor read the NameNode under Kerberos: " + overview);
      // Authenticated, but not an administrator: the SPNEGO exchange itself ends in 403.
      Exception refused = assertThrows(Exception.class, () -> realm.mallory().doAs((PrivilegedExceptionAction<Integer>) () -> {
        HttpURLConnection c = new AuthenticatedURL(new KerberosAuthenticator())
            .openConnection(new URL(base + "/api/overview"), new AuthenticatedURL.Token());
        return c.getResponseCode();
      }));
      Throwable cause = refused;
      while (cause.getCause() != null && !String.valueOf(cause.getMessage()).contains("status code")) {
        cause = cause.getCause();
      }
      assertTrue(String.valueOf(cause.getMessage()).contains("status code: 403"), refused.toString());
    }
  }

  @Test
  @Order(5)
  void aControllerThatCannotLogInRefusesToStart() {
    Configuration conf = new Configuration(cluster.conf());
    conf.set("dfs.nameservice.id", "ns1");
    conf.set("dfs.ha.namenode.id", "nn1");
    conf.set("dfs.namenode.keytab.file", new File(dir, "missing.keytab").getPath());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new HotStandbyController(conf).start());
    assertTrue(e.getMessage().startsWith("cannot log in as " + realm.principal("hdfs") + " from keytab "
        + new File(dir, "missing.keytab").getPath()), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"));
    assertNotNull(ha.controller(0, 0));
  }
}
