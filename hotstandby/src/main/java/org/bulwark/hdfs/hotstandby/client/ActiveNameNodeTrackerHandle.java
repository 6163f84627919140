package org.bulwark.hdfs.hotstandby.client;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.hotstandby.HotStandbyKeys;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.zookeeper.ZooKeeperAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One proxy provider's use of its nameservice's shared tracker. When no ZooKeeper quorum is
 * configured it tracks nothing, and the provider behaves as the stock configured-list provider.
 */
public final class ActiveNameNodeTrackerHandle {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveNameNodeTrackerHandle.class);
  private static final AtomicBoolean WARNED = new AtomicBoolean();

  private final ActiveNameNodeTracker tracker;
  private boolean closed;

  private ActiveNameNodeTrackerHandle(ActiveNameNodeTracker tracker) {
    this.tracker = tracker;
  }

  public static ActiveNameNodeTrackerHandle open(Configuration conf, String nameservice) {
    ZooKeeperAccess access;
    try {
      access = ZooKeeperAccess.from(conf);
    } catch (IllegalArgumentException | IOException e) {
      if (WARNED.compareAndSet(false, true)) {
        LOG.warn("No ZooKeeper for NameNode discovery ({}); using the configured NameNode list", e.getMessage());
      }
      return new ActiveNameNodeTrackerHandle(null);
    }
    if (HotStandbyKeys.CLIENT_ZK_PRELOAD.get(conf)) {
      ZooKeeperClientPreload.startOnce();
    }
    int sessionTimeout = (int) Math.min(Integer.MAX_VALUE, HotStandbyKeys.ZK_SESSION_TIMEOUT.get(conf));
    return new ActiveNameNodeTrackerHandle(ActiveNameNodeTrackers.acquire(access, HotStandbyKeys.parentZnode(conf),
        nameservice, sessionTimeout, HotStandbyKeys.CLIENT_ZK_IDLE_CLOSE.get(conf),
        HotStandbyKeys.CLIENT_ZK_CONNECT_WAIT.get(conf), HotStandbyKeys.CLIENT_ZK_REFUSAL_BACKOFF.get(conf),
        HotStandbyKeys.CLIENT_ZK_SESSIONS_PER_HOST.get(conf).intValue(), HostFiles.dir(conf),
        HotStandbyKeys.CLIENT_RELAY.get(conf)));
  }

  /** The current record while a ZooKeeper session is open and connected, else null. */
  public ActiveRecord usableRecord() {
    return tracker == null ? null : tracker.usableRecord();
  }

  /**
   * Waits up to {@code timeoutMillis} for the record to name an active NameNode {@code wanted} accepts, opening a
   * session if none is open; null when none does in time or ZooKeeper cannot serve the wait (refused,
   * unreachable, or in the back-off after a refusal).
   */
  public ActiveRecord awaitActive(Predicate<ActiveRecord> wanted, long timeoutMillis) throws InterruptedIOException {
    if (tracker == null) {
      return null;
    }
    try {
      return tracker.await(wanted, timeoutMillis);
    } catch (InterruptedException e) {
      throw new InterruptedIOException("interrupted while waiting for a new active NameNode");
    }
  }

  /**
   * A wait through one failover for the host's JVMs that hold a ZooKeeper session to relay a record naming an
   * active NameNode {@code wanted} accepts, relayed at or after {@code sinceMillis} (wall clock). Without
   * ZooKeeper discovery it only waits. The caller closes it when the failover is over.
   */
  public RelayedRecordWait startRelayedWait(Predicate<ActiveRecord> wanted, long sinceMillis) {
    HostRecordRelay.Wait wait = tracker == null ? HostRecordRelay.none().startWait(sinceMillis, r -> false)
        : tracker.startRelayedWait(sinceMillis, wanted);
    return new RelayedRecordWait(wait);
  }

  /** One failover's wait for a relayed record, in slices; holds a file watch until closed. */
  public static final class RelayedRecordWait implements Closeable {
    private final HostRecordRelay.Wait wait;

    private RelayedRecordWait(HostRecordRelay.Wait wait) {
      this.wait = wait;
    }

    /** Waits up to {@code timeoutMillis} for such a record; returns it, or null when none is in time. */
    public ActiveRecord await(long timeoutMillis) throws InterruptedIOException {
      try {
        return wait.await(timeoutMillis);
      } catch (InterruptedException e) {
        throw new InterruptedIOException("interrupted while waiting for a new active NameNode");
      }
    }

    @Override
    public void close() {
      wait.close();
    }
  }

  /** Whether two addresses name the same NameNode endpoint (host name or IP, and port). */
  public static boolean sameAddress(InetSocketAddress a, InetSocketAddress b) {
    if (a.getPort() != b.getPort()) {
      return false;
    }
    if (a.getHostString().equalsIgnoreCase(b.getHostString())) {
      return true;
    }
    return a.getAddress() != null && a.getAddress().equals(b.getAddress());
  }

  public synchronized void close() {
    if (!closed && tracker != null) {
      ActiveNameNodeTrackers.release(tracker);
    }
    closed = true;
  }
}
