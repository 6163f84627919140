package org.bulwark.hdfs.hotstandby.controller;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator watches on a controller (JMX {@code Hadoop:service=HotStandby,name=HotStandbyController-<ns>-<nn>},
 * or any metrics2 sink): its state, how often it made its NameNode active, and how long the last
 * failover it led took in each phase.
 */
public final class ControllerMetrics implements MetricsSource {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerMetrics.class);

  private final String sourceName;
  private final MetricsRegistry registry;
  private volatile ControllerState state = ControllerState.INITIALIZING;
  final MutableGaugeLong active;
  final MutableCounterLong failovers;
  final MutableCounterLong fencingFailures;
  final MutableCounterLong gracefulFencings;
  final MutableCounterLong methodFencings;
  final MutableCounterLong exitsWitnessed;
  final MutableCounterLong reconcileErrors;
  final MutableGaugeLong epoch;
  final MutableGaugeLong lastDetectionMillis;
  final MutableGaugeLong lastFencingMillis;
  final MutableGaugeLong lastTransitionMillis;
  final MutableGaugeLong lastFailoverMillis;
  private boolean registered;

  public ControllerMetrics(String nameservice, String nameNodeId) {
    this.sourceName = "HotStandbyController-" + nameservice + "-" + nameNodeId;
    this.registry = new MetricsRegistry(sourceName).setContext("dfs")
        .tag("Nameservice", "Nameservice id", nameservice)
        .tag("NameNode", "NameNode id", nameNodeId);
    active = registry.newGauge("Active", "1 while this controller leads and its NameNode is active", 0L);
    failovers = registry.newCounter("Failovers", "Times this controller made its NameNode active", 0L);
    fencingFailures = registry.newCounter("FencingFailures", "Elections won but given up because fencing failed", 0L);
    gracefulFencings = registry.newCounter("GracefulFencings",
        "Previous active NameNodes that went to standby when this controller asked, before it made its own active", 0L);
    methodFencings = registry.newCounter("MethodFencings",
        "Previous active NameNodes fenced by dfs.ha.fencing.methods before this controller made its own active", 0L);
    exitsWitnessed = registry.newCounter("ExitsWitnessed",
        "Times this controller gave up the leadership after seeing its NameNode's process exit: nothing to fence", 0L);
    reconcileErrors = registry.newCounter("DecisionErrors",
        "Decisions that failed with an error (ZooKeeper or NameNode unreachable) and were retried after a back-off", 0L);
    epoch = registry.newGauge("Epoch", "Leader epoch of the last election this controller won", 0L);
    lastDetectionMillis = registry.newGauge("LastFailoverDetectionMs",
        "Last failover led: from the previous active's failure (as its controller saw it) to taking the lock; 0 if unknown", 0L);
    lastFencingMillis = registry.newGauge("LastFailoverFencingMs", "Last failover led: fencing the previous active", 0L);
    lastTransitionMillis = registry.newGauge("LastFailoverTransitionMs", "Last failover led: transitionToActive", 0L);
    lastFailoverMillis = registry.newGauge("LastFailoverTotalMs",
        "Last failover led: from taking the lock to the active record published", 0L);
  }

  public synchronized void register() {
    try {
      DefaultMetricsSystem.instance().register(sourceName, "Bulwark hot standby controller", this);
      registered = true;
    } catch (MetricsException e) {
      LOG.warn("Controller metrics not published: {}", e.getMessage());
    }
  }

  public synchronized void unregister() {
    if (registered) {
      DefaultMetricsSystem.instance().unregisterSource(sourceName);
      registered = false;
    }
  }

  void state(ControllerState s) {
    state = s;
    active.set(s == ControllerState.ACTIVE ? 1 : 0);
  }

  public ControllerState state() {
    return state;
  }

  public long decisionErrors() {
    return reconcileErrors.value();
  }

  public long failovers() {
    return failovers.value();
  }

  public long gracefulFencings() {
    return gracefulFencings.value();
  }

  public long methodFencings() {
    return methodFencings.value();
  }

  public long lastDetectionMillis() {
    return lastDetectionMillis.value();
  }

  public long lastFencingMillis() {
    return lastFencingMillis.value();
  }

  public long lastTransitionMillis() {
    return lastTransitionMillis.value();
  }

  public long lastFailoverMillis() {
    return lastFailoverMillis.value();
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()).tag(Interns.info("State", "Controller state"), state.name()), all);
  }
}
