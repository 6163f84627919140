package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.zookeeper.server.ServerMetrics;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.zookeeper.ZooKeeperAccess;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's tracker holds a ZooKeeper session only while a failover is waited for, and waits only while
 * ZooKeeper serves it: a client that ZooKeeper refused (past {@code maxClientCnxns}) or cannot reach must
 * not wait {@code bulwark.hotstandby.client.failover-wait}, nor keep reconnecting.
 */
class ActiveNameNodeTrackerIT {
  private static final ZNodes PATHS = new ZNodes("/bulwark-ha", "ns1");

  private static Configuration quorum(String connectString) {
    Configuration conf = new Configuration(false);
    conf.set("bulwark.hotstandby.zookeeper.quorum", connectString);
    return conf;
  }

  private static ActiveNameNodeTracker tracker(String connectString, long idleCloseMillis) throws Exception {
    return tracker(connectString, idleCloseMillis, HostSessionSlots.unlimited());
  }

  private static ActiveNameNodeTracker tracker(String connectString, long idleCloseMillis, HostSessionSlots slots)
      throws Exception {
    return tracker(connectString, idleCloseMillis, slots,
        new HostRecordRelay(Files.createTempDirectory("relay").resolve("record")));
  }

  private static ActiveNameNodeTracker tracker(String connectString, long idleCloseMillis, HostSessionSlots slots,
      HostRecordRelay relay) throws Exception {
    return tracker(connectString, 2000, 1_000, idleCloseMillis, slots, relay);
  }

  private static ActiveNameNodeTracker tracker(String connectString, int sessionTimeoutMillis, long connectWaitMillis,
      long idleCloseMillis, HostSessionSlots slots, HostRecordRelay relay) throws Exception {
    return new ActiveNameNodeTracker(ZooKeeperAccess.from(quorum(connectString)), "/bulwark-ha", "ns1",
        sessionTimeoutMillis, idleCloseMillis, connectWaitMillis, 60_000, slots, relay);
  }

  private static byte[] activeRecord(String nn) {
    return new ActiveRecord("ns1", nn, nn + ".example.com:8020", 3, 1, ActiveRecord.State.ACTIVE, 0).encode();
  }

  @Test
  void anUnreachableQuorumIsGivenUpAndNotRetriedWithinTheBackoff() throws Exception {
    String nobody = "127.0.0.1:" + FreePorts.pick(1)[0];
    try (ActiveNameNodeTracker t = tracker(nobody, 10_000)) {
      // Were it to wait for a session, it would wait the whole two minutes.
      assertNull(assertTimeoutPreemptively(Duration.ofSeconds(30), () -> t.await(r -> true, 120_000)));
      assertFalse(t.sessionOpen(), "the session was closed: no reconnecting in the background");
      assertNull(t.await(r -> true, 120_000));
      assertFalse(t.sessionOpen(), "within the back-off no session is tried");
    }
  }

  /**
   * A quorum whose first server the client picks is on a vanished host (its connects hang: here a listener whose
   * backlog is full, so the kernel drops the SYNs) still serves a failover: the ZooKeeper client tries the next
   * server after one connect timeout (the 12 s session over 3 servers: 4 s), and the connect wait covers that. Before,
   * the 2.5 s connect wait ended first whenever that host was picked first (the client shuffles the servers), and the
   * JVM skipped ZooKeeper for the whole back-off; the test goes on until three sessions picked it first. A server that
   * is down (refusing) costs nothing: the client goes on at once.
   */
  @Test
  void aQuorumWithAServerOnAVanishedHostServesEverySession() throws Exception {
    BlackHole vanished = BlackHole.open();
    assumeTrue(vanished != null, "this network stack never drops connects to a full backlog");
    try (vanished;
        TestingServer zk = new TestingServer(true);
        CuratorFramework writer = CuratorFrameworkFactory.newClient(zk.getConnectString(),
            new ExponentialBackoffRetry(100, 3))) {
      writer.start();
      writer.create().creatingParentsIfNeeded().forPath(PATHS.active(), activeRecord("nn2"));
      // Three servers (two of them one live server listed twice): a quorum that may lose one.
      String quorum = "127.0.0.1:" + vanished.port() + "," + zk.getConnectString() + "," + zk.getConnectString();
      int pickedVanishedFirst = 0;
      for (int i = 0; i < 40 && pickedVanishedFirst < 3; i++) {
        try (ActiveNameNodeTracker t = tracker(quorum, 12_000, 2_500, 10_000, HostSessionSlots.unlimited(),
            new HostRecordRelay(Files.createTempDirectory("relay").resolve("record")))) {
          long start = System.nanoTime();
          ActiveRecord r = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> t.await(x -> true, 20_000));
          assertNotNull(r, "session " + i + " reached the live server");
          assertEquals("nn2", r.nameNodeId());
          // Past most of one connect timeout (12 s / 3): the session went to the vanished host first.
          if (System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(3600)) {
            pickedVanishedFirst++;
          }
        }
      }
      assertEquals(3, pickedVanishedFirst, "sessions that picked the vanished host first");
      int down = FreePorts.pick(1)[0];
      try (ActiveNameNodeTracker t = tracker("127.0.0.1:" + down + "," + zk.getConnectString(), 10_000)) {
        assertEquals("nn2", t.await(x -> true, 20_000).nameNodeId(), "a down server listed too");
      }
    }
  }

  @Test
  void theConnectWaitCoversTheServersAQuorumCanLose() {
    assertEquals(1000, ActiveNameNodeTracker.connectWait(1000, 5000, 1), "one server: nothing to try next");
    assertEquals(1000, ActiveNameNodeTracker.connectWait(1000, 5000, 2), "two: losing one loses the quorum");
    assertEquals(1000 + 1666, ActiveNameNodeTracker.connectWait(1000, 5000, 3));
    assertEquals(1000 + 2 * 1000, ActiveNameNodeTracker.connectWait(1000, 5000, 5));
  }

  /** A listening port whose connects hang, as a vanished host's: its backlog full, the kernel drops new SYNs. */
  private static final class BlackHole implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> filling = new ArrayList<>();

    private BlackHole(ServerSocket listener) {
      this.listener = listener;
    }

    /**
     * Connects until one hangs (how many the queue holds past its backlog is the network stack's to say); null where
     * none does.
     */
    static BlackHole open() throws IOException {
      BlackHole hole = new BlackHole(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      for (int i = 0; i < 16; i++) {
        Socket s = new Socket();
        try {
          s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), hole.port()), 300);
          hole.filling.add(s);
        } catch (SocketTimeoutException full) {
          s.close();
          return hole;
        }
      }
      hole.close();
      return null;
    }

    int port() {
      return listener.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      for (Socket s : filling) {
        s.close();
      }
      listener.close();
    }
  }

  @Test
  void aSessionRefusedPastMaxClientCnxnsIsGivenUpAtOnce() throws Exception {
    InstanceSpec oneConnection = new InstanceSpec(null, -1, -1, -1, true, -1, -1, 1);
    try (TestingServer zk = new TestingServer(oneConnection, true);
        CuratorFramework holder = CuratorFrameworkFactory.newClient(zk.getConnectString(),
            new ExponentialBackoffRetry(100, 3))) {
      holder.start();
      assertTrue(holder.blockUntilConnected(30, TimeUnit.SECONDS));
      long rejectedBefore = ServerMetrics.getMetrics().CONNECTION_REJECTED.get();
      try (ActiveNameNodeTracker t = tracker(zk.getConnectString(), 10_000)) {
        assertNull(assertTimeoutPreemptively(Duration.ofSeconds(30), () -> t.await(r -> true, 120_000)));
        assertFalse(t.sessionOpen());
        // The refused client is closed on a background thread, and may dial once more while it closes (its
        // next attempt was already due): let the close finish, then count.
        Await.until("the given-up session closed", Duration.ofSeconds(30), () -> !t.givenUpSessionClosing());
        long rejected = ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore;
        Thread.sleep(3000);
        assertEquals(rejected, ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore,
            "no connection attempt after it gave up");
        assertTrue(rejected >= 1 && rejected <= 3, "refused " + rejected + " times before it gave up");
      }
    }
  }

  @Test
  void theSessionOpensForAWaitAndClosesWhenIdle() throws Exception {
    try (TestingServer zk = new TestingServer(true);
        CuratorFramework writer = CuratorFrameworkFactory.newClient(zk.getConnectString(),
            new ExponentialBackoffRetry(100, 3));
        ActiveNameNodeTracker t = tracker(zk.getConnectString(), 300)) {
      writer.start();
      assertFalse(t.sessionOpen(), "no session before anything waits");
      Thread publish = new Thread(() -> {
        try {
          Thread.sleep(500);
          writer.create().creatingParentsIfNeeded().forPath(PATHS.active(), activeRecord("nn2"));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      publish.start();
      ActiveRecord r = t.await(x -> true, 60_000);
      publish.join();
      assertNotNull(r, "the record published while the client waited");
      assertEquals("nn2", r.nameNodeId());
      Await.until("the idle session is closed", Duration.ofSeconds(30), () -> !t.sessionOpen());
      writer.setData().forPath(PATHS.active(), activeRecord("nn1"));
      assertEquals("nn1", t.await(x -> "nn1".equals(x.nameNodeId()), 60_000).nameNodeId(),
          "a later wait opens a new session");
    }
  }

  /**
   * With the host's one session slot held (by another JVM on a worker host; here another tracker), a waiting
   * client opens no session and returns at once to ask the NameNodes; once the slot is free it opens one, and
   * holds the slot until the session closes.
   */
  @Test
  void noSessionWhileTheHostsSlotsAreHeld(@TempDir Path dir) throws Exception {
    File slotFile = dir.resolve("slots").toFile();
    HostSessionSlots oneSlot = new HostSessionSlots(slotFile, 1);
    try (TestingServer zk = new TestingServer(true);
        CuratorFramework writer = CuratorFrameworkFactory.newClient(zk.getConnectString(),
            new ExponentialBackoffRetry(100, 3));
        ActiveNameNodeTracker t = tracker(zk.getConnectString(), 300, oneSlot)) {
      writer.start();
      writer.create().creatingParentsIfNeeded().forPath(PATHS.active(), activeRecord("nn2"));
      HostSessionSlots.Slot other = new HostSessionSlots(slotFile, 1).tryAcquire();
      assertNotNull(other, "the one slot is free at first");
      assertNull(assertTimeoutPreemptively(Duration.ofSeconds(30), () -> t.await(r -> true, 120_000)),
          "no slot: no wait");
      assertFalse(t.sessionOpen(), "no session opened without a slot");
      other.close();
      assertEquals("nn2", t.await(r -> true, 60_000).nameNodeId(), "a free slot: a session and its record");
      assertNull(new HostSessionSlots(slotFile, 1).tryAcquire(), "the open session holds the slot");
      // Freed once the idle session's ZooKeeper client has closed, just after the tracker let go of it.
      Await.until("the idle session's close frees its slot", Duration.ofSeconds(30), () -> {
        HostSessionSlots.Slot again = new HostSessionSlots(slotFile, 1).tryAcquire();
        if (again == null) {
          return false;
        }
        again.close();
        return true;
      });
      assertFalse(t.sessionOpen());
    }
  }

  /**
   * Two JVMs of a host with one session slot between them, as two trackers sharing the slot and relay files:
   * the one without a session learns of the new active NameNode as the one with a session relays it.
   */
  @Test
  void aTrackerWithoutASlotLearnsTheNewRecordFromTheRelay(@TempDir Path dir) throws Exception {
    File slotFile = dir.resolve("slots").toFile();
    Path relayFile = dir.resolve("record");
    try (TestingServer zk = new TestingServer(true);
        CuratorFramework writer = CuratorFrameworkFactory.newClient(zk.getConnectString(),
            new ExponentialBackoffRetry(100, 3));
        ActiveNameNodeTracker withSlot = tracker(zk.getConnectString(), 60_000, new HostSessionSlots(slotFile, 1),
            new HostRecordRelay(relayFile));
        ActiveNameNodeTracker withoutSlot = tracker(zk.getConnectString(), 60_000, new HostSessionSlots(slotFile, 1),
            new HostRecordRelay(relayFile))) {
      writer.start();
      writer.create().creatingParentsIfNeeded().forPath(PATHS.active(), activeRecord("nn1"));
      long since = System.currentTimeMillis();
      CompletableFuture<ActiveRecord> watching = CompletableFuture.supplyAsync(() -> await(withSlot));
      Await.until("the first tracker's session open", Duration.ofSeconds(30), withSlot::sessionOpen);
      assertNull(withoutSlot.await(r -> true, 60_000), "the host's one slot is taken");
      CompletableFuture<ActiveRecord> relayed = CompletableFuture.supplyAsync(() -> {
        try (HostRecordRelay.Wait wait = withoutSlot.startRelayedWait(since, r -> r.nameNodeId().equals("nn2"))) {
          return wait.await(60_000);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      Thread.sleep(200);
      writer.setData().forPath(PATHS.active(), activeRecord("nn2"));
      assertEquals("nn2", watching.get(60, TimeUnit.SECONDS).nameNodeId());
      assertEquals("nn2", relayed.get(60, TimeUnit.SECONDS).nameNodeId(), "relayed by the tracker with the session");
      assertFalse(withoutSlot.sessionOpen());
    }
  }

  private static ActiveRecord await(ActiveNameNodeTracker t) {
    try {
      return t.await(r -> r.nameNodeId().equals("nn2"), 60_000);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
