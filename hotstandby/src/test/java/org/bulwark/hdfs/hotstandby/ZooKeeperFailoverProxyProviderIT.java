package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.namenode.ha.NameNodeHAProxyFactory;
import org.bulwark.hdfs.hotstandby.controller.ControllerState;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FileContent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Clients that find the active NameNode through ZooKeeper, across failovers, with and without ZooKeeper. */
@Tag("compat")
class ZooKeeperFailoverProxyProviderIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final long FILE = 12L << 20;

  private static void zooKeeperProvider(Configuration conf) {
    conf.set("dfs.client.failover.proxy.provider.ns1", ZooKeeperFailoverProxyProvider.class.getName());
  }

  /** Writes a file through {@code fs}, running {@code midway} once half of it is written. */
  private static void writeWith(FileSystem fs, Path path, Runnable midway) throws IOException {
    OutputStream raw = ((DistributedFileSystem) fs).createFile(path).overwrite(true).blockSize(1 << 20).build();
    OutputStream out = new FilterOutputStream(raw) {
      private long written;
      private boolean ran;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        written += len;
        if (!ran && written >= FILE / 2) {
          ran = true;
          midway.run();
        }
      }
    };
    try {
      FileContent.write(path.toUri().getPath(), FILE, out);
    } catch (IOException | RuntimeException e) {
      // A failed stream rethrows its first error on close: keep that one, not a self-suppression error.
      try {
        out.close();
      } catch (IOException again) {
        if (again != e) {
          e.addSuppressed(again);
        }
      }
      throw e;
    }
    out.close();
  }

  private static long verify(FileSystem fs, Path path) throws IOException {
    try (InputStream in = fs.open(path)) {
      return FileContent.verify(path.toUri().getPath(), FILE, in);
    }
  }

  @Test
  void fileWrittenAcrossAFailoverReadsBackIntact() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(3, ZooKeeperFailoverProxyProviderIT::zooKeeperProvider,
        c -> { })) {
      ha.startControllers();
      int first = ha.awaitActive(WAIT);
      FileSystem fs = ha.cluster.fs();
      Path path = new Path("/across-failover");
      writeWith(fs, path, () -> ha.killNameNode(first));
      int second = ha.awaitActiveOtherThan(first, WAIT);
      assertTrue(second != first);
      assertEquals(FILE, verify(fs, path));
      // A fresh client finds the new active straight from ZooKeeper.
      try (FileSystem fresh = FileSystem.newInstance(URI.create("hdfs://ns1"), ha.cluster.conf())) {
        assertEquals(FILE, verify(fresh, path));
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  @Test
  void withoutZooKeeperItWalksTheConfiguredListAsTheStockProviderDoes() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, ZooKeeperFailoverProxyProviderIT::zooKeeperProvider,
        c -> { })) {
      ha.startControllers();
      int first = ha.awaitActive(WAIT);
      Configuration noZooKeeper = ha.cluster.conf();
      noZooKeeper.set("bulwark.hotstandby.zookeeper.quorum", "127.0.0.1:1");
      noZooKeeper.set("bulwark.hotstandby.client.failover-wait", "200ms");
      try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://ns1"), noZooKeeper)) {
        Path path = new Path("/no-zookeeper");
        writeWith(fs, path, () -> ha.killNameNode(first));
        ha.awaitActiveOtherThan(first, WAIT);
        assertEquals(FILE, verify(fs, path));
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  @Test
  void observerReadsAndFailoverWritesWhenWrapped() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(3, conf -> {
      conf.set("dfs.client.failover.proxy.provider.ns1", ZooKeeperObserverReadProxyProvider.class.getName());
      conf.setBoolean("dfs.namenode.state.context.enabled", true);
      // The embedded cluster shares edits through a directory, so an observer sees only finished
      // segments: roll them every second, not every two minutes, or reads wait for it to catch up.
      conf.set("dfs.ha.log-roll.period", "1s");
    }, c -> { })) {
      // nn3 serves reads as an observer; its controller stays out of the election.
      ha.cluster.mini().transitionToObserver(2);
      ha.startControllers();
      int first = ha.awaitActive(WAIT);
      assertTrue(first != 2, "an observer is never elected");
      Await.until("nn3's controller sees its observer", WAIT,
          () -> ha.controller(2).state() == ControllerState.OBSERVER);
      // Metadata only: writes go through the failover provider, reads to the observer.
      FileSystem fs = ha.cluster.fs();
      for (int i = 0; i < 5; i++) {
        fs.mkdirs(new Path("/with-observer/before-" + i));
      }
      ha.killNameNode(first);
      for (int i = 0; i < 5; i++) {
        fs.mkdirs(new Path("/with-observer/after-" + i));
      }
      assertEquals(1 - first, ha.awaitActiveOtherThan(first, WAIT));
      OwnWriteVisibility.afterWrite(fs);
      assertEquals(10, fs.listStatus(new Path("/with-observer")).length);
      assertTrue(ha.cluster.mini().getNameNode(2).isObserverState(), "nn3 is still an observer");
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /**
   * Every call of a client goes through {@code getProxy}: between failovers it answers without the provider's
   * lock (here held by another thread throughout) and with the same proxy.
   */
  @Test
  void getProxyTakesNoLockWhileTheActiveNameNodeStaysTheSame() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, ZooKeeperFailoverProxyProviderIT::zooKeeperProvider,
        c -> { })) {
      ha.startControllers();
      ha.awaitActive(WAIT);
      ZooKeeperFailoverProxyProvider<ClientProtocol> provider = new ZooKeeperFailoverProxyProvider<>(
          ha.cluster.conf(), URI.create("hdfs://ns1"), ClientProtocol.class, new NameNodeHAProxyFactory<>());
      try {
        Object first = provider.getProxy();
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = MonitorHold.hold(provider, release);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
          Object again = caller.submit(() -> {
            Object last = null;
            for (int i = 0; i < 10_000; i++) {
              last = provider.getProxy();
            }
            return last;
          }).get(30, TimeUnit.SECONDS);
          assertTrue(first == again, "the same proxy, without waiting for the held lock");
        } finally {
          release.countDown();
          holder.join();
          caller.shutdownNow();
        }
      } finally {
        provider.close();
      }
    }
  }

  /**
   * A client that cannot use ZooKeeper learns of a new active NameNode only by asking the NameNodes; while none
   * is active it asks ever less often (a 3 s wait: at most 10 rounds of questions, 61 at a steady 50 ms), and
   * still finds the one that becomes active midway. No controllers run: the test makes a NameNode active.
   */
  @Test
  void withoutZooKeeperItAsksTheNameNodesEverLessOftenAndFindsTheNewActive() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(3, ZooKeeperFailoverProxyProviderIT::zooKeeperProvider,
        c -> { })) {
      Configuration conf = ha.cluster.conf();
      conf.set("bulwark.hotstandby.zookeeper.quorum", "127.0.0.1:1");
      conf.set("bulwark.hotstandby.client.failover-wait", "3s");
      conf.setBoolean("dfs.client.failover.random.order", false); // the list in order, so the stock walk is known
      HaStateCounting factory = new HaStateCounting();
      ZooKeeperFailoverProxyProvider<ClientProtocol> provider = new ZooKeeperFailoverProxyProvider<>(
          conf, URI.create("hdfs://ns1"), ClientProtocol.class, factory);
      try {
        assertTrue(provider.getProxy().proxyInfo.endsWith(":" + rpcPort(ha, 0)), provider.getProxy().proxyInfo);
        provider.performFailover(provider.getProxy().proxy);
        int asked = factory.questions.get();
        // The first round asks nn1 and nn2 (nn0 failed), each later one all three (the failed one may be the one
        // taking over). The pauses are at least 25, 50, 100, 200, 400 ms and then 500 (half their nominal length):
        // at most 10 rounds start within 3 s. None is active, so the wait runs out and the provider moves on as the
        // stock one does, to the next NameNode in the list. (CI, 2026-11-30: 26 questions, over a bound of 24 that
        // counted two a round.)
        assertTrue(asked >= 2 * 4 && asked <= 2 + 3 * 9, asked + " questions in a 3 s wait");
        assertTrue(provider.getProxy().proxyInfo.endsWith(":" + rpcPort(ha, 1)), provider.getProxy().proxyInfo);

        // nn1 fails: the stock walk would go to nn2; nn0 becomes active a second into the wait.
        Thread failover = new Thread(() -> provider.performFailover(provider.getProxy().proxy));
        failover.start();
        Thread.sleep(1000);
        ha.cluster.mini().transitionToActive(0);
        failover.join(30_000);
        assertFalse(failover.isAlive(), "the failover ended");
        assertTrue(provider.getProxy().proxyInfo.endsWith(":" + rpcPort(ha, 0)), provider.getProxy().proxyInfo);
      } finally {
        provider.close();
      }
    }
  }

  private static int rpcPort(HotStandbyCluster ha, int nameNode) {
    return ha.cluster.mini().getNameNode(nameNode).getNameNodeAddress().getPort();
  }
}
