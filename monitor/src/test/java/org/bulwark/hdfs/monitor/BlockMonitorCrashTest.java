package org.bulwark.hdfs.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.StoreFactory;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.ForkedJvm;
import org.bulwark.hdfs.testkit.FreePorts;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hdfs blockmonitor} killed with kill -9 in the middle of a poll (in its own JVM): the store keeps
 * exactly what the polls before recorded, nothing of the interrupted one, and a restarted monitor
 * carries on from there.
 */
class BlockMonitorCrashTest {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final int DIRS = 30;

  @TempDir
  File dir;

  @Test
  void killedMidPollLosesNothingRecordedBefore() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:1").replication(2).build()) {
      for (int d = 0; d < DIRS; d++) {
        c.writeFile(new Path("/d" + d + "/f"), 1024, WriteOrigin.offCluster());
      }
      c.awaitReplication(0, new Path("/"), WAIT);
      File store = new File(dir, "store");
      int port = FreePorts.pick();
      Configuration conf = c.conf();
      conf.set("bulwark.monitor.data.dir", store.getPath());
      conf.set("bulwark.monitor.http-address", "127.0.0.1:" + port);
      conf.set("bulwark.monitor.poll.interval", "100ms");
      // About one listing per directory: a poll takes some 3 seconds, long enough to be killed inside.
      conf.set("bulwark.monitor.max-rpc-per-sec", "10");
      File site = new File(dir, "monitor-site.xml");
      try (OutputStream out = new FileOutputStream(site)) {
        conf.writeXml(out);
      }
      Process monitor = ForkedJvm.start(BlockMonitor.class, new File(dir, "monitor.log"), "-conf", site.getPath());
      long firstPollPolls;
      try {
        String api = "http://127.0.0.1:" + port + "/api/overview";
        Await.until("the forked monitor finished a poll", WAIT, () -> polls(api) >= 1);
        firstPollPolls = polls(api);
        // Changes for the next poll to record, then kill -9 while it is still listing.
        for (int d = 0; d < 5; d++) {
          c.fs().delete(new Path("/d" + d + "/f"), false);
        }
        c.writeFile(new Path("/new/f"), 1024, WriteOrigin.offCluster());
        Await.until("the next poll is under way", WAIT, () -> polls(api) == firstPollPolls);
        Thread.sleep(1000); // inside a poll that lists for about 3 seconds
        assertEquals(firstPollPolls, polls(api), "still inside the same poll when killed");
      } finally {
        monitor.destroyForcibly();
        monitor.waitFor();
      }
      long replicasRecorded = 2L * DIRS;
      try (HistoryStore s = StoreFactory.embedded(store)) {
        int ns = s.namespaceId(c.uri(0).toString());
        assertEquals(replicasRecorded, s.loadState(ns).openReplicas(),
            "exactly the replicas of the completed poll: nothing lost, nothing of the killed one");
      }
      // A restarted monitor carries on from the store.
      Configuration again = new Configuration(conf);
      again.set("bulwark.monitor.http-address", "127.0.0.1:0");
      again.set("bulwark.monitor.poll.interval", "1h");
      again.set("bulwark.monitor.max-rpc-per-sec", "1000");
      try (BlockMonitor restarted = new BlockMonitor(again)) {
        restarted.start();
        restarted.pollNow();
        HistoryStore s = restarted.store();
        int ns = s.namespaceId(c.uri(0).toString());
        assertEquals(2L * (DIRS - 5 + 1), s.loadState(ns).openReplicas());
        List<BlockHistory> deleted = s.fileHistory("/d0/f");
        assertEquals(1, deleted.size());
        assertTrue(deleted.get(0).replicas.stream().allMatch(r -> r.goneSince > 0), "the deleted file's replicas ended");
        assertTrue(deleted.get(0).replicas.stream().allMatch(r -> r.firstSeen < r.goneSince),
            "and they keep when they were first seen, before the crash");
      }
    }
  }

  private static long polls(String api) throws Exception {
    Matcher m = Pattern.compile("\"polls\" : (\\d+)").matcher(BlockMonitorClusterTest.get(api, 200));
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

}
