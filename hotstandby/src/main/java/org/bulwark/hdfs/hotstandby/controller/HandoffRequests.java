package org.bulwark.hdfs.hotstandby.controller;

import java.io.IOException;

import org.apache.hadoop.ha.ServiceFailedException;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This controller's requests, in ZooKeeper, that the leader hand its NameNode's leadership over to this one (an
 * operator's {@code -failover} to this NameNode). Several callers may wait on one request; it stays until the last of
 * them is done, and one that no caller waits on any more (its removal failed) is a leftover that would keep every
 * other controller from taking over until this one's session ends.
 */
final class HandoffRequests {
  private static final Logger LOG = LoggerFactory.getLogger(HandoffRequests.class);

  private final LeaderElection election;
  private final String nameNodeId;
  /** Guards {@link #waiting} and the removal of the request. */
  private final Object lock = new Object();
  /** Callers between {@link #open} and {@link #close}: while there are none, a request naming this NameNode is a leftover. */
  private int waiting;

  HandoffRequests(LeaderElection election, String nameNodeId) {
    this.election = election;
    this.nameNodeId = nameNodeId;
  }

  /**
   * Asks for the leadership for this NameNode; the caller must {@link #close} once it stops waiting, whether this
   * threw or not.
   *
   * @throws ServiceFailedException when another controller's request stands
   */
  void open(String nameservice) throws IOException {
    synchronized (lock) {
      waiting++;
    }
    boolean requested;
    try {
      requested = election.requestHandoff();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot request the failover in ZooKeeper: " + e.getMessage(), e);
    }
    if (!requested) {
      throw new ServiceFailedException("another manual failover of " + nameservice + " is in progress");
    }
  }

  /** One caller stopped waiting: the last one removes the request (if that fails, {@link #removeLeftover} does). */
  void close() {
    synchronized (lock) {
      waiting--;
      if (waiting == 0) {
        try {
          election.clearHandoff();
        } catch (Exception e) {
          LOG.warn("Could not remove the failover request (the loop removes it later): {}", e.getMessage());
        }
      }
    }
  }

  /** Removes a request naming this NameNode that no caller waits on. */
  void removeLeftover() throws Exception {
    if (!nameNodeId.equals(election.handoffTarget())) {
      return;
    }
    synchronized (lock) {
      if (waiting == 0 && election.clearHandoff()) {
        LOG.info("Removed a leftover manual-failover request naming {}", nameNodeId);
      }
    }
  }
}
