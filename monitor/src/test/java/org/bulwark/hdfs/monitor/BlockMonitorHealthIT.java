package org.bulwark.hdfs.monitor;

import static org.bulwark.hdfs.monitor.BlockMonitorClusterIT.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.bulwark.hdfs.monitor.health.CheckResult;
import org.bulwark.hdfs.monitor.health.HealthReport;
import org.bulwark.hdfs.monitor.health.HealthRules;
import org.bulwark.hdfs.monitor.health.Severity;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The health checks against a real cluster, each fault made the way it happens: a canary directory over
 * its quota, a DataNode that stops heartbeating, a block whose only holder died, the NameNode gone; and in
 * an HA nameservice, a window with no active NameNode. Each check names the fault, and the API, the page and
 * JMX say the same.
 */
class BlockMonitorHealthIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String CANARY_DIR = "/tmp/.bulwark-canary";

  @TempDir
  File dir;

  private Configuration monitorConf(BulwarkMiniCluster c) {
    Configuration conf = TestMonitors.conf(c.conf(), dir);
    conf.set("bulwark.monitor.health.interval", "1h");
    conf.set("bulwark.monitor.health.timeout", "5s");
    return conf;
  }

  private static CheckResult check(HealthReport r, String check) {
    return r.checks.stream().filter(c -> c.check.equals(check)).findFirst()
        .orElseThrow(() -> new AssertionError(check + " not in " + r.checks));
  }

  @Test
  void eachFaultTurnsItsOwnCheck() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:1,/r3:1").replication(2).build()) {
      c.writeFile(new Path("/data/kept"), 1 << 20, WriteOrigin.offCluster());
      c.writeFile(0, new Path("/data/lost"), 1 << 20, WriteOrigin.offCluster(), 1);
      c.awaitReplication(0, new Path("/data"), WAIT);
      try (BlockMonitor monitor = new BlockMonitor(monitorConf(c))) {
        monitor.start();
        monitor.pollNow();
        HealthReport healthy = monitor.health().checkNow();
        assertEquals(Severity.OK, healthy.overall(), healthy.checks.toString());
        assertEquals(7, healthy.checks.size(), "6 checks of the namespace and the monitor's last poll");
        assertTrue(check(healthy, HealthRules.MISSING).reason.startsWith("0 of 2 blocks missing"), healthy.checks.toString());
        assertTrue(check(healthy, HealthRules.ACTIVE).reason.endsWith(" is active"), check(healthy, HealthRules.ACTIVE).reason);
        assertEquals(0, c.fs().listStatus(new Path(CANARY_DIR)).length, "the canary leaves no file behind");

        String base = "http://127.0.0.1:" + monitor.httpAddress().getPort();
        String api = get(base + "/api/health", 200);
        assertTrue(api.contains("\"status\" : \"OK\""), api);
        assertTrue(api.contains("\"check\" : \"canary\""), api);
        assertTrue(get(base + "/health.html", 200).contains("/api/health"));
        // JMX shows a metrics2 source as of its last refresh (every 10 s by default).
        String source = "BlockMonitorHealth-localhost_" + c.uri(0).getPort();
        Await.until("JMX shows the checks", Duration.ofSeconds(30), () -> {
          String jmx = get(base + "/jmx?qry=Hadoop:*,name=" + source, 200);
          return jmx.contains("\"HealthStatus\" : 0") && jmx.contains("\"CanaryStatus\" : 0")
              && jmx.contains("\"MissingBlocksValue\" : 0.0");
        });
        assertTrue(get(base + "/jmx?qry=Hadoop:*,name=BlockMonitorHealth", 200).contains("\"LastPollStatus\" : 0"));

        // The canary's directory over its space quota: the write fails and the canary says where.
        c.fs().setQuota(new Path(CANARY_DIR), HdfsConstants.QUOTA_DONT_SET, 1);
        CheckResult canary = check(monitor.health().checkNow(), HealthRules.CANARY);
        assertEquals(Severity.CRITICAL, canary.severity);
        assertTrue(canary.reason.startsWith("canary failed: ") && canary.reason.contains("quota"), canary.reason);
        c.fs().setQuota(new Path(CANARY_DIR), HdfsConstants.QUOTA_DONT_SET, HdfsConstants.QUOTA_RESET);
        assertEquals(Severity.OK, check(monitor.health().checkNow(), HealthRules.CANARY).severity);
        assertEquals(0, c.fs().listStatus(new Path(CANARY_DIR)).length, "nor does a failed canary");

        // A DataNode stops heartbeating: stale (after 5 s here) before the NameNode declares it dead.
        DataNode quiet = c.running(c.dataNodes().get(0));
        DataNodeTestUtils.setHeartbeatsDisabledForTests(quiet, true);
        try {
          Await.until("a stale DataNode is reported", Duration.ofSeconds(20),
              () -> check(monitor.health().checkNow(), HealthRules.STALE).severity != Severity.OK);
          CheckResult stale = check(monitor.health().latest(), HealthRules.STALE);
          assertEquals("1 of 3 live DataNodes without a recent heartbeat (33.3 %), critical above 25 %", stale.reason);
        } finally {
          DataNodeTestUtils.setHeartbeatsDisabledForTests(quiet, false);
        }
        Await.until("the DataNode is fresh again", Duration.ofSeconds(20),
            () -> check(monitor.health().checkNow(), HealthRules.STALE).severity == Severity.OK);

        // The only holder of /data/lost dies: its block is missing, and a third of the DataNodes are dead.
        DatanodeInfo holder = c.fs().getClient().getLocatedBlocks("/data/lost", 0).get(0).getLocations()[0];
        DataNodeHandle handle = c.dataNodes().stream()
            .filter(h -> c.running(h) != null && c.running(h).getDatanodeUuid().equals(holder.getDatanodeUuid()))
            .findFirst().orElseThrow();
        c.declareDead(c.stop(List.of(handle)));
        HealthReport lost = monitor.health().checkNow();
        assertEquals(Severity.CRITICAL, check(lost, HealthRules.MISSING).severity);
        assertEquals("1 of 2 blocks missing (50.0 %), critical above 0 %", check(lost, HealthRules.MISSING).reason,
            "the share of the blocks the last poll counted, the canary's own files left out");
        assertEquals("1 of 3 DataNodes dead (33.3 %), critical above 10 %", check(lost, HealthRules.DEAD).reason);
        assertTrue(get(base + "/api/health", 200).contains("\"status\" : \"CRITICAL\""));

        // The NameNode goes: the counts cannot be measured, the canary fails, no NameNode is active.
        c.mini().shutdownNameNode(0);
        HealthReport down = monitor.health().checkNow();
        assertEquals(Severity.UNKNOWN, check(down, HealthRules.MISSING).severity, down.checks.toString());
        assertEquals(Severity.CRITICAL, check(down, HealthRules.CANARY).severity);
        CheckResult active = check(down, HealthRules.ACTIVE);
        assertEquals(Severity.WARNING, active.severity, "inside the 90 s detection window");
        assertTrue(active.reason.contains("unreachable"), active.reason);
      }
    }
  }

  @Test
  void noActiveNameNodeWarnsThroughTheWindowThenIsCriticalUntilOneIsActive() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1").replication(1).nameNodesPerNameservice(2)
        .build()) {
      Configuration conf = monitorConf(c);
      conf.set("bulwark.monitor.health.canary.dir", "");
      conf.set("bulwark.monitor.health.active-namenode.window", "2s");
      conf.set("bulwark.monitor.health.timeout", "1s");
      try (BlockMonitor monitor = new BlockMonitor(conf)) {
        monitor.start();
        CheckResult first = check(monitor.health().checkNow(), HealthRules.ACTIVE);
        assertEquals(Severity.OK, first.severity, first.reason);
        assertTrue(first.reason.matches("\\S+ is active; \\S+ standby"), first.reason);
        assertTrue(monitor.health().checkNow().checks.stream().noneMatch(x -> x.check.equals(HealthRules.CANARY)),
            "an empty canary directory disables the canary");

        c.mini().transitionToStandby(c.nameNodeIndex(0, 0));
        CheckResult none = check(monitor.health().checkNow(), HealthRules.ACTIVE);
        assertEquals(Severity.WARNING, none.severity, none.reason);
        assertTrue(none.reason.matches("no active NameNode for \\d+ s; \\S+ standby, \\S+ standby .*"), none.reason);
        Thread.sleep(2_100);
        assertEquals(Severity.CRITICAL, check(monitor.health().checkNow(), HealthRules.ACTIVE).severity);

        c.mini().transitionToActive(c.nameNodeIndex(0, 1));
        CheckResult back = check(monitor.health().checkNow(), HealthRules.ACTIVE);
        assertEquals(Severity.OK, back.severity, back.reason);
        String wasActive = first.reason.substring(0, first.reason.indexOf(' '));
        assertTrue(back.reason.matches("\\S+ is active; " + wasActive + " standby"), back.reason);
      }
    }
  }
}
