package org.bulwark.hdfs.it.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.bulwark.hdfs.hotstandby.HotStandbyController;
import org.bulwark.hdfs.hotstandby.controller.ControllerState;
import org.bulwark.hdfs.it.cluster.HotStandbyNameservices;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;

/**
 * The demo's HA part: the first nameservice's NameNodes under {@code hdfs hotstandby} controllers
 * ({@link HotStandbyNameservices}), and a failover shown while a client keeps working.
 */
final class DemoHotStandby implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final BulwarkMiniCluster cluster;
  private final PrintStream out;
  private final HotStandbyNameservices controllers;

  private DemoHotStandby(BulwarkMiniCluster cluster, PrintStream out, HotStandbyNameservices controllers) {
    this.cluster = cluster;
    this.out = out;
    this.controllers = controllers;
  }

  /** HA with {@code nameNodes} NameNodes, left standby for the controllers to elect one. */
  static void configure(BulwarkMiniCluster.Builder builder, int nameNodes) throws IOException {
    HotStandbyNameservices.configure(builder, 1, nameNodes);
  }

  /** Starts one controller per NameNode and waits for the election. */
  static DemoHotStandby start(BulwarkMiniCluster cluster, PrintStream out) throws IOException, InterruptedException {
    HotStandbyNameservices controllers = HotStandbyNameservices.start(cluster);
    out.printf("HA: %d NameNodes under hdfs hotstandby (ZooKeeper %s); nn%d elected active%n",
        cluster.nameNodesPerNameservice(), cluster.zooKeeperConnectString(), controllers.active(0) + 1);
    return new DemoHotStandby(cluster, out, controllers);
  }

  /** Kills the active NameNode while a client lists /demo/data in a loop; reports what the client saw. */
  void showFailover() throws Exception {
    int active = controllers.awaitActive(0, -1);
    out.printf("%n$ kill the active NameNode nn%d while a client lists /demo/data in a loop%n", active + 1);
    AtomicLong served = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    String[] firstFailure = new String[1];
    AtomicLong lastSuccess = new AtomicLong(System.nanoTime());
    AtomicLong longestGap = new AtomicLong();
    long[] killedAt = new long[1];
    FileSystem fs = cluster.fs();
    AtomicBoolean running = new AtomicBoolean(true);
    Thread client = new Thread(() -> {
      while (running.get()) {
        try {
          fs.listStatus(new Path("/demo/data"));
          long now = System.nanoTime();
          longestGap.accumulateAndGet(now - lastSuccess.getAndSet(now), Math::max);
          served.incrementAndGet();
        } catch (IOException e) {
          if (!running.get()) {
            break;
          }
          if (failed.incrementAndGet() == 1) {
            firstFailure[0] = e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0];
          }
        }
      }
    }, "demo-client");
    client.start();
    try {
      Await.until("the client is served", WAIT, () -> served.get() > 10);
      longestGap.set(0);
      killedAt[0] = System.nanoTime();
      cluster.mini().shutdownNameNode(active);
      int next = controllers.awaitActive(0, active);
      double failoverMs = (System.nanoTime() - killedAt[0]) / 1e6;
      long before = served.get();
      Await.until("the client is served by the new active", WAIT, () -> served.get() > before + 10);
      HotStandbyController c = controllers.controller(0, next);
      out.printf("nn%d active %.0f ms after the kill (its controller: detection %d ms, fencing %d ms, "
          + "transitionToActive %d ms)%n", next + 1, failoverMs, c.metrics().lastDetectionMillis(),
          c.metrics().lastFencingMillis(), c.metrics().lastTransitionMillis());
    } finally {
      // Stopped by a flag, not an interrupt: an interrupted call would count as a failed one.
      running.set(false);
      client.join(30_000);
    }
    out.printf("The client carried on: %,d listings served, %d failed%s, longest wait between two %.0f ms%n",
        served.get(), failed.get(), firstFailure[0] == null ? "" : " (the first: " + firstFailure[0] + ")",
        longestGap.get() / 1e6);
    cluster.mini().restartNameNode(active, true);
    Await.until("the restarted NameNode's controller stands by", WAIT,
        () -> controllers.controller(0, active).state() == ControllerState.STANDBY);
    out.printf("nn%d restarted: standby, ready for the next failover%n", active + 1);
  }

  /** The NameNode the controllers made active. */
  NameNode activeNameNode() throws TimeoutException, InterruptedException {
    return controllers.activeNameNode(0);
  }

  static String httpAddress(NameNode nn) {
    InetSocketAddress a = nn.getHttpAddress();
    return a.getHostString() + ":" + a.getPort();
  }

  @Override
  public void close() {
    controllers.close();
  }
}
