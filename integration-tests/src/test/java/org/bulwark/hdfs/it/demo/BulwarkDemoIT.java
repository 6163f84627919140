package org.bulwark.hdfs.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.ForkedJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's demo runs end to end and reports figures that add up.
 *
 * <p>Slow because it runs the README's demo end to end: a 12-DataNode HA cluster written, balanced, failed over and a
 * DataNode lost.
 */
@Tag("compat")
class BulwarkDemoIT {
  @TempDir
  Path dir;

  /** Runs the demo with {@code args} (plus -dir and -exit) to its end; returns what it printed. */
  private String runToEnd(String... args) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    String[] all = Stream.concat(Arrays.stream(args),
        Stream.of("-dir", dir.toString(), "-exit")).toArray(String[]::new);
    int rc = ToolRunner.run(new Configuration(), new BulwarkDemo(new PrintStream(bytes, true, StandardCharsets.UTF_8)), all);
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, out);
    return out;
  }

  @Test
  void demoWritesTheDataSetAndReportsWhereReplicasWent() throws Exception {
    String out = runToEnd("-D", "dfs.replication=3", "-topology", "/dc1/r1:2,/dc1/r2:2,/dc2/r3:2", "-numFiles", "9",
        "-fileSize", "2m");
    assertTrue(out.contains("6 DataNodes on 3 racks in 2 datacenters"), out);
    assertTrue(out.contains("placement org.bulwark.hdfs.placement.HierarchicalPlacementPolicy"), out);
    assertTrue(out.contains("Wrote 9 files of 2,097,152 bytes under /demo/data"), out);
    assertTrue(out.contains("6 from DataNode hosts, 3 from off-cluster"), out);
    assertTrue(out.contains("std-dev of rack utilisation"), out);

    Matcher m = Pattern.compile("1 rack (\\d+), 2 racks (\\d+), 3\\+ racks (\\d+) \\(of (\\d+) blocks\\)").matcher(out);
    assertTrue(m.find(), out);
    long total = Long.parseLong(m.group(4));
    assertEquals(18, total, "9 files of 2 one-MiB blocks");
    assertEquals(total, Long.parseLong(m.group(3)), "hierarchical placement: every block on 3 racks");
    assertTrue(out.contains("0 of 18 blocks would be lost with the datacenter"), out);
    assertTrue(Pattern.compile("NameNode web UI: http://(localhost|127\\.0\\.0\\.1):\\d+/").matcher(out).find(), out);

    // then a skewed write, and the availability balancer run on it
    assertTrue(out.contains("Skewed write: 3 more files from"), out);
    assertTrue(out.contains("$ hdfs balancer -policy availability -threshold 5"), out);
    assertTrue(out.contains("Moves adding a rack"), out);
    assertTrue(out.contains("Availability balancing summary"), out);
    assertTrue(out.contains("(balancer exit code 0 after"), out);
    assertTrue(out.contains("Its JSON report"), out);

    // then the active NameNode is killed under a client that keeps working
    assertTrue(out.contains("HA: 2 NameNodes under hdfs hotstandby"), out);
    Matcher failover = Pattern.compile("nn(\\d) active (\\d+) ms after the kill").matcher(out);
    assertTrue(failover.find(), out);
    // The demo waits until the client is served by the new active; a call in flight on the NameNode
    // being stopped may fail (the embedded NameNode answers while it shuts down; a killed one would not).
    assertTrue(Pattern.compile("The client carried on: [\\d,]+ listings served").matcher(out).find(), out);
    assertTrue(out.contains("restarted: standby"), out);

    // then a DataNode crashes, its replicas are re-made, and the monitor shows where they went
    assertTrue(out.contains("$ kill -9 the DataNode on dn05"), out);
    assertTrue(out.contains("The NameNode declared it dead and re-made its replicas elsewhere"), out);
    assertTrue(out.contains("The block monitor's history of /demo/data/"), out);
    assertTrue(out.contains(", gone at "), "the lost replica's end is recorded: " + out);
    assertTrue(Pattern.compile("Trace it in the monitor: http://127\\.0\\.0\\.1:\\d+/datanode\\.html\\?id=dn05").matcher(out).find(), out);
    assertTrue(Pattern.compile("Block monitor \\(.*\\): http://127\\.0\\.0\\.1:\\d+/").matcher(out).find(), out);
  }

  @Test
  void demoRunsWithHadoopsDefaultPlacementWhenAsked() throws Exception {
    String out = runToEnd("-topology", "/dc1/r1:2,/dc1/r2:2,/dc2/r3:2,/dc2/r4:2", "-numFiles", "6", "-fileSize", "2m",
        "-placement", "default", "-namenodes", "1");
    assertTrue(out.contains("placement Hadoop's default"), out);
    assertTrue(out.contains("1 rack 0, 2 racks 12, 3+ racks 0 (of 12 blocks)"), out);
  }

  /**
   * The demo as {@code ./bulwark demo} runs it, in a JVM of its own: its NameNode web UI answers while it runs, and
   * Ctrl-C (SIGINT) ends it within seconds, without a stack trace, the JVM gone.
   */
  @Test
  void webUiAnswersWhileTheDemoRunsAndCtrlCEndsIt() throws Exception {
    File log = dir.resolve("demo.log").toFile();
    // A build run in the background (CI, nohup) passes SIGINT on ignored, and a JVM keeps an ignored SIGINT ignored,
    // as a terminal's Ctrl-C never reaches a background job anyway: the demo is started with it back to its default.
    List<String> interruptible = List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"", "--");
    // Two NameNodes (the demo's default): ZooKeeper and the hot standby controllers run too, and must stop quietly.
    Process demo = ForkedJvm.start(interruptible, BulwarkDemo.class, log, List.of(), "-topology", "/r1:1,/r2:1,/r3:1",
        "-numFiles", "1", "-fileSize", "1k", "-balancer", "none", "-namenodes", "2", "-dir",
        dir.resolve("cluster").toString());
    try {
      Pattern ui = Pattern.compile("NameNode web UI: (http://\\S+/)");
      Await.until("the demo runs", Duration.ofSeconds(120),
          () -> read(log).contains("Running; press Ctrl-C to stop.") || !demo.isAlive());
      Matcher m = ui.matcher(read(log));
      assertTrue(m.find(), read(log));
      HttpURLConnection c = (HttpURLConnection) new URL(m.group(1) + "jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState").openConnection();
      assertEquals(200, c.getResponseCode());
      String jmx = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(jmx.contains("\"NumLiveDataNodes\" : 3"), jmx);

      long interrupted = System.nanoTime();
      assertEquals(0, new ProcessBuilder("kill", "-INT", String.valueOf(demo.pid())).start().waitFor());
      assertTrue(demo.waitFor(10, TimeUnit.SECONDS), "the demo still runs 10 s after Ctrl-C:\n" + read(log));
      System.out.printf("demo: ended %.1f s after SIGINT%n", (System.nanoTime() - interrupted) / 1e9);
      String out = read(log);
      assertEquals(0, demo.exitValue(), out);
      assertTrue(out.contains("SIGINT: stopping the cluster") && out.contains("Stopping the cluster."), out);
      assertFalse(Pattern.compile("Exception|\\tat ").matcher(out.substring(out.indexOf("SIGINT"))).find(),
          "a stack trace after Ctrl-C:\n" + out);
    } finally {
      demo.destroyForcibly();
    }
  }

  private static String read(File f) throws IOException {
    return f.isFile() ? Files.readString(f.toPath(), StandardCharsets.UTF_8) : "";
  }

  @Test
  void badArgumentsGetOneLineAndExitCode2() throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertEquals(2, ToolRunner.run(new Configuration(), new BulwarkDemo(System.out), new String[] {"-numFiles", "lots"}));
      assertEquals(2, ToolRunner.run(new Configuration(), new BulwarkDemo(System.out), new String[] {"-topology", "/r1"}));
      assertEquals(2, ToolRunner.run(new Configuration(), new BulwarkDemo(System.out), new String[] {"-placement", "java.lang.String"}));
      assertEquals(2, ToolRunner.run(new Configuration(), new BulwarkDemo(System.out), new String[] {"-frobnicate"}));
      assertEquals(2, ToolRunner.run(new Configuration(), new BulwarkDemo(System.out), new String[] {"-balancer", "sometimes"}));
    } finally {
      System.setErr(err);
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("bulwark demo: -numFiles 'lots' is not a whole number >= 1"), text);
    assertTrue(text.contains("bulwark demo: topology spec entry '/r1' is not /rack:count[@capacity]"), text);
    assertTrue(text.contains("bulwark demo: -placement 'java.lang.String' is not a BlockPlacementPolicy"), text);
    assertTrue(text.contains("bulwark demo: unknown option '-frobnicate'"), text);
    assertTrue(text.contains("bulwark demo: -balancer 'sometimes' is not valid: expected availability, datanode, blockpool or none"), text);
  }
}
