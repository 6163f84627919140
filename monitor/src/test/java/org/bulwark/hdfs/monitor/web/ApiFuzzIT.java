package org.bulwark.hdfs.monitor.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.monitor.collect.MonitorStatus;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.ObservedBlock;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.JdbcHistoryStore;
import org.bulwark.hdfs.monitor.store.PollSummary;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.bulwark.hdfs.testkit.TestPostgres;

/**
 * Hostile requests against every endpoint of the monitor's web server, backed by the production store
 * (PostgreSQL on 127.0.0.1:5432, a schema of its own): 10,000 per endpoint of injection strings, huge
 * and out-of-range values, bad percent-encodings and raw bytes, path traversal, repeated and unknown
 * parameters. None may get a 5xx, none may show a stack trace or an exception's class, and the store
 * must hold exactly what it held before.
 *
 * <p>Slow because it sends 100,000 requests one after another, each answered from PostgreSQL.
 */
@Tag("compat")
class ApiFuzzIT {
  private static final int PER_ENDPOINT = 10_000;
  private static final List<String> ENDPOINTS = List.of("/api/overview", "/api/block", "/api/datanode", "/api/rack",
      "/api/forensics", "/api/advisor", "/api/trends", "/api/heatmap", "/block.html", "/index.html");
  private static final List<String> PARAMETERS = List.of("id", "path", "limit", "rack", "hours", "user.name", "doAs", "q",
      "id[]", "");
  /**
   * A stack frame, an exception's class or a cause. A class name is matched from where its run of word characters
   * starts, each run taken whole ({@code \w++}): the same matches as from anywhere inside it, without trying every
   * position of the 6,000-character values the 400s quote back (that search was most of the test's CPU).
   */
  private static final Pattern STACK_TRACE = Pattern.compile(
      "(\\bat [\\w$.]+\\([\\w$]+\\.java:\\d+\\))|((?<!\\w)\\w++\\.\\w++\\.[\\w.]*(Exception|Error)\\b)|(Caused by)",
      Pattern.CASE_INSENSITIVE);
  private static final String[] HOSTILE = {
      "' OR '1'='1", "1; DROP TABLE replica_interval; --", "'); DELETE FROM datanode; --", "1 UNION SELECT usename FROM pg_user",
      "/data/a'; UPDATE namespace SET uri='x'; --", "\\'; TRUNCATE poll; --", "1' AND pg_sleep(5)--", "%27%20OR%201%3D1--",
      "blk_1' OR 1=1--", "dn1.example.com' OR ''='", "/dc1/r1\" OR \"\"=\"", "$$; DROP SCHEMA public CASCADE; $$",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-1", "0", "1e308", "NaN", "0x10", "blk_",
      "blk_-1_-1", "blk_1073741825_1001", "1073741825", "2147483648", "99999999999999999999999999",
      "%", "%Z", "%ZZ", "%C0%AE%C0%AE", "%ff%fe%fd", "%u002e", "%00", "%0d%0aSet-Cookie:%20x=y", "%E2%80%AE", "%F0%9F%92%A9",
      "../../../../etc/passwd", "..%2f..%2f..%2fetc%2fpasswd", "%2e%2e%2f%2e%2e%2f", "/..;/conf", "....//....//etc",
      "/data/../../../etc/shadow", "file:///etc/passwd", "\\\\server\\share",
      "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "${jndi:ldap://127.0.0.1/x}", "{{7*7}}",
      "%25%32%65", "+", "&&&&", "====", ";", "*", "%2A", "/", "//", "/data/a", "dn1.example.com", "uuid-1", "/dc1/r1"};

  private static final String RAW_BYTES = "\u0080\u00ff\u00fe\u00c0\u00ae\u0001\u007f";

  @Test
  void tenThousandHostileRequestsPerEndpointNoServerErrorNoTraceNoChange() throws Exception {
    for (String leak : List.of("java.lang.IllegalStateException: x", "{\"e\":\"org.eclipse.jetty.io.EofError\"}",
        "\tat org.bulwark.A.b(A.java:12)", "Caused by: x", "9".repeat(6000) + " com.x.SQLException")) {
      assertTrue(STACK_TRACE.matcher(leak).find(), "the check sees " + leak.substring(Math.max(0, leak.length() - 40)));
    }
    assertTrue(!STACK_TRACE.matcher("limit: not a number: " + "9".repeat(6000) + ".5").find(), "a plain 400");
    String schema = TestPostgres.createSchema("bulwark_fuzz");
    Properties p = TestPostgres.credentials();
    // A lease far longer than the run: its timer renews every third of it, and a renewal would change the store
    // (the fuzz took 134 s on a slow 2-core VM, past a 300 s lease's first renewal).
    try (HistoryStore store = JdbcHistoryStore.open(TestPostgres.url(schema), p, "PostgreSQL " + schema, 86_400_000)) {
      fill(store);
      String before = fingerprint(schema, p);
      Configuration conf = new Configuration(false);
      conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
      MonitorHttpServer server = new MonitorHttpServer(conf, WebEndpoints.of(conf), store, new MonitorStatus(), null);
      server.start();
      Map<String, Integer> statuses = new TreeMap<>();
      try (RawHttpClient client = new RawHttpClient(server.httpAddress())) {
        Random random = new Random(20261123L);
        for (String endpoint : ENDPOINTS) {
          for (int i = 0; i < PER_ENDPOINT; i++) {
            byte[] target = target(random, endpoint);
            RawHttpClient.Response r = client.get(target);
            String shown = new String(target, StandardCharsets.ISO_8859_1);
            assertTrue(r.status < 500, "HTTP " + r.status + " for " + shown + ": " + r.body);
            assertTrue(!STACK_TRACE.matcher(r.body).find(), "a stack trace or exception class for " + shown + ": " + r.body);
            statuses.merge(endpoint + " " + r.status, 1, Integer::sum);
          }
        }
      } finally {
        server.close();
      }
      System.out.println("Fuzz responses by endpoint and status: " + statuses);
      assertEquals(before, fingerprint(schema, p), "the store changed");
      assertTrue(statuses.keySet().stream().anyMatch(k -> k.endsWith(" 200")), "some requests were answered: " + statuses);
      assertTrue(statuses.keySet().stream().anyMatch(k -> k.endsWith(" 400")), "some were refused: " + statuses);
    } finally {
      try (Connection c = TestPostgres.connect(); Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  /** A request target: the endpoint, sometimes mangled, with 0 to 4 parameters drawn from the hostile list. */
  private static byte[] target(Random random, String endpoint) {
    StringBuilder t = new StringBuilder();
    switch (random.nextInt(12)) {
      case 0 -> t.append(endpoint).append("/..%2f..%2fconf");
      case 1 -> t.append(endpoint.replace("/api/", "/api//"));
      case 2 -> t.append(endpoint).append("%00");
      case 3 -> t.append(endpoint.toUpperCase());
      case 4 -> t.append(endpoint).append(";jsessionid=").append(random.nextInt());
      default -> t.append(endpoint);
    }
    int params = random.nextInt(5);
    for (int i = 0; i < params; i++) {
      t.append(i == 0 ? '?' : '&');
      t.append(PARAMETERS.get(random.nextInt(PARAMETERS.size()))).append('=').append(value(random));
    }
    byte[] bytes = t.toString().getBytes(StandardCharsets.ISO_8859_1);
    if (random.nextInt(10) == 0) {
      // a raw byte that is not ASCII (nor a valid UTF-8 sequence) somewhere after the path
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      b.writeBytes(bytes);
      b.write(RAW_BYTES.charAt(random.nextInt(RAW_BYTES.length())));
      bytes = b.toByteArray();
    }
    return bytes;
  }

  private static String value(Random random) {
    switch (random.nextInt(4)) {
      case 0:
        // huge: up to 6,000 characters
        return "9".repeat(1 + random.nextInt(6000));
      case 1: {
        StringBuilder junk = new StringBuilder();
        for (int i = random.nextInt(40); i > 0; i--) {
          char c = (char) (33 + random.nextInt(94));
          junk.append(c == '#' || c == '&' || c == ' ' ? '_' : c);
        }
        return junk.toString();
      }
      default:
        return HOSTILE[random.nextInt(HOSTILE.length)].replace(" ", random.nextBoolean() ? "%20" : "+")
            .replace("\"", "%22").replace("#", "%23");
    }
  }

  /** Some history to attack: two DataNodes, a renamed file, a DataNode gone dead, a missing block. */
  private static void fill(HistoryStore store) throws Exception {
    int ns = store.namespaceId("hdfs://ns1");
    int dn1 = store.dataNodeId("uuid-1", "dn1.example.com", "10.0.0.1:9866", "/dc1/r1");
    int dn2 = store.dataNodeId("uuid-2", "dn2.example.com", "10.0.0.2:9866", "/dc1/r2");
    int s1 = store.storageId(dn1, "DS-1", "DISK");
    int s2 = store.storageId(dn2, "DS-2", "SSD");
    NamespaceState state = store.loadState(ns);
    Map<Long, ObservedBlock> first = Map.of(
        1073741825L, new ObservedBlock(16386, "/data/a", new int[] {s1, s2}, false, false),
        1073741826L, new ObservedBlock(16387, "/data/lost", new int[] {s2}, false, false));
    PollChanges c1 = state.diff(ns, 1000, first,
        Map.of(dn1, new DataNodeObservation("live", 100, 10), dn2, new DataNodeObservation("live", 100, 20)));
    store.record(c1, new PollSummary(900, 1000, 2, 2, 3, 3));
    state.apply(c1);
    Map<Long, ObservedBlock> second = Map.of(
        1073741825L, new ObservedBlock(16386, "/data/b", new int[] {s1}, false, false),
        1073741826L, new ObservedBlock(16387, "/data/lost", new int[0], false, false));
    PollChanges c2 = state.diff(ns, 2000, second, Map.of(dn2, new DataNodeObservation("dead", 100, 20)));
    store.record(c2, new PollSummary(1900, 2000, 2, 2, 1, 3));
  }

  /** Every row of every table of the schema, hashed: equal fingerprints, equal contents. */
  private static String fingerprint(String schema, Properties p) throws Exception {
    List<String> parts = new ArrayList<>();
    try (Connection c = TestPostgres.connect(); Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '"
          + schema + "' ORDER BY table_name")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      for (String t : tables) {
        try (ResultSet rs = s.executeQuery("SELECT count(*), md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM "
            + schema + "." + t + " x")) {
          rs.next();
          parts.add(t + "=" + rs.getLong(1) + ":" + rs.getString(2));
        }
      }
    }
    assertTrue(parts.size() >= 8, "the store's tables: " + parts);
    return String.join(", ", parts);
  }
}
