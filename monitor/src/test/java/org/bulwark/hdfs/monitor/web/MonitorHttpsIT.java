package org.bulwark.hdfs.monitor.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.FreePorts;
import org.bulwark.hdfs.testkit.TestTls;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitor's UI follows {@code dfs.http.policy} as the NameNode's does: HTTPS only (nothing listens on the HTTP
 * address), or both, with the keystore of the cluster's ssl-server.xml, a certificate the client trusts and no other.
 */
class MonitorHttpsIT {
  @TempDir
  static File dir;
  private static BulwarkMiniCluster cluster;
  private static TestTls tls;

  @BeforeAll
  static void start() throws Exception {
    cluster = BulwarkMiniCluster.builder().topology("/r1:1").replication(1).build();
    cluster.writeFile(new Path("/d/f"), 1024, WriteOrigin.offCluster());
    tls = TestTls.create(dir, "ssl-server-monitor-it.xml");
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static Configuration monitorConf(String policy, int httpPort) {
    Configuration conf = tls.configure(cluster.conf());
    conf.set("dfs.http.policy", policy);
    conf.set("bulwark.monitor.http-address", "127.0.0.1:" + httpPort);
    conf.set("bulwark.monitor.https-address", "127.0.0.1:0");
    conf.set("bulwark.monitor.poll.interval", "1h");
    conf.set("bulwark.monitor.data.dir", new File(dir, policy).getPath());
    return conf;
  }

  private static BlockMonitor started(Configuration conf) throws Exception {
    BlockMonitor monitor = new BlockMonitor(conf);
    tls.withResource(() -> {
      monitor.start();
      return null;
    });
    return monitor;
  }

  private static String httpsGet(InetSocketAddress at, String path) throws Exception {
    HttpsURLConnection c = (HttpsURLConnection) new URL("https://localhost:" + at.getPort() + path).openConnection();
    c.setSSLSocketFactory(tls.clientContext().getSocketFactory());
    return body(c);
  }

  private static String body(HttpURLConnection c) throws IOException {
    int code = c.getResponseCode();
    try (InputStream in = code >= 400 ? c.getErrorStream() : c.getInputStream()) {
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(200, code, c.getURL() + ": " + body);
      return body;
    }
  }

  @Test
  void httpsOnlyServesTlsAndNothingOnTheHttpAddress() throws Exception {
    int httpPort = FreePorts.pick();
    try (BlockMonitor monitor = started(monitorConf("HTTPS_ONLY", httpPort))) {
      monitor.pollNow();
      assertNull(monitor.httpAddress(), "no HTTP endpoint");
      InetSocketAddress https = monitor.httpsAddress();
      assertTrue(httpsGet(https, "/api/block?path=/d/f").contains("\"goneSince\" : 0"), "the API over TLS");
      assertTrue(httpsGet(https, "/").contains("<html"), "the pages over TLS");
      assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", httpPort).close(), "nothing on the HTTP port");
      HttpsURLConnection untrusting = (HttpsURLConnection) new URL("https://localhost:" + https.getPort() + "/")
          .openConnection();
      assertThrows(SSLException.class, untrusting::getResponseCode, "a client that trusts only the JDK's CAs refuses it");
    }
  }

  @Test
  void httpAndHttpsServesBoth() throws Exception {
    try (BlockMonitor monitor = started(monitorConf("HTTP_AND_HTTPS", 0))) {
      monitor.pollNow();
      String overHttp = body((HttpURLConnection) new URL("http://127.0.0.1:" + monitor.httpAddress().getPort()
          + "/api/block?path=/d/f").openConnection());
      assertEquals(overHttp, httpsGet(monitor.httpsAddress(), "/api/block?path=/d/f"), "one API on both");
    }
  }
}
