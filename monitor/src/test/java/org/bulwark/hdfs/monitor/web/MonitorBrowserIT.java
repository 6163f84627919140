package org.bulwark.hdfs.monitor.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.monitor.TestMonitors;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.StoppedDataNodes;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every page of the monitor rendered by a real browser (Debian's headless Chromium, which
 * {@code ./bulwark test} installs): the DOM after the page's scripts ran is checked, a link from the missing-blocks page is
 * followed to the block's timeline, and screenshots are saved under {@code target/}.
 */
@Tag("compat")
class MonitorBrowserIT {
  private static final File CHROMIUM = new File(System.getProperty("bulwark.chromium", "/usr/bin/chromium"));

  @TempDir
  File dir;

  private String chromium(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(CHROMIUM.getPath(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + new File(dir, "chromium-profile"), "--virtual-time-budget=10000"));
    cmd.addAll(List.of(args));
    File out = new File(dir, "chromium.out");
    Process p = new ProcessBuilder(cmd).redirectOutput(out).redirectError(new File(dir, "chromium.err")).start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not finish in 90 s: " + cmd);
    }
    return Files.readString(out.toPath(), StandardCharsets.UTF_8);
  }

  /** The chart's element says it drew at least {@code points} points, and holds the SVG ECharts drew them in. */
  private static void assertChart(String dom, String id, int points) {
    Matcher m = Pattern.compile("<div class=\"chart[^\"]*\" id=\"" + id + "\"[^>]*data-points=\"(\\d+)\"[^>]*>(.*?)</div>",
        Pattern.DOTALL).matcher(dom);
    assertTrue(m.find(), id + " rendered: " + dom);
    assertTrue(Integer.parseInt(m.group(1)) >= points, id + " drew " + m.group(1) + " points, fewer than " + points);
    assertTrue(m.group(2).contains("<svg"), id + " drew an SVG: " + m.group(2));
  }

  @Test
  void everyPageRendersAndALinkLeadsToTheBlockTimeline() throws Exception {
    assertTrue(CHROMIUM.canExecute(), "Chromium (" + CHROMIUM + ") is needed and not installed: run the tests with "
        + "./bulwark test, which installs Debian's chromium, or point -Dbulwark.chromium at a Chromium binary");
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2").replication(2).build()) {
      c.writeFile(new Path("/data/kept"), 2 << 20, WriteOrigin.offCluster());
      c.writeFile(0, new Path("/data/lost"), 1 << 20, WriteOrigin.offCluster(), 1);
      c.awaitReplication(0, new Path("/data"), Duration.ofSeconds(60));
      try (BlockMonitor monitor = new BlockMonitor(TestMonitors.conf(c.conf(), dir))) {
        monitor.start();
        monitor.pollNow();
        DatanodeInfo holder = c.fs().getClient().getLocatedBlocks("/data/lost", 0).get(0).getLocations()[0];
        StoppedDataNodes stopped = c.stop(List.of(c.dataNodes().stream().filter(h -> c.running(h) != null
            && c.running(h).getDatanodeUuid().equals(holder.getDatanodeUuid())).findFirst().orElseThrow()));
        c.declareDead(stopped);
        monitor.pollNow();
        String base = "http://127.0.0.1:" + monitor.httpAddress().getPort() + "/";

        String overview = chromium("--dump-dom", base + "index.html");
        assertTrue(overview.contains("id=\"datanodes\""), overview);
        assertTrue(overview.contains("Missing blocks: 1"), overview);
        assertTrue(overview.contains(holder.getHostName()), "the dead DataNode is listed: " + overview);
        // Every chart drew its points as SVG: 2 polls, 2 racks' fill at each, a heat map cell per DataNode holding replicas.
        assertChart(overview, "chart-missing", 2);
        assertChart(overview, "chart-racks", 2);
        assertChart(overview, "chart-fill", 4);
        assertChart(overview, "chart-heatmap", 2);

        String forensics = chromium("--dump-dom", base + "forensics.html");
        assertTrue(forensics.contains("/data/lost"), forensics);
        Matcher link = Pattern.compile("href=\"(block\\.html\\?id=\\d+)\"").matcher(forensics);
        assertTrue(link.find(), forensics);
        String block = chromium("--dump-dom", base + link.group(1));
        assertTrue(block.contains("class=\"replicas\""), block);
        assertTrue(block.contains("/data/lost"), block);
        assertTrue(block.contains(holder.getHostName()), "the last holder is on the timeline: " + block);
        assertChart(block, "chart-timeline-0", 1);

        String dataNode = chromium("--dump-dom", base + "datanode.html?id=" + holder.getDatanodeUuid());
        assertTrue(dataNode.contains("dead"), dataNode);
        String advisor = chromium("--dump-dom", base + "advisor.html");
        assertTrue(advisor.contains("RS-6-3-1024k") && advisor.contains("id=\"advisor\""), advisor);

        monitor.health().checkNow();
        String health = chromium("--dump-dom", base + "health.html");
        assertTrue(health.contains("id=\"checks\"") && health.contains("data-check=\"missing-blocks\""), health);
        assertTrue(health.contains("Overall: CRITICAL"), "a missing block is CRITICAL: " + health);

        File shots = new File("target");
        assertTrue(shots.isDirectory() || shots.mkdirs());
        for (String[] page : new String[][] {{"index.html", "monitor-overview.png"}, {link.group(1), "monitor-block.png"},
            {"forensics.html", "monitor-forensics.png"}, {"advisor.html", "monitor-advisor.png"},
            {"health.html", "monitor-health.png"}}) {
          File png = new File(shots, page[1]);
          Files.deleteIfExists(png.toPath());
          chromium("--window-size=1280," + (page[0].equals("index.html") ? 2200 : 900), "--screenshot=" + png.getAbsolutePath(),
              base + page[0]);
          assertTrue(png.length() > 5_000, png + " was written");
          byte[] head = Files.readAllBytes(png.toPath());
          assertEquals((byte) 0x89, head[0], "a PNG");
        }
      }
    }
  }
}
