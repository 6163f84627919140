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
 * carries on from there. The test sees a poll under way through the monitor's own API
 * ({@code pollInProgress}, {@code pollStartedAt}), so the kill lands inside one whatever the timing.
 */
class BlockMonitorCrashIT {
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
      // Polls 5 s apart: each set of changes below is made in the pause between two polls, so no poll
      // sees half of one.
      conf.set("bulwark.monitor.poll.interval", "5s");
      // About one listing per directory: a poll takes some 3 seconds, long enough to be killed inside.
      conf.set("bulwark.monitor.max-rpc-per-sec", "10");
      File site = new File(dir, "monitor-site.xml");
      try (OutputStream out = new FileOutputStream(site)) {
        conf.writeXml(out);
      }
      Process monitor = ForkedJvm.start(BlockMonitor.class, new File("target/BlockMonitorCrashIT-monitor.log"), "-conf", site.getPath());
      String api = "http://127.0.0.1:" + port + "/api/overview";
      try {
        Await.until("the forked monitor finished a poll", WAIT, () -> number(api, "polls") >= 1);
        // Changes A, then a poll that started after them and completed: the store holds exactly them.
        deleteFiles(c, 0, 5);
        c.writeFile(new Path("/new/a"), 1024, WriteOrigin.offCluster());
        c.awaitReplication(0, new Path("/new"), WAIT);
        awaitPollStartedAfter(api, System.currentTimeMillis());
        long recorded = number(api, "polls");
        Await.until("that poll completed", WAIT, () -> number(api, "polls") > recorded);
        // Changes B, and kill -9 as soon as a poll that would record them is under way (it lists for seconds).
        deleteFiles(c, 5, 10);
        c.writeFile(new Path("/new/b"), 1024, WriteOrigin.offCluster());
        c.awaitReplication(0, new Path("/new"), WAIT);
        awaitPollStartedAfter(api, System.currentTimeMillis());
        assertEquals(recorded + 1, number(api, "polls"), "no poll completed while changes B were made");
      } finally {
        monitor.destroyForcibly();
        monitor.waitFor();
      }
      try (HistoryStore s = StoreFactory.embedded(store, java.util.concurrent.TimeUnit.MINUTES.toMillis(5))) {
        int ns = s.namespaceId(c.uri(0).toString());
        assertEquals(2L * (DIRS - 5 + 1), s.loadState(ns).openReplicas(),
            "exactly the replicas of the completed polls: nothing lost, nothing of the killed one");
        assertTrue(s.fileHistory("/new/b").isEmpty(), "the killed poll recorded nothing of the file it saw");
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
        assertEquals(2L * (DIRS - 10 + 2), s.loadState(ns).openReplicas());
        for (String deleted : new String[] {"/d0/f", "/d5/f"}) {
          List<BlockHistory> h = s.fileHistory(deleted);
          assertEquals(1, h.size(), deleted);
          assertTrue(h.get(0).replicas.stream().allMatch(r -> r.goneSince > 0), deleted + ": its replicas ended");
          assertTrue(h.get(0).replicas.stream().allMatch(r -> r.firstSeen < r.goneSince),
              deleted + ": and they keep when they were first seen, before the crash");
        }
      }
    }
  }

  private static void deleteFiles(BulwarkMiniCluster c, int from, int to) throws Exception {
    for (int d = from; d < to; d++) {
      assertTrue(c.fs().delete(new Path("/d" + d + "/f"), false));
    }
  }

  /** Waits until the monitor reports a poll under way that started after {@code changedAt}. */
  private static void awaitPollStartedAfter(String api, long changedAt) throws Exception {
    Await.until("a poll that started after the changes is under way", WAIT,
        () -> number(api, "pollInProgress") == 1 && number(api, "pollStartedAt") > changedAt);
  }

  /** A number (or boolean, as 1/0) of the overview API; -1 when absent. */
  private static long number(String api, String field) throws Exception {
    Matcher m = Pattern.compile("\"" + field + "\" : (\\d+|true|false)").matcher(BlockMonitorClusterIT.get(api, 200));
    if (!m.find()) {
      return -1;
    }
    String v = m.group(1);
    return "true".equals(v) ? 1 : "false".equals(v) ? 0 : Long.parseLong(v);
  }
}
