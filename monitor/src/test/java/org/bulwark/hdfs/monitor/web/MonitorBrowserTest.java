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

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.StoppedDataNodes;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every page of the monitor rendered by a real browser (Debian's headless Chromium, which
 * {@code ./bulwark test} installs): the DOM after the page's scripts ran is checked, a link from the missing-blocks page is
 * followed to the block's timeline, and screenshots are saved under {@code target/}.
 */
class MonitorBrowserTest {
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

  @Test
  void everyPageRendersAndALinkLeadsToTheBlockTimeline() throws Exception {
    assertTrue(CHROMIUM.canExecute(), "Chromium (" + CHROMIUM + ") is needed and not installed: run the tests with "
        + "./bulwark test, which installs Debian's chromium, or point -Dbulwark.chromium at a Chromium binary");
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2").replication(2).build()) {
      c.writeFile(new Path("/data/kept"), 2 << 20, WriteOrigin.offCluster());
      c.writeFile(0, new Path("/data/lost"), 1 << 20, WriteOrigin.offCluster(), 1);
      c.awaitReplication(0, new Path("/data"), Duration.ofSeconds(60));
      Configuration conf = c.conf();
      conf.set("bulwark.monitor.data.dir", new File(dir, "store").getPath());
      conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
      conf.set("bulwark.monitor.poll.interval", "1h");
      try (BlockMonitor monitor = new BlockMonitor(conf)) {
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

        String forensics = chromium("--dump-dom", base + "forensics.html");
        assertTrue(forensics.contains("/data/lost"), forensics);
        Matcher link = Pattern.compile("href=\"(block\\.html\\?id=\\d+)\"").matcher(forensics);
        assertTrue(link.find(), forensics);
        String block = chromium("--dump-dom", base + link.group(1));
        assertTrue(block.contains("class=\"replicas\""), block);
        assertTrue(block.contains("/data/lost"), block);
        assertTrue(block.contains(holder.getHostName()), "the last holder is on the timeline: " + block);

        String dataNode = chromium("--dump-dom", base + "datanode.html?id=" + holder.getDatanodeUuid());
        assertTrue(dataNode.contains("dead"), dataNode);
        String advisor = chromium("--dump-dom", base + "advisor.html");
        assertTrue(advisor.contains("RS-6-3-1024k") && advisor.contains("id=\"advisor\""), advisor);

        File shots = new File("target");
        assertTrue(shots.isDirectory() || shots.mkdirs());
        for (String[] page : new String[][] {{"index.html", "monitor-overview.png"}, {link.group(1), "monitor-block.png"},
            {"forensics.html", "monitor-forensics.png"}, {"advisor.html", "monitor-advisor.png"}}) {
          File png = new File(shots, page[1]);
          Files.deleteIfExists(png.toPath());
          chromium("--window-size=1280,900", "--screenshot=" + png.getAbsolutePath(), base + page[0]);
          assertTrue(png.length() > 5_000, png + " was written");
          byte[] head = Files.readAllBytes(png.toPath());
          assertEquals((byte) 0x89, head[0], "a PNG");
        }
      }
    }
  }
}
