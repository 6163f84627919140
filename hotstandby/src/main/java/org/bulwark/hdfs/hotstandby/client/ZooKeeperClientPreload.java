package org.bulwark.hdfs.hotstandby.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.bulwark.hdfs.hotstandby.warmup.ClassPreloader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads and initialises the ZooKeeper client's classes on a background thread when a JVM's first client of a
 * nameservice with ZooKeeper discovery is made.
 *
 * <p>Why: a client opens its ZooKeeper session only at a failover, and the first {@code new ZooKeeper(...)} of a
 * JVM spends about 110 ms of CPU loading and initialising the library. On a worker host running a hundred task
 * JVMs that is seconds of CPU at the very moment the new active NameNode needs it (measured on 2 cores: 22 s
 * of client CPU in a 13 s failover, against 1.1 s under the stock ZKFC and provider, whose clients load
 * nothing then). Ahead of need, at the lowest priority, the first session costs about 15 ms. The class
 * {@code ZooKeeper} itself is left to that session: its initialiser logs the client's environment.
 */
final class ZooKeeperClientPreload {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperClientPreload.class);
  private static final String LIST = "zookeeper-client-classes.txt";
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private ZooKeeperClientPreload() {
  }

  /** Starts the preload unless this JVM has already started it. */
  static void startOnce() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(ZooKeeperClientPreload::run, "bulwark-zookeeper-preload");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  private static void run() {
    try (InputStream in = ZooKeeperClientPreload.class.getResourceAsStream(LIST)) {
      if (in == null) {
        LOG.warn("{} is missing from the class path; ZooKeeper's client classes load at the first failover", LIST);
        return;
      }
      List<String> names = ClassPreloader.readNames(in);
      ClassPreloader.Result r = ClassPreloader.load(names, ZooKeeperClientPreload.class.getClassLoader(), n -> true);
      LOG.debug("ZooKeeper client preload: {}", r);
    } catch (IOException | RuntimeException e) {
      LOG.debug("ZooKeeper client preload stopped: {}", e.toString());
    }
  }
}
