package org.bulwark.hdfs.monitor.health;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health checks as metrics2 gauges, read from the checker's latest report when asked, so the page,
 * the API and the metrics always agree. Status codes are Nagios's (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN).
 * One source for the monitor ({@code name=BlockMonitorHealth}: the worst check anywhere, the age of the last
 * poll) and one per namespace ({@code name=BlockMonitorHealth-<nameservice or host_port>}: each check's
 * status and figure), because JMX shows a source's second record only under suffixed names.
 */
public final class HealthMetrics {
  private static final Logger LOG = LoggerFactory.getLogger(HealthMetrics.class);
  static final String SOURCE = "BlockMonitorHealth";
  private static final MetricsInfo NAMESPACE = Interns.info("Namespace", "The namespace the record's checks are about");
  private static final MetricsInfo STATUS = Interns.info("HealthStatus", "Worst check: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN");

  private final Supplier<HealthReport> latest;
  private final List<String> namespaces;
  private final List<String> registered = new ArrayList<>();

  /** @param latest the latest report, such as {@link HealthChecker#latest()} */
  public HealthMetrics(Supplier<HealthReport> latest, List<String> namespaces) {
    this.latest = latest;
    this.namespaces = namespaces;
  }

  /** Publishes every source; a metrics system that refuses one costs a warning, never the monitor. */
  public synchronized void register() {
    register(SOURCE, monitorSource());
    for (String ns : namespaces) {
      register(sourceName(ns), namespaceSource(ns));
    }
  }

  private void register(String name, MetricsSource source) {
    try {
      DefaultMetricsSystem.instance().register(name, "Bulwark block monitor health checks", source);
      registered.add(name);
    } catch (MetricsException e) {
      LOG.warn("Block monitor health metrics {} not published: {}", name, e.getMessage());
    }
  }

  public synchronized void unregister() {
    for (String name : registered) {
      DefaultMetricsSystem.instance().unregisterSource(name);
    }
    registered.clear();
  }

  /** {@code hdfs://ns1} as {@code BlockMonitorHealth-ns1}, {@code hdfs://nn:8020} as {@code BlockMonitorHealth-nn_8020}. */
  static String sourceName(String namespace) {
    String authority = URI.create(namespace).getAuthority();
    return SOURCE + "-" + (authority == null ? namespace : authority).replaceAll("[^A-Za-z0-9._-]", "_");
  }

  MetricsSource monitorSource() {
    MetricsInfo record = Interns.info(SOURCE, "Bulwark block monitor health checks");
    return (collector, all) -> {
      HealthReport report = latest.get();
      MetricsRecordBuilder r = collector.addRecord(record).setContext("dfs").addGauge(STATUS, report.overall().code());
      CheckResult poll = report.find("", HealthRules.LAST_POLL);
      if (poll != null) {
        r.addGauge(Interns.info("LastPollStatus", "last-poll check status code"), poll.severity.code())
            .addGauge(Interns.info("LastPollAgeSeconds", "Seconds since the last complete poll (or the monitor's start)"),
                poll.value);
      }
    };
  }

  MetricsSource namespaceSource(String namespace) {
    MetricsInfo record = Interns.info(sourceName(namespace), "Bulwark block monitor health checks of " + namespace);
    return (MetricsCollector collector, boolean all) -> {
      HealthReport report = latest.get();
      MetricsRecordBuilder r = collector.addRecord(record).setContext("dfs").tag(NAMESPACE, namespace)
          .addGauge(STATUS, report.of(namespace).code());
      for (CheckResult c : report.checks) {
        if (c.namespace.equals(namespace)) {
          String name = camel(c.check);
          r.addGauge(Interns.info(name + "Status", c.check + " check status code"), c.severity.code());
          if (!Double.isNaN(c.value)) {
            r.addGauge(Interns.info(name + "Value", c.check + " figure (a count, or milliseconds for the canary)"), c.value);
          }
        }
      }
    };
  }

  /** {@code dead-datanodes} as {@code DeadDatanodes}. */
  static String camel(String check) {
    StringBuilder out = new StringBuilder();
    for (String part : check.split("-")) {
      out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return out.toString();
  }
}
