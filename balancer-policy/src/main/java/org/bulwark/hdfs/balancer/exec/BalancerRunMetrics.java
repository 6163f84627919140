package org.bulwark.hdfs.balancer.exec;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator watches while {@code hdfs balancer -policy availability} runs (JMX
 * {@code Hadoop:service=Balancer,name=AvailabilityBalancer}, or any metrics2 sink): the current or
 * last run's progress. One source per JVM, registered once: the stock balancer registers one per
 * iteration under a fixed name and dies on the second (HDFS-16867); with {@code -asService} every
 * round reports through the same source.
 */
public final class BalancerRunMetrics implements MetricsSource {
  static final String NAME = "AvailabilityBalancer";
  private static final Logger LOG = LoggerFactory.getLogger(BalancerRunMetrics.class);
  private static BalancerRunMetrics instance;

  private final MetricsRegistry registry = new MetricsRegistry(NAME).setContext("dfs");
  final MutableGaugeInt iterationRunning = registry.newGauge("IterationRunning", "1 while an iteration runs", 0);
  final MutableGaugeLong bytesLeftToMove = registry.newGauge("BytesLeftToMove",
      "Bytes to move for every DataNode to be within the threshold, at the last classification", 0L);
  final MutableGaugeInt overUtilisedDataNodes = registry.newGauge("OverUtilisedDataNodes",
      "DataNode storage groups above average + threshold at the last classification", 0);
  final MutableGaugeInt underUtilisedDataNodes = registry.newGauge("UnderUtilisedDataNodes",
      "DataNode storage groups below average - threshold at the last classification", 0);
  final MutableGaugeInt iterations = registry.newGauge("Iterations", "Iterations of this run that moved a block", 0);
  final MutableGaugeLong blocksMoved = registry.newGauge("BlocksMoved", "Blocks moved in this run", 0L);
  final MutableGaugeLong blocksMovedAddingRack = registry.newGauge("BlocksMovedAddingRack",
      "Blocks moved in this run onto a rack the block had no replica on", 0L);
  final MutableGaugeLong bytesMoved = registry.newGauge("BytesMoved", "Bytes moved in this run", 0L);

  private BalancerRunMetrics() {
  }

  /** The JVM's source, registered on first use; unregistered (but still counting) if that fails. */
  public static synchronized BalancerRunMetrics get() {
    if (instance == null) {
      instance = new BalancerRunMetrics();
      try {
        DefaultMetricsSystem.instance().register(NAME, "Bulwark availability balancer", instance);
      } catch (MetricsException e) {
        LOG.warn("Balancer metrics not published: {}", e.getMessage());
      }
    }
    return instance;
  }

  void startRun() {
    iterations.set(0);
    blocksMoved.set(0);
    blocksMovedAddingRack.set(0);
    bytesMoved.set(0);
  }

  void recordRun(RunRecord record) {
    iterations.set(record.iterationsWithMoves());
    blocksMoved.set(record.moves());
    blocksMovedAddingRack.set(record.movesAddingRack());
    bytesMoved.set(record.bytesMoved());
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()), all);
  }
}
