package org.bulwark.hdfs.hotstandby.warmup;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ServicePlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NameNode plugin ({@code dfs.namenode.plugins}) that makes a standby's first activation faster. A
 * standby that has never been active loads about 540 classes during its first {@code transitionToActive}
 * and the first client calls it serves then (the client and journal protocols' protocol-buffer messages,
 * the edit log's writers), and that loading is on the failover's critical path. This plugin loads those
 * classes on a background thread right after the NameNode starts (a few seconds of one core, once), runs
 * the one costly static initialiser of them that has no other effect ({@link ClassPreloader}), and
 * compiles the configuration parser the transition runs once per JournalNode ({@link ConfigurationReloads}),
 * then makes one client call to its own NameNode, so the RPC server sets up the client protocol before
 * the clients' first calls meet the transition ({@link ClientProtocolPrimer} says why; our controller
 * does the same from outside, the stock ZKFC does not).
 * Measured in the failover benchmark's process mode (2026-11-27, kill -9, 20 failovers per run, each once
 * the standby's warm-up was over): the new active's {@code transitionToActive} took 276-320 ms at the median
 * against 399 with class loading alone (301 without the configuration parses). The list
 * ({@code active-state-classes.txt}) was recorded on Hadoop 3.4.3; on another line the names it lacks are
 * skipped. It changes nothing the NameNode does.
 */
public final class ActiveStateWarmup implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveStateWarmup.class);
  static final String CLASS_LIST = "active-state-classes.txt";
  /** Parses after which one more took no less time (30 ms the second, 6 ms from about the 30th, measured here). */
  static final int CONFIGURATION_RELOADS = 30;

  private final CountDownLatch done = new CountDownLatch(1);
  private volatile ClassPreloader.Result result;
  private Thread thread;
  /** An HA NameNode's configuration and client RPC address; null otherwise (nothing to prime). */
  private Configuration conf;
  private InetSocketAddress clientRpcAddress;

  @Override
  public synchronized void start(Object service) {
    if (thread != null) {
      return;
    }
    if (service instanceof NameNode) {
      NameNode nameNode = (NameNode) service;
      Configuration c = nameNode.getConf();
      if (HAUtil.isHAEnabled(c, DFSUtil.getNamenodeNameServiceId(c))) { // else it never transitions
        conf = c;
        clientRpcAddress = nameNode.getNameNodeAddress();
      }
    }
    thread = new Thread(this::warm, "bulwark-active-state-warmup");
    thread.setDaemon(true);
    thread.start();
  }

  /** The recorded class names packaged beside this class. */
  static List<String> classList() throws IOException {
    try (InputStream in = ActiveStateWarmup.class.getResourceAsStream(CLASS_LIST)) {
      if (in == null) {
        throw new IOException(CLASS_LIST + " is missing from the hotstandby jar");
      }
      return ClassPreloader.readNames(in);
    }
  }

  private void warm() {
    try {
      result = ClassPreloader.load(classList(), ActiveStateWarmup.class.getClassLoader());
      long start = System.nanoTime();
      int parses = ConfigurationReloads.run(CONFIGURATION_RELOADS);
      long parsed = System.nanoTime();
      if (clientRpcAddress != null && !Thread.currentThread().isInterrupted()) {
        ClientProtocolPrimer.callOnce(conf, clientRpcAddress);
      }
      // The last line of a warm-up: what waits for it being over (the failover benchmark) reads it.
      LOG.info("Active-state warm-up: {}; configuration parsed {} times in {} ms", result, parses,
          (parsed - start) / 1_000_000);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Active-state warm-up failed; the first activation loads its classes itself", e);
    } finally {
      done.countDown();
    }
  }

  /** What the warm-up loaded once it is over, or null (tests). */
  ClassPreloader.Result awaitResult(long timeoutMillis) throws InterruptedException {
    return done.await(timeoutMillis, TimeUnit.MILLISECONDS) ? result : null;
  }

  @Override
  public synchronized void stop() {
    if (thread != null) {
      thread.interrupt();
    }
  }

  @Override
  public void close() {
    stop();
  }
}
