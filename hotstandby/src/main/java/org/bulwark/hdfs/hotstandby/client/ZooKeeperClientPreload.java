package org.bulwark.hdfs.hotstandby.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.bulwark.hdfs.hotstandby.warmup.ClassPreloader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads and initialises the classes of a first ZooKeeper session (the ZooKeeper client, Curator and its cache)
 * on a background thread when a JVM's first client of a nameservice with ZooKeeper discovery is made.
 *
 * <p>Why: a client opens its ZooKeeper session only at a failover, and a JVM's first session loads about 450
 * classes: 130-190 ms of CPU (measured on this project's 2-core host; 40-60 ms once they are loaded). On a
 * worker host running a hundred task JVMs that is seconds of CPU at the very moment the new active NameNode
 * needs it (measured: 22 s of client CPU in a 13 s failover, against 1.1 s under the stock ZKFC and provider,
 * whose clients load nothing then). Ahead of need, at the lowest priority, it costs nothing at the failover.
 *
 * <p>Classes whose initialiser logs are loaded but not initialised, so that a short-lived command (an
 * {@code hdfs dfs -ls}) prints nothing it did not print before: {@code ZooKeeper} itself (the client's
 * environment, some twenty lines) is not listed, and {@link #LOGGING_INITIALISERS} are only loaded.
 */
final class ZooKeeperClientPreload {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperClientPreload.class);
  private static final String LIST = "zookeeper-client-classes.txt";
  private static final AtomicBoolean STARTED = new AtomicBoolean();
  /**
   * Listed classes whose initialiser logs at INFO, or initialises {@code ZooKeeper} (a subclass): X509Util
   * announces a TLS setting, Curator's Compatibility which ZooKeeper it found.
   */
  static final Set<String> LOGGING_INITIALISERS = Collections.unmodifiableSet(new HashSet<>(Arrays.asList(
      "org.apache.zookeeper.common.X509Util",
      "org.apache.zookeeper.common.ClientX509Util",
      "org.apache.zookeeper.common.QuorumX509Util",
      "org.apache.zookeeper.admin.ZooKeeperAdmin",
      "org.apache.curator.utils.Compatibility")));

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
    try {
      LOG.debug("ZooKeeper client preload: {}", preload());
    } catch (IOException | RuntimeException e) {
      LOG.debug("ZooKeeper client preload stopped: {}", e.toString());
    }
  }

  /** Loads the listed classes on the calling thread, initialising all but {@link #LOGGING_INITIALISERS}; null when the list is missing. */
  static ClassPreloader.Result preload() throws IOException {
    try (InputStream in = ZooKeeperClientPreload.class.getResourceAsStream(LIST)) {
      if (in == null) {
        LOG.warn("{} is missing from the class path; ZooKeeper's client classes load at the first failover", LIST);
        return null;
      }
      List<String> names = ClassPreloader.readNames(in);
      return ClassPreloader.load(names, ZooKeeperClientPreload.class.getClassLoader(),
          n -> !LOGGING_INITIALISERS.contains(n));
    }
  }
}
