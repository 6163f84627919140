package org.bulwark.hdfs.hotstandby.election;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Proof of a won election: the epoch this leader set and the epoch znode's version after it. Every
 * later write of the leader is checked against that version in the same ZooKeeper transaction, so a
 * controller whose leadership has passed to another (which bumps the epoch) can change nothing. It
 * also carries what the fencing breadcrumb named when the lock was taken: the other NameNodes that may
 * still be active, to fence before this leader's NameNode becomes active.
 */
public final class Leadership {
  private final long epoch;
  private final int epochVersion;
  private final long sessionId;
  private final Set<String> toFence;

  Leadership(long epoch, int epochVersion, long sessionId, Set<String> toFence) {
    this.epoch = epoch;
    this.epochVersion = epochVersion;
    this.sessionId = sessionId;
    this.toFence = Collections.unmodifiableSet(new TreeSet<>(toFence));
  }

  /** Other NameNodes the breadcrumb named when this leadership began: fence each before activating. */
  public Set<String> toFence() {
    return toFence;
  }

  public long epoch() {
    return epoch;
  }

  int epochVersion() {
    return epochVersion;
  }

  long sessionId() {
    return sessionId;
  }

  @Override
  public String toString() {
    return "epoch " + epoch;
  }
}
