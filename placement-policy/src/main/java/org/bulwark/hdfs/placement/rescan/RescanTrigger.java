package org.bulwark.hdfs.placement.rescan;

/**
 * Decides when an active NameNode should judge every block's placement again because its topology grew.
 *
 * <p>Bulwark's policies require as many racks and datacenters as a block could span on the DataNodes in service
 * now. A block written while a rack or a datacenter was away is judged against the smaller topology, found
 * well placed, and never queued; when the DataNodes come back nothing looks at it again until the next
 * failover or restart (Hadoop re-checks every block only when a single-rack cluster first gains a second
 * rack). So the NameNode keeps a baseline, the shape its last full scan judged against: the shape when it
 * began populating its queues (the smaller of the shape just before and just after, since its own scan ran in
 * between), lowered whenever racks or datacenters leave. Once the topology has grown past the baseline and held
 * still for the settle time (a returning datacenter's DataNodes register over seconds), a rescan is due, at most
 * one per minimum interval (each walks every block, as a failover's does).
 *
 * <p>Not thread-safe: one checking thread calls {@link #due}.
 */
final class RescanTrigger {
  private final long settleMillis;
  private final long minIntervalMillis;

  private TopologyShape baseline;
  private TopologyShape last;
  private long lastChangeAt;
  private long lastRescanAt = Long.MIN_VALUE;

  RescanTrigger(long settleMillis, long minIntervalMillis) {
    this.settleMillis = settleMillis;
    this.minIntervalMillis = minIntervalMillis;
  }

  /**
   * One check: whether the NameNode populates its reconstruction queues (is active and out of safe mode), the
   * shape of its in-service topology now, and the time in milliseconds. True when a rescan is due; the caller
   * runs it, and the baseline becomes {@code now}'s shape.
   */
  boolean due(boolean populatingQueues, TopologyShape shape, long nowMillis) {
    TopologyShape before = last;
    if (before == null || !before.equals(shape)) {
      lastChangeAt = nowMillis;
    }
    last = shape;
    if (!populatingQueues) {
      baseline = null;
      return false;
    }
    if (baseline == null) {
      baseline = before == null ? shape : before.min(shape);
      return false;
    }
    baseline = baseline.min(shape);
    if (!shape.exceeds(baseline) || nowMillis - lastChangeAt < settleMillis
        || (lastRescanAt != Long.MIN_VALUE && nowMillis - lastRescanAt < minIntervalMillis)) {
      return false;
    }
    baseline = shape;
    lastRescanAt = nowMillis;
    return true;
  }

  /** The shape the last full scan judged against, or null while the NameNode does not populate its queues. */
  TopologyShape baseline() {
    return baseline;
  }
}
