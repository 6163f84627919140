package org.bulwark.hdfs.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.MissingBlock;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.StoppedDataNodes;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitor against a real embedded cluster: writes, a DataNode lost and re-replicated, a rename, a
 * delete, a block whose every holder stopped, each found in the history with the right DataNodes and
 * times; then the JSON API and the pages over HTTP.
 */
@Tag("compat")
class BlockMonitorClusterIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir
  File dir;

  private static LocatedBlock firstBlock(BulwarkMiniCluster c, String path) throws Exception {
    return c.fs().getClient().getLocatedBlocks(path, 0).get(0);
  }

  private static DataNodeHandle handleOf(BulwarkMiniCluster c, DatanodeInfo d) {
    return c.dataNodes().stream().filter(h -> c.running(h) != null
        && c.running(h).getDatanodeUuid().equals(d.getDatanodeUuid())).findFirst().orElseThrow();
  }

  @Test
  void historyFollowsEveryChangeAndForensicsNamesTheLastHolders() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2").replication(2).build()) {
      Configuration conf = c.conf();
      conf.set("bulwark.monitor.data.dir", new File(dir, "store").getPath());
      conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
      conf.set("bulwark.monitor.poll.interval", "1h");
      c.writeFile(new Path("/data/f1"), 3 << 20, WriteOrigin.offCluster());
      c.writeFile(new Path("/data/f2"), 1 << 20, WriteOrigin.offCluster());
      c.writeFile(new Path("/data/f3"), 1 << 20, WriteOrigin.offCluster());
      c.writeFile(0, new Path("/data/lost"), 1 << 20, WriteOrigin.offCluster(), 1);
      c.awaitReplication(0, new Path("/data"), WAIT);
      try (BlockMonitor monitor = new BlockMonitor(conf)) {
        monitor.start();
        monitor.pollNow();
        LocatedBlock b1 = firstBlock(c, "/data/f1");
        long id1 = b1.getBlock().getBlockId();
        List<BlockHistory> h = monitor.store().blockHistory(id1);
        assertEquals(2, h.get(0).replicas.size());
        assertTrue(h.get(0).replicas.stream().allMatch(ReplicaSpan::isOpen));
        assertEquals("/data/f1", h.get(0).files.get(0).path);

        // A DataNode holding block 1 (not the only holder of /data/lost, kept for later) dies; the
        // NameNode copies the block elsewhere.
        String lostHolder = firstBlock(c, "/data/lost").getLocations()[0].getDatanodeUuid();
        DatanodeInfo victim = java.util.Arrays.stream(b1.getLocations())
            .filter(d -> !d.getDatanodeUuid().equals(lostHolder)).findFirst().orElseThrow();
        long beforeLoss = System.currentTimeMillis();
        StoppedDataNodes stopped = c.stop(List.of(handleOf(c, victim)));
        c.declareDead(stopped);
        c.awaitFullyReplicated(0, WAIT);
        c.awaitReplication(0, new Path("/data"), WAIT);
        c.fs().rename(new Path("/data/f2"), new Path("/data/f2-renamed"));
        long f3Block = firstBlock(c, "/data/f3").getBlock().getBlockId();
        c.fs().delete(new Path("/data/f3"), false);
        monitor.pollNow();

        BlockHistory after = monitor.store().blockHistory(id1).get(0);
        ReplicaSpan gone = after.replicas.stream().filter(r -> r.dataNode.equals(victim.getDatanodeUuid())).findFirst().orElseThrow();
        assertTrue(gone.goneSince >= beforeLoss, "the lost DataNode's replica ends when it was lost");
        assertEquals(2, after.replicas.stream().filter(ReplicaSpan::isOpen).count(), "re-replicated to 2 again");
        assertEquals(3, after.replicas.size(), "two that stayed or came, one that went");
        assertEquals("dead", monitor.store().dataNodeStates(victim.getDatanodeUuid()).get(0).state);

        List<BlockHistory> renamed = monitor.store().fileHistory("/data/f2");
        assertEquals(1, renamed.size());
        assertEquals(2, renamed.get(0).files.size(), "/data/f2, then /data/f2-renamed");
        assertEquals("/data/f2-renamed", renamed.get(0).files.get(1).path);
        BlockHistory deleted = monitor.store().blockHistory(f3Block).get(0);
        assertTrue(deleted.replicas.stream().noneMatch(ReplicaSpan::isOpen), "a deleted file's replicas are all closed");
        assertTrue(deleted.files.get(0).goneSince > 0);

        // Every holder of /data/lost (replication 1) stops: forensics names it.
        LocatedBlock lost = firstBlock(c, "/data/lost");
        DatanodeInfo holder = lost.getLocations()[0];
        StoppedDataNodes holders = c.stop(List.of(handleOf(c, holder)));
        c.declareDead(holders);
        monitor.pollNow();
        List<MissingBlock> missing = monitor.store().forensics(100);
        MissingBlock m = missing.stream().filter(x -> x.event.blockId == lost.getBlock().getBlockId()).findFirst().orElseThrow();
        assertEquals("/data/lost", m.path);
        assertEquals(holder.getDatanodeUuid(), m.lastHolders.get(0).dataNode);
        assertTrue(m.lastHolders.get(0).goneSince > 0);
        assertTrue(m.holderStates.stream().anyMatch(s -> s.dataNode.equals(holder.getDatanodeUuid()) && s.state.equals("dead")));

        // The same through HTTP.
        String base = "http://127.0.0.1:" + monitor.httpAddress().getPort();
        String overview = get(base + "/api/overview", 200);
        assertTrue(overview.contains("\"missingBlocks\" : 1"), overview);
        assertTrue(get(base + "/api/block?id=blk_" + id1, 200).contains("/data/f1"));
        assertTrue(get(base + "/api/block?path=/data/f2-renamed", 200).contains("/data/f2"));
        assertTrue(get(base + "/api/forensics", 200).contains("/data/lost"));
        assertTrue(get(base + "/api/datanode?id=" + holder.getDatanodeUuid(), 200).contains("dead"));
        assertTrue(get(base + "/api/advisor", 200).contains("RS-6-3-1024k"));
        assertTrue(get(base + "/api/block?id=abc", 400).contains("parameter 'id' must be a block id"));
        assertTrue(get(base + "/api/datanode", 400).contains("parameter 'id' is required"));
        assertTrue(get(base + "/api/datanode?id=x&limit=0", 400).contains("parameter 'limit' must be a whole number from 1 to 1000"));
        assertTrue(get(base + "/api/nothing", 400).contains("unknown API"));
        for (String page : new String[] {"/index.html", "/block.html", "/datanode.html", "/forensics.html", "/advisor.html", "/app.js"}) {
          get(base + page, 200);
        }
        get(base + "/jmx", 200);
      }
    }
  }

  @Test
  void noNameNodeKeepsTheUiUpAndSaysHowStale(@TempDir File store) throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:1");
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.set("bulwark.monitor.data.dir", store.getPath());
    conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
    try (BlockMonitor monitor = new BlockMonitor(conf)) {
      monitor.start();
      org.bulwark.hdfs.testkit.Await.until("the failed poll is reported", WAIT, () -> monitor.status().lastError() != null);
      String overview = get("http://127.0.0.1:" + monitor.httpAddress().getPort() + "/api/overview", 200);
      assertTrue(overview.contains("\"stalenessSeconds\" : -1"), overview);
      assertTrue(overview.contains("lastError"), overview);
    }
  }

  static String get(String url, int expectedStatus) throws Exception {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    int code = c.getResponseCode();
    try (InputStream in = code >= 400 ? c.getErrorStream() : c.getInputStream()) {
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(expectedStatus, code, url + ": " + body);
      return body;
    }
  }
}
