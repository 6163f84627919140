package org.bulwark.hdfs.monitor.collect;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator watches on the monitor's poller (JMX {@code Hadoop:service=BlockMonitor,name=BlockMonitorPoller},
 * or any metrics2 sink): how many polls completed and failed, whether one is under way, how long the last
 * took and how stale the recorded history is. Every value is read from {@link MonitorStatus} when the
 * metrics system asks, so the two can never disagree.
 */
public final class PollerMetrics implements MetricsSource {
  private static final Logger LOG = LoggerFactory.getLogger(PollerMetrics.class);
  static final String SOURCE = "BlockMonitorPoller";
  private static final MetricsInfo RECORD = Interns.info(SOURCE, "Bulwark block monitor poller");
  private static final MetricsInfo POLLS = Interns.info("Polls", "Polls of every namespace completed and recorded");
  private static final MetricsInfo FAILED = Interns.info("FailedPolls", "Polls that ended in an error, nothing of them recorded");
  private static final MetricsInfo IN_PROGRESS = Interns.info("PollInProgress", "1 while a poll is under way");
  private static final MetricsInfo LAST_MILLIS = Interns.info("LastPollMs", "Duration of the last completed poll");
  private static final MetricsInfo STALENESS = Interns.info("StalenessSeconds",
      "Seconds since the last completed poll (-1: none yet)");

  private final MonitorStatus status;
  private boolean registered;

  public PollerMetrics(MonitorStatus status) {
    this.status = status;
  }

  /** Publishes the source; a metrics system that refuses it costs a warning, never the monitor. */
  public synchronized void register() {
    try {
      DefaultMetricsSystem.instance().register(SOURCE, "Bulwark block monitor poller", this);
      registered = true;
    } catch (MetricsException e) {
      LOG.warn("Block monitor metrics not published: {}", e.getMessage());
    }
  }

  public synchronized void unregister() {
    if (registered) {
      DefaultMetricsSystem.instance().unregisterSource(SOURCE);
      registered = false;
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    long finished = status.lastPollFinished();
    collector.addRecord(RECORD).setContext("dfs")
        .addCounter(POLLS, status.polls())
        .addCounter(FAILED, status.failedPolls())
        .addGauge(IN_PROGRESS, status.pollInProgress() ? 1 : 0)
        .addGauge(LAST_MILLIS, status.lastPollMillis())
        .addGauge(STALENESS, finished == 0 ? -1 : (System.currentTimeMillis() - finished) / 1000);
  }
}
