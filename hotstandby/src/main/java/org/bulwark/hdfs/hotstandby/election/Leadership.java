package org.bulwark.hdfs.hotstandby.election;

/**
 * Proof of a won election: the epoch this leader set and the epoch znode's version after it. Every
 * later write of the leader is checked against that version in the same ZooKeeper transaction, so a
 * controller whose leadership has passed to another (which bumps the epoch) can change nothing.
 */
public final class Leadership {
  private final long epoch;
  private final int epochVersion;
  private final long sessionId;

  Leadership(long epoch, int epochVersion, long sessionId) {
    this.epoch = epoch;
    this.epochVersion = epochVersion;
    this.sessionId = sessionId;
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
