package org.bulwark.hdfs.monitor.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.junit.jupiter.api.Test;

/** The poller's metrics follow its status through a poll, a failure and an abandoned poll. */
class PollerMetricsTest {
  private final MonitorStatus status = new MonitorStatus();
  private final PollerMetrics metrics = new PollerMetrics(status);

  private Map<String, Number> snapshot() {
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    metrics.getMetrics(collector, true);
    MetricsRecord record = collector.getRecords().get(0);
    assertEquals("BlockMonitorPoller", record.name());
    Map<String, Number> out = new HashMap<>();
    for (AbstractMetric m : record.metrics()) {
      out.put(m.name(), m.value());
    }
    return out;
  }

  @Test
  void pollInProgressFromStartToFinish() {
    Map<String, Number> idle = snapshot();
    assertEquals(0, idle.get("PollInProgress").intValue());
    assertEquals(0L, idle.get("Polls").longValue());
    assertEquals(-1L, idle.get("StalenessSeconds").longValue(), "no poll yet");

    status.pollStarted(1_000);
    assertEquals(1, snapshot().get("PollInProgress").intValue());
    status.pollFinished(4_500);
    Map<String, Number> done = snapshot();
    assertEquals(0, done.get("PollInProgress").intValue());
    assertEquals(1L, done.get("Polls").longValue());
    assertEquals(3_500L, done.get("LastPollMs").longValue());
  }

  @Test
  void aFailedOrAbandonedPollIsNoLongerInProgress() {
    status.pollStarted(1_000);
    status.failed("NameNode unreachable", 2_000);
    Map<String, Number> failed = snapshot();
    assertEquals(0, failed.get("PollInProgress").intValue());
    assertEquals(1L, failed.get("FailedPolls").longValue());
    assertEquals(0L, failed.get("Polls").longValue());

    status.pollStarted(3_000);
    status.pollAbandoned();
    assertEquals(0, snapshot().get("PollInProgress").intValue());
    assertEquals(1L, snapshot().get("FailedPolls").longValue(), "stopping the monitor is not a failure");
  }
}
