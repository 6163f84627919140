package org.bulwark.hdfs.placement;

import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.util.Time;

/**
 * Keeps a {@link TopologySnapshot} of the NameNode's topology no older than the refresh interval, so
 * that a placement decision costs a map lookup, not a walk over every DataNode.
 */
final class RackFillTracker {
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
          current = TopologySnapshot.of(topology);
          takenAt = now;
        }
        snapshot = current;
      }
    }
    return snapshot;
  }
}
