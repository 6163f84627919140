package org.bulwark.hdfs.hotstandby.client;

import java.io.Closeable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.zookeeper.ZooKeeperAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's view of one nameservice's active-NameNode record, through a ZooKeeper session held only while
 * a failover is waited for. A worker host runs many client JVMs and ZooKeeper admits {@code maxClientCnxns}
 * connections per address: a session per JVM held for the JVM's life would fill that quota with idle
 * sessions. So the session opens when a caller waits for a new active NameNode, the record is then kept
 * current by a watch, and the session closes once no caller has waited for {@code idleCloseMillis}.
 *
 * <p>A session ZooKeeper does not accept (refused past {@code maxClientCnxns}, or the quorum unreachable)
 * is closed once the connect wait ends (the ZooKeeper client reports no failure before a first connection: its
 * first state change is the connection), without the ZooKeeper client's endless reconnecting, and no new one is tried for
 * {@code refusalBackoffMillis} (jittered): a failover then costs the quorum the few connection attempts a
 * JVM's ZooKeeper client makes within the connect wait and while it closes, not one a second for as long as
 * the JVM lives. The caller finds the active NameNode another
 * way meanwhile: the record as the host's JVMs with a session relay it ({@link HostRecordRelay}), or the
 * NameNodes' own answer.
 */
final class ActiveNameNodeTracker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveNameNodeTracker.class);
  /** Closes idle and refused sessions of every tracker of the JVM; a daemon thread, so it never holds a JVM up. */
  private static final ScheduledExecutorService IDLE_CLOSER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bulwark-zookeeper-idle-close");
    t.setDaemon(true);
    return t;
  });

  private final ZooKeeperAccess access;
  private final String path;
  private final int sessionTimeoutMillis;
  private final long idleCloseNanos;
  private final long connectWaitNanos;
  private final long refusalBackoffMillis;
  private final HostSessionSlots slots;
  private final HostRecordRelay relay;
  private final ScheduledFuture<?> idleCheck;
  /** Given-up sessions whose ZooKeeper client is still closing (and may still dial once). */
  private final AtomicInteger givenUpClosing = new AtomicInteger();
  /** Guards every field below; waiters wait on it. */
  private final Object lock = new Object();
  private Session session;
  private int waiters;
  private long lastUseNanos;
  private long noSessionUntilNanos;
  private boolean closed;
  private volatile ActiveRecord current;
  /** {@link #current} while a session is open, connected and has read it, else null: read on every client call, so no lock. */
  private volatile ActiveRecord usableRecord;

  /** One ZooKeeper session and its watch on the record; events of a session already replaced are ignored. */
  private final class Session {
    final HostSessionSlots.Slot slot;
    final CuratorFramework client;
    final CuratorCache cache;
    final long openedNanos = System.nanoTime();
    boolean connected;
    boolean everConnected;
    boolean initialised;

    Session(HostSessionSlots.Slot slot) {
      this.slot = slot;
      client = access.builder(sessionTimeoutMillis).build();
      cache = CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE);
      cache.listenable().addListener(CuratorCacheListener.builder()
          .forAll((type, oldData, data) -> update(this))
          .forInitialized(() -> {
            synchronized (lock) {
              initialised = true;
            }
            update(this);
          })
          .build());
      client.getConnectionStateListenable().addListener((c, state) -> {
        synchronized (lock) {
          connected = state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED;
          everConnected |= connected;
          refreshUsable();
          lock.notifyAll();
        }
      });
      client.start();
      cache.start();
    }

    void close() {
      try {
        cache.close();
        client.close();
      } finally {
        slot.close();
      }
    }
  }

  ActiveNameNodeTracker(ZooKeeperAccess access, String parent, String nameservice, int sessionTimeoutMillis,
      long idleCloseMillis, long connectWaitMillis, long refusalBackoffMillis, HostSessionSlots slots,
      HostRecordRelay relay) {
    this.access = access;
    this.path = new ZNodes(parent, nameservice).active();
    this.sessionTimeoutMillis = sessionTimeoutMillis;
    this.idleCloseNanos = TimeUnit.MILLISECONDS.toNanos(idleCloseMillis);
    this.connectWaitNanos = TimeUnit.MILLISECONDS.toNanos(connectWait(connectWaitMillis, sessionTimeoutMillis,
        access.servers()));
    this.refusalBackoffMillis = refusalBackoffMillis;
    this.slots = slots;
    this.relay = relay;
    long checkEvery = Math.max(50, idleCloseMillis / 2);
    this.idleCheck = IDLE_CLOSER.scheduleWithFixedDelay(this::closeIfIdle, checkEvery, checkEvery,
        TimeUnit.MILLISECONDS);
  }

  /**
   * The connect wait for a quorum of {@code servers}: a server on a vanished host holds the ZooKeeper client for one
   * connect timeout (the session timeout over the servers) before it tries the next, so the wait is longer by one
   * such timeout per server the quorum can lose and still serve (a minority); else a session that picked those first
   * was given up, and ZooKeeper skipped for the back-off, before a live server was asked. A down server (refusing)
   * costs nothing: the client goes on to the next at once.
   */
  static long connectWait(long connectWaitMillis, int sessionTimeoutMillis, int servers) {
    return connectWaitMillis + (long) ((servers - 1) / 2) * (sessionTimeoutMillis / Math.max(1, servers));
  }

  private void update(Session s) {
    ActiveRecord next = s.cache.get(path).map(d -> {
      try {
        return ActiveRecord.decode(d.getData());
      } catch (IllegalArgumentException e) {
        LOG.warn("Ignoring {}: {}", path, e.getMessage());
        return null;
      }
    }).orElse(null);
    boolean relayIt;
    synchronized (lock) {
      relayIt = session == s && next != null && next.isActive();
      if (session == s) {
        current = next;
        refreshUsable();
        lock.notifyAll();
      }
    }
    if (relayIt) {
      relay.publish(next);
    }
  }

  /** Caller holds the lock. */
  private void refreshUsable() {
    Session s = session;
    usableRecord = s != null && s.connected && s.initialised ? current : null;
  }

  /** The record while it can be trusted (a session open, connected, the record read), else null; takes no lock. */
  ActiveRecord usableRecord() {
    return usableRecord;
  }

  /** Whether a ZooKeeper session is open (tests). */
  boolean sessionOpen() {
    synchronized (lock) {
      return session != null;
    }
  }

  /** Whether a given-up session is still closing (tests: its ZooKeeper client may dial once more until then). */
  boolean givenUpSessionClosing() {
    return givenUpClosing.get() > 0;
  }

  /**
   * Waits up to {@code timeoutMillis} until the record is active and accepted by {@code wanted}; returns it,
   * or null. Opens a session if none is open. Returns null at once when ZooKeeper cannot serve it: when the
   * host's JVMs hold every session slot ({@link HostSessionSlots}), within the back-off after a refused
   * session, when the session is not connected within the connect wait (refused or unreachable; it is then closed), or
   * when an open session lost its connection; nothing would then tell it of a new active NameNode.
   */
  ActiveRecord await(Predicate<ActiveRecord> wanted, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    Session refused = null;
    try {
      synchronized (lock) {
        if (closed || System.nanoTime() - noSessionUntilNanos < 0) {
          return null;
        }
        Session s = session;
        if (s == null) {
          HostSessionSlots.Slot slot = slots.tryAcquire();
          if (slot == null) {
            return null; // the host's JVMs hold as many sessions as they may: ask the NameNodes
          }
          try {
            s = new Session(slot);
          } catch (RuntimeException e) {
            slot.close();
            throw e;
          }
          session = s;
        }
        waiters++;
        try {
          while (true) {
            long now = System.nanoTime();
            lastUseNanos = now;
            if (session != s) {
              return null; // closed meanwhile
            }
            if (!s.everConnected && now - (s.openedNanos + connectWaitNanos) >= 0) {
              refused = giveUp(s);
              return null;
            }
            if (s.everConnected && !s.connected) {
              return null;
            }
            ActiveRecord r = current;
            if (s.connected && s.initialised && r != null && r.isActive() && wanted.test(r)) {
              return r;
            }
            if (deadline - now <= 0) {
              return null;
            }
            long until = s.everConnected ? deadline : Math.min(deadline, s.openedNanos + connectWaitNanos);
            lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - now)));
          }
        } finally {
          waiters--;
        }
      }
    } finally {
      if (refused != null) {
        // Not on the caller's thread: closing a ZooKeeper client that never connected waits for its next
        // failed connection attempt, which a failing-over call must not wait for.
        Session closing = refused;
        givenUpClosing.incrementAndGet();
        IDLE_CLOSER.execute(() -> {
          try {
            closing.close();
          } finally {
            givenUpClosing.decrementAndGet();
          }
        });
      }
    }
  }

  /**
   * A wait for the host's JVMs that hold a session to relay a record that is active, accepted by {@code wanted}
   * and relayed at or after {@code sinceMillis} (wall clock). How a JVM without a session learns of a new
   * active NameNode as soon as those with one do.
   */
  HostRecordRelay.Wait startRelayedWait(long sinceMillis, Predicate<ActiveRecord> wanted) {
    return relay.startWait(sinceMillis, wanted);
  }

  /** Caller holds the lock; returns the session for the caller to close once it released the lock. */
  private Session giveUp(Session s) {
    long backoff = refusalBackoffMillis / 2 + ThreadLocalRandom.current().nextLong(refusalBackoffMillis + 1);
    noSessionUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
    LOG.info("ZooKeeper did not accept a session for {} (refused past maxClientCnxns, or unreachable): "
        + "not trying again for {} ms", path, backoff);
    return detach(s);
  }

  /** Caller holds the lock; the session is no longer this tracker's, for the caller to close. */
  private Session detach(Session s) {
    if (session == s) {
      session = null;
      current = null;
      refreshUsable();
      lock.notifyAll();
    }
    return s;
  }

  private void closeIfIdle() {
    Session idle = null;
    synchronized (lock) {
      if (session != null && waiters == 0 && System.nanoTime() - lastUseNanos - idleCloseNanos >= 0) {
        idle = detach(session);
      }
    }
    if (idle != null) {
      idle.close();
    }
  }

  @Override
  public void close() {
    idleCheck.cancel(false);
    Session open = null;
    synchronized (lock) {
      closed = true;
      if (session != null) {
        open = detach(session);
      }
    }
    if (open != null) {
      open.close();
    }
  }
}
