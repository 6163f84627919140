package org.bulwark.hdfs.hotstandby.client;

import java.io.Closeable;
import java.util.concurrent.TimeUnit;
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
 * A client's view of one nameservice's active-NameNode record: read once, then kept current by a
 * ZooKeeper watch, so finding the active NameNode costs no round trip. Callers can wait for the
 * record to name another NameNode, which is how a client rides through a failover without the
 * back-off sleeps of walking the configured list.
 */
final class ActiveNameNodeTracker implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveNameNodeTracker.class);

  private final CuratorFramework client;
  private final CuratorCache cache;
  private final String path;
  private final Object changed = new Object();
  private volatile ActiveRecord current;
  private volatile boolean connected;
  private volatile boolean initialised;

  ActiveNameNodeTracker(ZooKeeperAccess access, String parent, String nameservice, int sessionTimeoutMillis) {
    this.path = new ZNodes(parent, nameservice).active();
    this.client = access.builder(sessionTimeoutMillis).build();
    this.cache = CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE);
    cache.listenable().addListener(CuratorCacheListener.builder()
        .forAll((type, oldData, data) -> update())
        .forInitialized(() -> {
          initialised = true;
          update();
        })
        .build());
    client.getConnectionStateListenable().addListener((c, state) -> {
      connected = state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED;
      signal();
    });
  }

  void start() {
    client.start();
    cache.start();
  }

  private void update() {
    ActiveRecord next = cache.get(path).map(d -> {
      try {
        return ActiveRecord.decode(d.getData());
      } catch (IllegalArgumentException e) {
        LOG.warn("Ignoring {}: {}", path, e.getMessage());
        return null;
      }
    }).orElse(null);
    current = next;
    signal();
  }

  private void signal() {
    synchronized (changed) {
      changed.notifyAll();
    }
  }

  /** Whether the record can be trusted now: connected to ZooKeeper and read at least once. */
  boolean usable() {
    return connected && initialised;
  }

  /** The record as last seen, or null. */
  ActiveRecord current() {
    return current;
  }

  /**
   * Waits up to {@code timeoutMillis} until the tracker is usable and the record is active and
   * accepted by {@code wanted}; returns it, or null on timeout. Without a ZooKeeper connection it returns
   * null at once: nothing would tell it of a new active NameNode, and the caller then walks the configured
   * list as the stock provider does, rather than after a wait (a client whose session ZooKeeper refused,
   * past {@code maxClientCnxns}, or ZooKeeper down).
   */
  ActiveRecord await(Predicate<ActiveRecord> wanted, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    synchronized (changed) {
      while (true) {
        if (!connected) {
          return null;
        }
        ActiveRecord r = current;
        if (usable() && r != null && r.isActive() && wanted.test(r)) {
          return r;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return null;
        }
        changed.wait(left);
      }
    }
  }

  @Override
  public void close() {
    cache.close();
    client.close();
  }
}
