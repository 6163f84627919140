package org.bulwark.hdfs.placement;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.bulwark.hdfs.placement.rules.FallbackCause;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Placements that fell back from a policy's rules, counted by cause. Operators watch them on the
 * NameNode (JMX {@code Hadoop:service=NameNode,name=BulwarkPlacement-<policy class>}, or any metrics2
 * sink): {@code Fallbacks} in all and {@code Fallbacks<Cause>} for each {@link FallbackCause}, since the
 * NameNode started. A NameNode builds more than one instance of a policy class (and the balancer builds
 * its own), so the published source is one per class and JVM, which every instance counts into; each
 * instance also keeps its own counts, which tests read.
 */
final class PlacementMetrics {
  private static final Map<String, ClassSource> SOURCES = new ConcurrentHashMap<>();

  private final AtomicLongArray own = new AtomicLongArray(FallbackCause.values().length);
  private final ClassSource shared;

  PlacementMetrics(String policyName) {
    this.shared = SOURCES.computeIfAbsent(policyName, ClassSource::new);
  }

  /**
   * Publishes the class's source unless the metrics system holds it already (a metrics system shut
   * down and started again, as between MiniDFSClusters in one JVM, has forgotten it); a refused source
   * never costs a placement.
   */
  PlacementMetrics register() {
    shared.publish();
    return this;
  }

  void count(FallbackCause cause) {
    own.incrementAndGet(cause.ordinal());
    shared.counts.incrementAndGet(cause.ordinal());
  }

  /** This instance's fallbacks for {@code cause}. */
  long fallbacks(FallbackCause cause) {
    return own.get(cause.ordinal());
  }

  /** This instance's fallbacks in all. */
  long total() {
    return sum(own);
  }

  private static long sum(AtomicLongArray counts) {
    long sum = 0;
    for (int i = 0; i < counts.length(); i++) {
      sum += counts.get(i);
    }
    return sum;
  }

  /** The metrics2 source of one policy class in this JVM. */
  private static final class ClassSource implements MetricsSource {
    private static final Logger LOG = LoggerFactory.getLogger(PlacementMetrics.class);
    private static final FallbackCause[] CAUSES = FallbackCause.values();
    private static final MetricsInfo TOTAL = Interns.info("Fallbacks", "Blocks placed outside the policy's rules");
    private static final MetricsInfo[] BY_CAUSE = new MetricsInfo[CAUSES.length];

    static {
      for (FallbackCause c : CAUSES) {
        BY_CAUSE[c.ordinal()] = Interns.info("Fallbacks" + c.metricName(),
            "Blocks placed outside the rules because: " + c.words());
      }
    }

    private final MetricsInfo record;
    private final AtomicLongArray counts = new AtomicLongArray(CAUSES.length);

    ClassSource(String policyName) {
      this.record = Interns.info("BulwarkPlacement-" + policyName, "Bulwark placement fallbacks of " + policyName);
    }

    synchronized void publish() {
      MetricsSystem system = DefaultMetricsSystem.instance();
      if (system.getSource(record.name()) != null) {
        return;
      }
      try {
        system.register(record.name(), record.description(), this);
      } catch (MetricsException e) {
        LOG.warn("Placement metrics {} not published: {}", record.name(), e.getMessage());
      }
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
      MetricsRecordBuilder b = collector.addRecord(record).setContext("dfs").addCounter(TOTAL, sum(counts));
      for (FallbackCause c : CAUSES) {
        b.addCounter(BY_CAUSE[c.ordinal()], counts.get(c.ordinal()));
      }
    }
  }
}
