package org.bulwark.hdfs.hotstandby.controller;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/** The decision thread against a real ZooKeeper (Curator's {@link TestingServer}), with no NameNode behind it. */
class ControllerLoopTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /**
   * An Error on the decision thread (here an OutOfMemoryError right after it took the lock) must not leave the lock
   * with a session nobody decides for: the loop stops and hands the Error to its owner, which ends the session (as
   * {@code HotStandbyController} does, before halting), so the lock goes at once. Before, the thread died unheard of
   * while the session, and the lock, lived on.
   */
  @Test
  void anErrorOnTheDecisionThreadIsHandedOnSoTheLockGoes() throws Exception {
    try (TestingServer server = new TestingServer(true);
        CuratorFramework watcher = client(server)) {
      ZNodes paths = new ZNodes("/bulwark-ha", "ns1");
      CuratorFramework client = client(server);
      ControllerLoop[] holder = new ControllerLoop[1];
      LeaderElection election = new LeaderElection(client, paths, "nn1", () -> {
        if (holder[0] != null) {
          holder[0].onElectionChange();
        }
      });
      election.start();
      Configuration conf = new Configuration(false);
      LocalNameNode nn = new LocalNameNode(conf, "ns1", "nn1", new InetSocketAddress("127.0.0.1", 1), "127.0.0.1:1",
          null, null, 1000);
      ControllerLoop loop = new ControllerLoop(new ControllerLoop.Settings(0, Map.of("nn1", 0), false, 0, 0, 1000, 4000), nn,
          election, new PreviousActiveFencer(conf, "ns1", 1000, PreviousActiveFencer.Silence.UNKNOWN),
          new ControllerMetrics("ns1", "nn1"));
      holder[0] = loop;
      Error thrown = new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource "
          + "limits reached");
      loop.onActivationStep(step -> {
        if (step == Activation.Step.LOCKED) {
          throw thrown;
        }
      });
      AtomicReference<Throwable> told = new AtomicReference<>();
      loop.onFatalError(error -> {
        told.set(error);
        election.close();
        client.close();
      });
      loop.onConnectionState(ConnectionState.CONNECTED);
      loop.start();
      loop.onHealth(new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.STANDBY, null));
      Await.until("the Error handed on", WAIT, () -> told.get() != null);
      assertSame(thrown, told.get());
      Await.until("the lock gone with the session", WAIT, () -> watcher.checkExists().forPath(paths.lock()) == null);
      Await.until("the decision thread ended", WAIT, () -> Thread.getAllStackTraces().keySet().stream()
          .noneMatch(t -> t.getName().equals("hotstandby-ns1-nn1")));
      loop.close();
    }
  }

  private static CuratorFramework client(TestingServer server) throws InterruptedException {
    CuratorFramework c = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
        .sessionTimeoutMs(4000).connectionTimeoutMs(4000).retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
    c.start();
    if (!c.blockUntilConnected(10, TimeUnit.SECONDS)) {
      throw new AssertionError("no ZooKeeper");
    }
    return c;
  }
}
