package org.bulwark.hdfs.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.SharedStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration the monitor cannot start with, and a store another monitor writes: one line naming the key (or
 * the other monitor), exit code 1, nothing left running.
 */
@Tag("compat")
class BlockMonitorCliIT {
  @TempDir
  File dir;

  private static String run(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream saved = System.err;
    int rc;
    try {
      // The tool's own usage line goes to System.err; runMain's one line to the stream it is given.
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      rc = BlockMonitor.runMain(args, System.err);
    } finally {
      System.setErr(saved);
    }
    String out = err.toString(StandardCharsets.UTF_8).trim();
    assertEquals(1, rc, out);
    assertTrue(!out.contains("\n"), "one line: " + out);
    return out;
  }

  @Test
  void badJdbcUrl() {
    assertEquals("blockmonitor: bulwark.monitor.jdbc.url = 'jdbc:mysql://db/x' is not valid: expected a PostgreSQL JDBC "
        + "URL such as jdbc:postgresql://db.example.com:5432/bulwark (or empty for the embedded store)",
        run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Dbulwark.monitor.jdbc.url=jdbc:mysql://db/x",
            "-Dbulwark.monitor.http-address=127.0.0.1:0"));
  }

  @Test
  void unreachablePostgres() {
    String out = run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Dbulwark.monitor.jdbc.url=jdbc:postgresql://127.0.0.1:1/x",
        "-Dbulwark.monitor.http-address=127.0.0.1:0");
    assertTrue(out.startsWith("blockmonitor: cannot open the history store (PostgreSQL jdbc:postgresql://127.0.0.1:1/x): "), out);
  }

  @Test
  void aStoreAnotherMonitorWritesIsRefusedWithNothingWritten() throws Exception {
    SharedStore place = new SharedStore("postgresql", dir, "cli_held");
    try (HistoryStore other = place.open()) {
      other.namespaceId("hdfs://ns1");
      String before = place.visible();
      String out = run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Dbulwark.monitor.jdbc.url=" + place.url(),
          "-Dbulwark.monitor.jdbc.user=postgres", "-Dbulwark.monitor.http-address=127.0.0.1:0");
      assertTrue(out.startsWith("blockmonitor: the history store (PostgreSQL " + place.url() + ") is written by another "
          + "block monitor (host "), out);
      assertTrue(out.endsWith(" s (bulwark.monitor.store.lease-timeout = 300 s)"), out);
      assertEquals(before, place.visible(), "nothing written, the lease untouched");
    }
  }

  @Test
  void unwritableDataDir() throws Exception {
    File file = new File(dir, "a-file");
    assertTrue(file.createNewFile());
    assertEquals("blockmonitor: bulwark.monitor.data.dir = '" + file.getPath() + "/store' is not valid: expected a "
        + "directory the monitor can create and write",
        run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Dbulwark.monitor.data.dir=" + file.getPath() + "/store",
            "-Dbulwark.monitor.http-address=127.0.0.1:0"));
  }

  @Test
  void badValues() {
    assertEquals("blockmonitor: bulwark.monitor.max-rpc-per-sec = '0' is not valid: expected a whole number from 1 to 100000",
        run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Dbulwark.monitor.max-rpc-per-sec=0"));
    assertEquals("blockmonitor: bulwark.monitor.http-address = 'nine' is not valid: expected host:port, such as 0.0.0.0:9880 (port 0 to 65535)",
        run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Dbulwark.monitor.http-address=nine"));
    assertEquals("blockmonitor: dfs.http.policy = 'HTTPS' is not valid: expected HTTP_ONLY, HTTPS_ONLY or HTTP_AND_HTTPS",
        run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Ddfs.http.policy=HTTPS"));
    assertEquals("blockmonitor: ssl.server.keystore.location = '' is not valid: expected the web server's keystore, set in "
        + "no-such-ssl-server.xml on the classpath, as dfs.http.policy = HTTPS_ONLY serves HTTPS",
        run("-Dfs.defaultFS=hdfs://127.0.0.1:1", "-Ddfs.http.policy=https_only",
            "-Ddfs.https.server.keystore.resource=no-such-ssl-server.xml"));
    assertEquals("blockmonitor: fs.defaultFS = 'file:///' is not an HDFS URI and dfs.nameservices is empty: nothing to monitor",
        run("-Dfs.defaultFS=file:///"));
    assertEquals("blockmonitor: unknown argument '-x'. Usage: hdfs blockmonitor [generic options]", run("-x"));
  }
}
