package org.bulwark.hdfs.placement;

import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link TopologySnapshot} of the NameNode's topology no older than the refresh interval, so
 * that a placement decision costs a map lookup, not a walk over every DataNode.
 */
final class RackFillTracker {
  private static final Logger LOG = LoggerFactory.getLogger(RackFillTracker.class);
  private final long refreshMillis;
  private volatile TopologySnapshot current;
  private volatile long takenAt;

  RackFillTracker(long refreshMillis) {
    this.refreshMillis = refreshMillis;
  }

  TopologySnapshot get(NetworkTopology topology) {
    TopologySnapshot snapshot = current;
    long now = Time.monotonicNow();
    if (snapshot == null || now - takenAt >= refreshMillis) {
      synchronized (this) {
        if (current == null || now - takenAt >= refreshMillis) {
          try {
            current = TopologySnapshot.of(topology);
          } catch (RuntimeException e) {
            if (current == null) {
              throw e;
            }
            // The topology kept changing under every walk: decide on the previous snapshot this time.
            LOG.warn("Could not walk the topology for a fresh rack fill; keeping the one taken {} ms ago", now - takenAt, e);
          }
          takenAt = now;
        }
        snapshot = current;
      }
    }
    return snapshot;
  }
}
