package org.bulwark.hdfs.monitor.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsTag;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.junit.jupiter.api.Test;

/** Every boundary of the health rules, with the defaults an administrator gets and with set thresholds. */
class HealthRulesTest {
  private static final String NS = "hdfs://ns1";

  private static HealthRules rules(String... keyValues) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    return new HealthRules(HealthThresholds.from(conf));
  }

  private static NamespaceFacts healthy() {
    return new NamespaceFacts(NS).canaryPassed(40).blocks(0, 0, 1000).dataNodes(10, 0, 0).nameNode("nn1", "active")
        .nameNode("nn2", "standby");
  }

  private static CheckResult find(List<CheckResult> results, String check) {
    return results.stream().filter(r -> r.check.equals(check)).findFirst().orElseThrow(() -> new AssertionError(check));
  }

  @Test
  void aHealthyNamespaceIsOkEverywhereAndSaysWhy() {
    List<CheckResult> r = rules().judge(healthy());
    assertEquals(6, r.size());
    r.forEach(c -> assertEquals(Severity.OK, c.severity, c.toString()));
    assertEquals("nn1 is active; nn2 standby", find(r, HealthRules.ACTIVE).reason);
    assertEquals("create, write, read back and delete took 40 ms", find(r, HealthRules.CANARY).reason);
    assertEquals("0 of 1000 blocks missing (0.00 %)", find(r, HealthRules.MISSING).reason);
  }

  @Test
  void byDefaultAnyMissingBlockIsCriticalAndCorruptOnesWarnFirst() {
    HealthRules r = rules();
    assertEquals(Severity.CRITICAL, find(r.judge(healthy().blocks(1, 0, 1_000_000)), HealthRules.MISSING).severity);
    CheckResult corrupt = find(r.judge(healthy().blocks(0, 1, 1000)), HealthRules.CORRUPT);
    assertEquals(Severity.WARNING, corrupt.severity, "0.1 % is not above the 0.1 % critical default");
    assertEquals("1 of 1000 blocks with a corrupt replica (0.100 %), warning above 0 %", corrupt.reason);
    assertEquals(Severity.CRITICAL, find(r.judge(healthy().blocks(0, 2, 1000)), HealthRules.CORRUPT).severity);
    assertEquals(1.0, find(r.judge(healthy().blocks(0, 1, 1000)), HealthRules.CORRUPT).value);
  }

  @Test
  void sharesAreJudgedStrictlyAboveEachThreshold() {
    HealthRules r = rules("bulwark.monitor.health.missing-blocks.warning-percent", "1",
        "bulwark.monitor.health.missing-blocks.critical-percent", "5");
    assertEquals(Severity.OK, find(r.judge(healthy().blocks(10, 0, 1000)), HealthRules.MISSING).severity, "1 % is not above 1 %");
    assertEquals(Severity.WARNING, find(r.judge(healthy().blocks(11, 0, 1000)), HealthRules.MISSING).severity);
    assertEquals(Severity.WARNING, find(r.judge(healthy().blocks(50, 0, 1000)), HealthRules.MISSING).severity);
    assertEquals(Severity.CRITICAL, find(r.judge(healthy().blocks(51, 0, 1000)), HealthRules.MISSING).severity);
  }

  @Test
  void beforeTheFirstPollAMissingBlockCountsAsTheWholeNamespace() {
    HealthRules r = rules("bulwark.monitor.health.missing-blocks.critical-percent", "50");
    CheckResult c = find(r.judge(healthy().blocks(1, 0, -1)), HealthRules.MISSING);
    assertEquals(Severity.CRITICAL, c.severity);
    assertTrue(c.reason.startsWith("1 blocks missing (share unknown until the first complete poll)"), c.reason);
    assertEquals(Severity.OK, find(r.judge(healthy().blocks(0, 0, -1)), HealthRules.MISSING).severity);
    assertEquals(Severity.CRITICAL, find(r.judge(healthy().blocks(5, 0, 3)), HealthRules.MISSING).severity,
        "a namespace grown since the poll: never a share above 100 %");
  }

  @Test
  void deadDataNodesWarnAtOneAndTurnCriticalAboveTenPercent() {
    HealthRules r = rules();
    CheckResult one = find(r.judge(healthy().dataNodes(19, 1, 0)), HealthRules.DEAD);
    assertEquals(Severity.WARNING, one.severity);
    assertEquals("1 of 20 DataNodes dead (5.00 %), warning above 0 %", one.reason);
    assertEquals(Severity.WARNING, find(r.judge(healthy().dataNodes(18, 2, 0)), HealthRules.DEAD).severity, "10 % exactly");
    assertEquals(Severity.CRITICAL, find(r.judge(healthy().dataNodes(17, 3, 0)), HealthRules.DEAD).severity);
    assertEquals(Severity.CRITICAL, find(r.judge(healthy().dataNodes(0, 3, 0)), HealthRules.DEAD).severity);
    assertEquals(Severity.OK, find(r.judge(healthy().dataNodes(0, 0, 0)), HealthRules.DEAD).severity, "no DataNode yet");
    assertEquals(Severity.WARNING, find(r.judge(healthy().dataNodes(10, 0, 1)), HealthRules.STALE).severity);
    assertEquals(Severity.CRITICAL, find(r.judge(healthy().dataNodes(10, 0, 3)), HealthRules.STALE).severity);
  }

  @Test
  void aSlowCanaryWarnsAndAFailedOneIsCritical() {
    HealthRules r = rules("bulwark.monitor.health.canary.warning", "2s");
    assertEquals(Severity.OK, find(r.judge(healthy().canaryPassed(2000)), HealthRules.CANARY).severity);
    assertEquals(Severity.WARNING, find(r.judge(healthy().canaryPassed(2001)), HealthRules.CANARY).severity);
    CheckResult failed = find(r.judge(healthy().canaryFailed("write /tmp/c: quota exceeded")), HealthRules.CANARY);
    assertEquals(Severity.CRITICAL, failed.severity);
    assertEquals("canary failed: write /tmp/c: quota exceeded", failed.reason);
    assertTrue(r.judge(healthy().canaryDisabled()).stream().noneMatch(c -> c.check.equals(HealthRules.CANARY)));
  }

  @Test
  void noActiveNameNodeWarnsInsideTheWindowAndIsCriticalAfter() {
    HealthRules r = rules("bulwark.monitor.health.active-namenode.window", "90s");
    NamespaceFacts failingOver = new NamespaceFacts(NS).canaryPassed(1).blocks(0, 0, 1).dataNodes(1, 0, 0)
        .nameNode("nn1", "unreachable (Connection refused)").nameNode("nn2", "standby");
    CheckResult inside = find(r.judge(failingOver.withoutActiveFor(90_000)), HealthRules.ACTIVE);
    assertEquals(Severity.WARNING, inside.severity);
    assertEquals("no active NameNode for 90 s; nn1 unreachable (Connection refused), nn2 standby "
        + "(a failover may be under way; critical after 90 s)", inside.reason);
    assertEquals(Severity.CRITICAL, find(r.judge(failingOver.withoutActiveFor(90_001)), HealthRules.ACTIVE).severity);
  }

  @Test
  void whatCouldNotBeMeasuredIsUnknownNotOk() {
    NamespaceFacts f = new NamespaceFacts(NS).canaryPassed(1).blocksUnknown("Connection refused")
        .dataNodesUnknown("no answer within the health timeout").nameNode("nn1", "active");
    List<CheckResult> r = rules().judge(f);
    assertEquals(Severity.UNKNOWN, find(r, HealthRules.MISSING).severity);
    assertEquals("not measured: Connection refused", find(r, HealthRules.CORRUPT).reason);
    assertEquals(Severity.UNKNOWN, find(r, HealthRules.STALE).severity);
    HealthReport report = new HealthReport(1, r);
    assertEquals(Severity.UNKNOWN, report.overall(), "UNKNOWN outranks OK");
    assertEquals(Severity.WARNING, Severity.UNKNOWN.worst(Severity.WARNING));
  }

  @Test
  void theLastPollAgesFromTheMonitorsStartUntilOneCompletes() {
    HealthRules r = rules("bulwark.monitor.health.last-poll.warning", "10m", "bulwark.monitor.health.last-poll.critical", "30m");
    long start = 1_000_000;
    assertEquals(Severity.OK, r.lastPoll(0, start, start + 600_000, null, 0).severity);
    CheckResult never = r.lastPoll(0, start, start + 600_001, "Connection refused", 0);
    assertEquals(Severity.WARNING, never.severity);
    assertEquals("no complete poll in the 600 s since the monitor started; last error: Connection refused", never.reason);
    assertEquals(Severity.CRITICAL, r.lastPoll(start, start, start + 1_800_001, null, 0).severity);
    assertEquals("last complete poll 5 s ago", r.lastPoll(start, 0, start + 5_000, null, 0).reason);
  }

  @Test
  void theLastPollIsJudgedPastTheTimeAPollCycleTakes() {
    HealthRules r = rules("bulwark.monitor.health.last-poll.warning", "10m", "bulwark.monitor.health.last-poll.critical", "30m");
    long finished = 1_000_000;
    long cycle = 2 * 3_600_000 + 60_000; // polls of 2 h (a 50 M-block namespace at the default rate), every minute
    CheckResult polling = r.lastPoll(finished, 0, finished + cycle, null, cycle);
    assertEquals(Severity.OK, polling.severity, "a poll that takes as long as the last ones is not late");
    assertEquals("last complete poll 7260 s ago (a poll cycle takes up to 7260 s)", polling.reason);
    assertEquals(Severity.WARNING, r.lastPoll(finished, 0, finished + cycle + 600_001, null, cycle).severity);
    assertEquals(Severity.CRITICAL, r.lastPoll(finished, 0, finished + cycle + 1_800_001, null, cycle).severity);
  }

  @Test
  void aWarningAboveItsCriticalTwinIsRefusedNamingBoth() {
    InvalidConfigException e = assertThrows(InvalidConfigException.class,
        () -> rules("bulwark.monitor.health.dead-datanodes.warning-percent", "20"));
    assertEquals("bulwark.monitor.health.dead-datanodes.warning-percent = '20' is not valid: expected a value no higher than "
        + "bulwark.monitor.health.dead-datanodes.critical-percent (10)", e.getMessage());
    assertThrows(InvalidConfigException.class, () -> rules("bulwark.monitor.health.missing-blocks.critical-percent", "much"));
  }

  @Test
  void metricsCarryEachCheckPerNamespaceAndTheOverallCode() {
    List<CheckResult> checks = new java.util.ArrayList<>(rules().judge(healthy().dataNodes(9, 1, 0)));
    checks.add(rules().lastPoll(1000, 0, 3000, null, 0));
    HealthReport report = new HealthReport(5000, checks);
    HealthMetrics metrics = new HealthMetrics(() -> report, List.of(NS));
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    metrics.monitorSource().getMetrics(collector, true);
    MetricsRecord monitor = collector.getRecords().get(0);
    assertEquals(1, value(monitor, "HealthStatus"), "WARNING overall");
    assertEquals(2, value(monitor, "LastPollAgeSeconds"));
    collector = new MetricsCollectorImpl();
    metrics.namespaceSource(NS).getMetrics(collector, true);
    MetricsRecord ns = collector.getRecords().get(0);
    assertEquals("BlockMonitorHealth-ns1", ns.name());
    assertEquals("BlockMonitorHealth-nn.example.com_8020", HealthMetrics.sourceName("hdfs://nn.example.com:8020"));
    assertEquals(NS, ns.tags().stream().filter(t -> t.name().equals("Namespace")).map(MetricsTag::value).findFirst().orElse(null));
    assertEquals(1, value(ns, "DeadDatanodesStatus"));
    assertEquals(1, value(ns, "DeadDatanodesValue"));
    assertEquals(0, value(ns, "CanaryStatus"));
    assertEquals(40, value(ns, "CanaryValue"));
  }

  private static double value(MetricsRecord r, String name) {
    Map<String, Number> all = new HashMap<>();
    for (AbstractMetric m : r.metrics()) {
      all.put(m.name(), m.value());
    }
    assertTrue(all.containsKey(name), name + " in " + all.keySet());
    return all.get(name).doubleValue();
  }
}
