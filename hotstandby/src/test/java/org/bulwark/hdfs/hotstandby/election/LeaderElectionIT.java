package org.bulwark.hdfs.hotstandby.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.CloseableUtils;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.bulwark.hdfs.hotstandby.controller.Candidate;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.Breadcrumb;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Checks {@link LeaderElection}'s ZooKeeper protocol directly against a real ZooKeeper (Curator's
 * {@link TestingServer}): several controllers' clients racing, a leader's session expiring, the server
 * restarting, garbage in the znodes. The MiniDFSCluster tests reach all this only through whole controllers.
 */
class LeaderElectionIT {
  /** Short, as a test wants, yet long enough that a loaded machine does not lose sessions by itself. */
  private static final int SESSION_TIMEOUT_MS = 3000;
  /** For the restart test: the server's stop, restart and the clients' reconnection must fit in it. */
  private static final int RESTART_SESSION_TIMEOUT_MS = 8000;
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final ZNodes paths = new ZNodes("/bulwark-ha", "ns1");
  /** Closed last-opened first: elections (their caches) before their clients. */
  private final Deque<Closeable> opened = new ArrayDeque<>();
  private TestingServer server;

  /** One controller's side: its own ZooKeeper client (session) and its election. */
  private record Controller(String nameNode, CuratorFramework client, LeaderElection election) {
    long sessionId() throws Exception {
      return client.getZookeeperClient().getZooKeeper().getSessionId();
    }
  }

  @BeforeEach
  void startZooKeeper() throws Exception {
    server = new TestingServer(FreePorts.pick(), true); // restarted on its port: one no other JVM's bind(0) takes
  }

  @AfterEach
  void closeEverything() {
    while (!opened.isEmpty()) {
      CloseableUtils.closeQuietly(opened.pop());
    }
    CloseableUtils.closeQuietly(server);
  }

  private CuratorFramework client(int sessionTimeoutMs) throws InterruptedException {
    // As ZooKeeperAccess builds the controllers' clients.
    CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
        .sessionTimeoutMs(sessionTimeoutMs).connectionTimeoutMs(Math.min(sessionTimeoutMs, 15_000))
        .retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
    opened.push(client);
    client.start();
    assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS), "connected to " + server.getConnectString());
    return client;
  }

  private Controller controller(String nameNode) throws Exception {
    return controller(nameNode, SESSION_TIMEOUT_MS);
  }

  private Controller controller(String nameNode, int sessionTimeoutMs) throws Exception {
    CuratorFramework client = client(sessionTimeoutMs);
    LeaderElection election = new LeaderElection(client, paths, nameNode, () -> { });
    opened.push(election);
    election.start();
    return new Controller(nameNode, client, election);
  }

  private static ActiveRecord record(String nameNode, long epoch, long since) {
    return new ActiveRecord("ns1", nameNode, nameNode + ".example.com:8020", epoch, since,
        ActiveRecord.State.ACTIVE, 0);
  }

  private long epochOnServer(CuratorFramework client) throws Exception {
    return Long.parseLong(new String(client.getData().forPath(paths.epoch()), StandardCharsets.UTF_8).trim());
  }

  private static Map<String, Integer> priorities(LeaderElection election, long now) {
    Map<String, Integer> out = new HashMap<>();
    for (Candidate c : election.candidates(now)) {
      out.put(c.nameNodeId(), c.priority());
    }
    return out;
  }

  private static void awaitLeader(String expected, Controller... controllers) throws Exception {
    for (Controller c : controllers) {
      Await.until(c.nameNode() + " sees leader " + expected, WAIT, () -> Objects.equals(expected, c.election().leader()));
    }
  }

  /**
   * acquire() first trusts its cache (no round trip before the transaction). Here another client changes the
   * epoch and the breadcrumb right before each acquire, so the cache is often stale: the transaction's version
   * checks must refuse the cached view, and the leadership must rest on what ZooKeeper holds.
   */
  @Test
  void acquiringOnAStaleCacheFencesWhatZooKeeperHolds() throws Exception {
    Controller a = controller("nn1");
    CuratorFramework writer = client(SESSION_TIMEOUT_MS);
    a.election().release(a.election().acquire(), null);
    Await.until("the lock is gone from the cache", WAIT, () -> a.election().leader() == null);
    for (int round = 1; round <= 20; round++) {
      long epoch = 10L * round;
      String named = "nn" + (2 + round % 3);
      writer.setData().forPath(paths.epoch(), Long.toString(epoch).getBytes(StandardCharsets.UTF_8));
      writer.setData().forPath(paths.breadcrumb(),
          new Breadcrumb(epoch, java.util.Collections.singleton(named)).encode());
      Leadership l = a.election().acquire();
      assertNotNull(l, "round " + round + ": the lock was free");
      assertEquals(epoch + 1, l.epoch(), "round " + round + ": the epoch ZooKeeper held, plus one");
      assertEquals(java.util.Set.of(named), l.toFence(), "round " + round + ": the breadcrumb ZooKeeper held");
      a.election().release(l, null);
      Await.until("the lock is gone from the cache", WAIT, () -> a.election().leader() == null);
    }
  }

  @Test
  void exactlyOneOfRacingElectionsWinsEachRoundAndTheEpochRisesByOne() throws Exception {
    List<Controller> all = List.of(controller("nn1"), controller("nn2"), controller("nn3"));
    Controller[] array = all.toArray(new Controller[0]);
    ExecutorService pool = Executors.newFixedThreadPool(all.size());
    try {
      for (int round = 1; round <= 4; round++) {
        long before = epochOnServer(array[0].client());
        CyclicBarrier gate = new CyclicBarrier(all.size());
        List<Future<Leadership>> attempts = new ArrayList<>();
        for (Controller c : all) {
          attempts.add(pool.submit(() -> {
            gate.await(10, TimeUnit.SECONDS);
            return c.election().acquire();
          }));
        }
        List<Integer> winners = new ArrayList<>();
        Leadership won = null;
        for (int i = 0; i < all.size(); i++) {
          Leadership l = attempts.get(i).get(30, TimeUnit.SECONDS);
          if (l != null) {
            winners.add(i);
            won = l;
          }
        }
        assertEquals(1, winners.size(), "round " + round + ": exactly one winner, got " + winners);
        Controller winner = all.get(winners.get(0));
        assertEquals(before + 1, won.epoch(), "round " + round + ": the winner's epoch");
        assertEquals(before + 1, epochOnServer(winner.client()), "round " + round + ": the epoch znode rose by exactly one");
        assertEquals(winner.sessionId(), winner.client().checkExists().forPath(paths.lock()).getEphemeralOwner(),
            "round " + round + ": the lock is the winner's session's");

        awaitLeader(winner.nameNode(), array);
        for (Controller c : all) {
          assertEquals(c == winner, c.election().iLead(), "round " + round + ": iLead() of " + c.nameNode());
          if (c != winner) {
            assertNull(c.election().acquire(), "round " + round + ": " + c.nameNode() + " cannot take a held lock");
          }
        }
        assertEquals(before + 1, epochOnServer(winner.client()), "round " + round + ": failed attempts leave the epoch");
        assertTrue(winner.election().stillLeading(won));

        winner.election().release(won, null);
        assertNull(winner.client().checkExists().forPath(paths.lock()), "round " + round + ": released");
        awaitLeader(null, array);
      }
      assertEquals(4, epochOnServer(array[0].client()), "one epoch per won round");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void releaseWritesTheLastWordWithTheLockAndTheOldLeadershipCanChangeNothing() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = a.election().acquire();
    assertNotNull(la);
    ActiveRecord published = record("nn1", la.epoch(), 1000);
    assertTrue(a.election().publish(la, published));

    ActiveRecord lastWord = published.failedAt(4242);
    a.election().release(la, lastWord);
    assertNull(a.client().checkExists().forPath(paths.lock()), "the lock is released");
    assertEquals(lastWord, b.election().readActiveRecord(), "the last word is the record");
    Stat active = a.client().checkExists().forPath(paths.active());
    Stat base = a.client().checkExists().forPath(paths.base());
    // One ZooKeeper transaction has one zxid: the record's change and the lock's deletion carry the same.
    assertEquals(base.getPzxid(), active.getMzxid(), "the last word was written in the transaction that deleted the lock");

    awaitLeader(null, a, b);
    Leadership lb = b.election().acquire();
    assertNotNull(lb, "the released lock is free for another");
    assertEquals(la.epoch() + 1, lb.epoch());
    assertEquals(la.epoch() + 1, epochOnServer(b.client()));
    assertTrue(b.election().stillLeading(lb));
    assertFalse(a.election().stillLeading(la), "the old leadership has passed on");

    Stat beforeRefusal = b.client().checkExists().forPath(paths.active());
    assertFalse(a.election().publish(la, record("nn1", la.epoch(), 2000)), "the old leadership's publish is refused");
    assertEquals(lastWord, b.election().readActiveRecord(), "the refused publish left the record");
    assertEquals(beforeRefusal.getMzxid(), b.client().checkExists().forPath(paths.active()).getMzxid());

    // A stale release with a last word neither writes it nor takes the new leader's lock.
    a.election().release(la, published.relinquished());
    assertEquals(lastWord, b.election().readActiveRecord(), "the stale last word was not written");
    Stat lock = b.client().checkExists().forPath(paths.lock());
    assertNotNull(lock, "the new leader's lock survives a stale release");
    assertEquals(b.sessionId(), lock.getEphemeralOwner());
    assertTrue(b.election().stillLeading(lb));
    awaitLeader("nn2", a, b);
    assertTrue(b.election().iLead());
    assertFalse(a.election().iLead());
  }

  @Test
  void aNameNodeSeenExitingIsNotFencedByTheNextLeaderOneSeenFailingIs() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = a.election().acquire();
    ActiveRecord first = record("nn1", la.epoch(), 1000);
    assertTrue(a.election().publish(la, first));
    a.election().release(la, first.failedAt(1500));
    awaitLeader(null, a, b);
    Leadership lb = b.election().acquire();
    assertEquals(Collections.singleton("nn1"), lb.toFence(), "a failed NameNode may still serve: fence it");

    assertTrue(b.election().fenced(lb));
    ActiveRecord second = record("nn2", lb.epoch(), 2000);
    assertTrue(b.election().publish(lb, second));
    b.election().release(lb, second.exited(2500));
    assertEquals(ActiveRecord.State.EXITED, a.election().readActiveRecord().state());
    awaitLeader(null, a, b);
    Leadership again = a.election().acquire();
    assertTrue(again.toFence().isEmpty(), "its process ended: nothing to fence " + again.toFence());
  }

  @Test
  void theLeaderPublishCreatesThenUpdatesTheActiveRecordSeenByEveryElection() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = a.election().acquire();
    assertNotNull(la);
    assertNull(a.election().readActiveRecord(), "no record yet");
    assertNull(a.election().cachedActiveRecord(), "no record cached yet");

    ActiveRecord first = record("nn1", la.epoch(), 1000);
    assertTrue(a.election().publish(la, first), "publish creates the record");
    assertEquals(0, a.client().checkExists().forPath(paths.active()).getVersion(), "created");
    assertEquals(first, a.election().readActiveRecord());
    assertEquals(first, b.election().readActiveRecord());
    for (Controller c : List.of(a, b)) {
      Await.until(c.nameNode() + " caches the created record", WAIT, () -> first.equals(c.election().cachedActiveRecord()));
    }

    ActiveRecord second = record("nn1", la.epoch(), 2000).failedAt(2500);
    assertTrue(a.election().publish(la, second), "publish updates the record");
    assertEquals(1, a.client().checkExists().forPath(paths.active()).getVersion(), "updated in place");
    assertEquals(second, a.election().readActiveRecord());
    assertEquals(second, b.election().readActiveRecord());
    for (Controller c : List.of(a, b)) {
      Await.until(c.nameNode() + " caches the updated record", WAIT, () -> second.equals(c.election().cachedActiveRecord()));
    }
  }

  @Test
  void anExpiredLeaderSessionFreesTheLockForAnotherElection() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = a.election().acquire();
    assertNotNull(la);
    ActiveRecord published = record("nn1", la.epoch(), 1000);
    assertTrue(a.election().publish(la, published));
    awaitLeader("nn1", a, b);
    long expired = a.sessionId();

    KillSession.kill(a.client().getZookeeperClient().getZooKeeper());

    // The client learns first and opens a new session; the server drops the old one, and its lock, after the timeout.
    Await.until("nn1's client in a new session", WAIT,
        () -> a.client().getZookeeperClient().isConnected() && a.sessionId() != expired);
    assertFalse(a.election().stillLeading(la), "a leadership of an expired session is over even before another wins");
    assertFalse(a.election().ofCurrentSession(la), "and is known so without asking ZooKeeper");
    // Until the server drops it, the old session's lock still names nn1: that is not this session's lead.
    assertFalse(a.election().iLead(), "the lingering lock of the expired session is not nn1's lead");
    Await.until("the expired session's lock gone", WAIT, () -> b.client().checkExists().forPath(paths.lock()) == null);

    Leadership lb = b.election().acquire();
    assertNotNull(lb, "another election takes the freed lock");
    assertEquals(la.epoch() + 1, lb.epoch());
    assertTrue(b.election().stillLeading(lb));
    assertFalse(a.election().stillLeading(la));
    assertFalse(a.election().publish(la, record("nn1", la.epoch(), 3000)), "the expired leadership cannot publish");
    assertEquals(published, b.election().readActiveRecord());
    awaitLeader("nn2", a, b);
    assertTrue(b.election().iLead());
    assertFalse(a.election().iLead());
    assertNull(a.election().acquire(), "nn1's new session cannot take the held lock");
  }

  @Test
  void candidatesAreListedWhileTheyStandAndGoneWhenTheyWithdraw() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Controller c = controller("nn3");
    a.election().stand(5);
    b.election().stand(7);
    for (Controller x : List.of(a, b, c)) {
      Await.until(x.nameNode() + " lists nn1 and nn2", WAIT,
          () -> Map.of("nn1", 5, "nn2", 7).equals(priorities(x.election(), 1000)));
    }
    assertTrue(a.election().standing());
    assertTrue(b.election().standing());
    assertFalse(c.election().standing(), "nn3 never stood");

    a.election().withdraw();
    assertNull(a.client().checkExists().forPath(paths.candidate("nn1")), "nn1's znode deleted");
    for (Controller x : List.of(a, b, c)) {
      Await.until(x.nameNode() + " lists nn2 alone", WAIT, () -> Map.of("nn2", 7).equals(priorities(x.election(), 2000)));
    }
    assertFalse(a.election().standing());
    assertTrue(b.election().standing());
    a.election().withdraw(); // withdrawing twice is harmless
    assertEquals(Map.of("nn2", 7), priorities(c.election(), 3000));
  }

  /**
   * Standing when this session's candidacy is there already (the controller stands only when its cache does not show
   * it: a cache behind ZooKeeper after a reconnection, a create Curator sent again) keeps that znode and sets the new
   * priority: the candidacy never went, so nobody's first sighting of it restarts. Before, the znode was deleted and
   * created again, and a delete that met no znode (Curator sending it again) failed the controller's decision.
   */
  @Test
  void standingAgainInTheSameSessionKeepsTheCandidateZnodeAndSetsItsPriority() throws Exception {
    Controller a = controller("nn1");
    a.election().stand(5);
    Await.until("nn1 standing", WAIT, () -> a.election().standing());
    Stat firstZnode = a.client().checkExists().forPath(paths.candidate("nn1"));
    List<Candidate> seen = a.election().candidates(1000);
    assertEquals(1, seen.size());
    assertEquals(1000, seen.get(0).sinceMillis());
    assertEquals(1000, a.election().candidates(2000).get(0).sinceMillis(), "the same znode keeps its first sighting");

    a.election().stand(9);
    Stat secondZnode = a.client().checkExists().forPath(paths.candidate("nn1"));
    assertEquals(firstZnode.getCzxid(), secondZnode.getCzxid(), "the same znode");
    assertEquals(a.sessionId(), secondZnode.getEphemeralOwner());
    assertEquals("9", new String(a.client().getData().forPath(paths.candidate("nn1")), StandardCharsets.UTF_8));
    Await.until("nn1 listed with priority 9", WAIT, () -> Map.of("nn1", 9).equals(priorities(a.election(), 3000)));
    List<Candidate> again = a.election().candidates(4000);
    assertEquals(1, again.size());
    assertEquals(1000, again.get(0).sinceMillis(), "still seen since it first appeared");
    a.election().stand(9);
    assertEquals(secondZnode.getMzxid(), a.client().checkExists().forPath(paths.candidate("nn1")).getMzxid(),
        "standing again at the same priority writes nothing");
    assertTrue(a.election().standing());
  }

  @Test
  void standingReplacesTheCandidateZnodeLeftByThePreviousSession() throws Exception {
    Controller previous = controller("nn1");
    previous.election().stand(4);
    Controller restarted = controller("nn1");
    Await.until("the restarted controller sees the old znode", WAIT,
        () -> Map.of("nn1", 4).equals(priorities(restarted.election(), 1000)));
    assertFalse(restarted.election().standing(), "another session's znode is not this controller's standing");

    restarted.election().stand(6);
    assertEquals(restarted.sessionId(), restarted.client().checkExists().forPath(paths.candidate("nn1")).getEphemeralOwner());
    Await.until("the restarted controller standing", WAIT, () -> restarted.election().standing());
    Await.until("the previous session no longer standing", WAIT, () -> !previous.election().standing());
    assertEquals(Map.of("nn1", 6), priorities(restarted.election(), 2000));
  }

  @Test
  void aHandoffRequestIsExclusiveAndOnlyItsOwnerClearsIt() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    assertNull(a.election().handoffTarget());

    assertTrue(b.election().requestHandoff(), "first request");
    assertFalse(a.election().requestHandoff(), "a second request is refused while the first exists");
    assertTrue(b.election().requestHandoff(),
        "its own session's request counts as made (a create Curator sent again after a lost reply meets it)");
    for (Controller c : List.of(a, b)) {
      Await.until(c.nameNode() + " sees the handoff to nn2", WAIT, () -> "nn2".equals(c.election().handoffTarget()));
    }

    a.election().clearHandoff();
    Stat request = a.client().checkExists().forPath(paths.handoff());
    assertNotNull(request, "another session's clear leaves the request");
    assertEquals(b.sessionId(), request.getEphemeralOwner());
    assertEquals("nn2", new String(a.client().getData().forPath(paths.handoff()), StandardCharsets.UTF_8));

    b.election().clearHandoff();
    assertNull(b.client().checkExists().forPath(paths.handoff()), "the owner's clear removes it");
    for (Controller c : List.of(a, b)) {
      Await.until(c.nameNode() + " sees no handoff", WAIT, () -> c.election().handoffTarget() == null);
    }
    assertTrue(a.election().requestHandoff(), "a new request once the old one is cleared");
    Await.until("nn2 sees the handoff to nn1", WAIT, () -> "nn1".equals(b.election().handoffTarget()));
  }

  @Test
  void theLockHolderStillLeadsAfterZooKeeperRestartsWithinTheSessionTimeout() throws Exception {
    Controller a = controller("nn1", RESTART_SESSION_TIMEOUT_MS);
    Controller b = controller("nn2", RESTART_SESSION_TIMEOUT_MS);
    Leadership la = a.election().acquire();
    assertNotNull(la);
    assertTrue(a.election().publish(la, record("nn1", la.epoch(), 1000)));
    awaitLeader("nn1", a, b);
    long session = a.sessionId();

    long stopped = System.nanoTime();
    server.stop();
    server.restart();
    for (Controller c : List.of(a, b)) {
      Await.until(c.nameNode() + " reconnected", WAIT, () -> c.client().getZookeeperClient().isConnected());
    }
    long outageMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
    assertTrue(outageMillis < RESTART_SESSION_TIMEOUT_MS,
        "the test needs the outage (" + outageMillis + " ms) within the session timeout");

    assertEquals(session, a.sessionId(), "nn1 kept its session");
    assertTrue(a.election().stillLeading(la), "the lock holder still leads");
    assertNull(b.election().acquire(), "nobody else can take the lock");
    assertEquals(la.epoch(), epochOnServer(b.client()), "the epoch did not move");
    assertEquals(session, b.client().checkExists().forPath(paths.lock()).getEphemeralOwner(), "the lock is still nn1's");
    awaitLeader("nn1", a, b);
    Await.until("nn1 leads by its cache", WAIT, () -> a.election().iLead());
    assertFalse(b.election().iLead());
    ActiveRecord after = record("nn1", la.epoch(), 2000);
    assertTrue(a.election().publish(la, after), "the leader can still publish");
    assertEquals(after, b.election().readActiveRecord());
  }

  /**
   * ZooKeeper down for longer than the session timeout: Curator gives the session up (LOST) and opens another once
   * ZooKeeper is back, while the server, which counts a session's timeout afresh when it starts, still holds the old
   * session's lock. No other controller has led since, so the leadership carries over to the new session, lock and
   * all, in one transaction, at the same epoch: the leader need not step down.
   */
  @Test
  void aLeadershipCarriesOverToANewSessionAfterAZooKeeperOutage() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = a.election().acquire();
    assertNotNull(la);
    long given = a.sessionId();

    server.stop();
    Thread.sleep(2L * SESSION_TIMEOUT_MS);
    server.restart();
    Await.until("nn1 in a new session", WAIT,
        () -> a.client().getZookeeperClient().isConnected() && a.sessionId() != given);
    assertFalse(a.election().ofCurrentSession(la));
    assertEquals(given, a.client().checkExists().forPath(paths.lock()).getEphemeralOwner(),
        "the server still holds the given-up session's lock");

    Leadership kept = a.election().resume(la);
    assertNotNull(kept, "nobody led since");
    assertEquals(la.epoch(), kept.epoch(), "no new epoch: the same leadership");
    assertTrue(a.election().ofCurrentSession(kept));
    assertTrue(a.election().stillLeading(kept));
    assertEquals(a.sessionId(), a.client().checkExists().forPath(paths.lock()).getEphemeralOwner(), "the lock moved over");
    Await.until("nn2 connected", WAIT, () -> b.client().getZookeeperClient().isConnected());
    assertNull(b.election().acquire(), "nobody else can take the lock");
    assertTrue(a.election().publish(kept, record("nn1", kept.epoch(), 2000)), "the leader still writes");
  }

  /**
   * A leadership whose session expired on the server (its lock gone with it) carries over while nobody has led
   * since, and not once another controller has (a new epoch), even with the lock free again: that one may have
   * fenced its NameNode.
   */
  @Test
  void aLeadershipCarriesOverOnlyWhileNoOtherControllerHasLedSince() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = leadThenLoseTheSession(a, b);
    Leadership kept = a.election().resume(la);
    assertNotNull(kept, "the lock was free and nobody led since");
    assertEquals(a.sessionId(), b.client().checkExists().forPath(paths.lock()).getEphemeralOwner());

    expireAndAwaitTheLockGone(a, b);
    Leadership lb = b.election().acquire();
    assertNotNull(lb);
    assertNull(a.election().resume(kept), "nn2 leads");
    b.election().release(lb, null);
    assertNull(a.election().resume(kept), "nn2 has led since, though the lock is free again");
    assertNull(b.client().checkExists().forPath(paths.lock()));
  }

  /**
   * A carry-over asked again (the next decision, or a caller that did not hear the first answer) finds the lock its own
   * session holds at the same epoch: that is the leadership, not another controller's lead. Before, it returned null and
   * the controller made its active NameNode standby, then deleted its own lock as one held without leading.
   */
  @Test
  void resumingAgainAfterItsOwnCarryOverKeepsTheLeadership() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = leadThenLoseTheSession(a, b);
    Leadership kept = a.election().resume(la);
    assertNotNull(kept);
    Stat lock = a.client().checkExists().forPath(paths.lock());

    for (Leadership asked : List.of(la, kept)) {
      Leadership again = a.election().resume(asked);
      assertNotNull(again, "resumed again from " + (asked == la ? "the given-up session's leadership" : "its own"));
      assertEquals(la.epoch(), again.epoch());
      assertTrue(a.election().ofCurrentSession(again));
      assertTrue(a.election().stillLeading(again));
    }
    assertEquals(lock.getCzxid(), a.client().checkExists().forPath(paths.lock()).getCzxid(), "the same lock, left be");
    assertEquals(la.epoch(), epochOnServer(b.client()), "no new epoch");
    assertNull(b.election().acquire(), "nobody else can take the lock");
  }

  /**
   * The carry-over's create committed but its reply was lost, and Curator sent the transaction again: the lock is there,
   * the current session's, at the leadership's epoch. That is the leadership carried over, taken with the session the
   * lock names; once another controller has led (the epoch moved), the same lock is not.
   */
  @Test
  void aLockTheCurrentSessionCreatedAtTheSameEpochIsTheLeadershipCarriedOver() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = leadThenLoseTheSession(a, b);
    createLock(a.client(), "nn1");

    Leadership kept = a.election().resume(la);
    assertNotNull(kept, "its own lock, nobody having led since");
    assertTrue(a.election().ofCurrentSession(kept), "the session is the lock's");
    assertTrue(a.election().stillLeading(kept));
    assertEquals(a.sessionId(), b.client().checkExists().forPath(paths.lock()).getEphemeralOwner());

    b.client().setData().forPath(paths.epoch(), Long.toString(la.epoch() + 1).getBytes(StandardCharsets.UTF_8));
    assertNull(a.election().resume(la), "another has led since");
  }

  /**
   * Curator sent the carry-over again in a newer session than the one it began in, and that one was given up too: the
   * lock names this NameNode in neither the leadership's session nor the current one. At the same epoch it is still
   * this leadership's (only a new leader bumps the epoch); it moves to the current session, which the result names.
   */
  @Test
  void aLockLeftByAnotherGivenUpSessionAtTheSameEpochMovesToTheCurrentOne() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = leadThenLoseTheSession(a, b);
    CuratorFramework between = client(SESSION_TIMEOUT_MS);
    createLock(between, "nn1");

    Leadership kept = a.election().resume(la);
    assertNotNull(kept);
    assertTrue(a.election().ofCurrentSession(kept));
    assertEquals(a.sessionId(), b.client().checkExists().forPath(paths.lock()).getEphemeralOwner(), "the lock moved over");
    assertTrue(a.election().publish(kept, record("nn1", kept.epoch(), 2000)));
  }

  /** The lock, naming {@code nameNode}, as {@code session}'s own: what a carry-over's create leaves. */
  private void createLock(CuratorFramework session, String nameNode) throws Exception {
    session.create().withMode(CreateMode.EPHEMERAL).forPath(paths.lock(), nameNode.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code c} takes the leadership, then its session expires and the server drops its lock; the leadership taken. */
  private Leadership leadThenLoseTheSession(Controller c, Controller observer) throws Exception {
    Leadership l = c.election().acquire();
    assertNotNull(l);
    expireAndAwaitTheLockGone(c, observer);
    return l;
  }

  /** {@code c}'s session expires (the client first, as Curator's KillSession does) and the server drops its lock. */
  private void expireAndAwaitTheLockGone(Controller c, Controller observer) throws Exception {
    long expired = c.sessionId();
    KillSession.kill(c.client().getZookeeperClient().getZooKeeper());
    Await.until(c.nameNode() + " in a new session", WAIT,
        () -> c.client().getZookeeperClient().isConnected() && c.sessionId() != expired);
    Await.until("the expired session's lock gone", WAIT,
        () -> observer.client().checkExists().forPath(paths.lock()) == null);
  }

  @Test
  void aCorruptActiveRecordIsReadAsNull() throws Exception {
    Controller a = controller("nn1");
    Controller b = controller("nn2");
    Leadership la = a.election().acquire();
    assertNotNull(la);
    ActiveRecord valid = record("nn1", la.epoch(), 1000);
    List<byte[]> garbage = List.of(
        new byte[] {(byte) 0xff, 0, (byte) 0xfe, 0x13, 0x7f, (byte) 0x80},
        "namenode=\\uZZZZ\n".getBytes(StandardCharsets.ISO_8859_1), // a malformed escape makes Properties throw
        "nameservice=ns1\nnamenode=nn1\nrpc=h:8020\nepoch=seven\nsince=1\nstate=ACTIVE\n".getBytes(StandardCharsets.UTF_8),
        "nameservice=ns1\nnamenode=nn1\nrpc=h:8020\nepoch=7\nsince=1\nstate=LEADING\n".getBytes(StandardCharsets.UTF_8),
        new byte[0]);
    for (byte[] bad : garbage) {
      String what = new String(bad, StandardCharsets.ISO_8859_1);
      assertTrue(a.election().publish(la, valid));
      for (Controller c : List.of(a, b)) {
        Await.until(c.nameNode() + " caches the valid record", WAIT, () -> valid.equals(c.election().cachedActiveRecord()));
      }

      a.client().setData().forPath(paths.active(), bad);
      assertNull(a.election().readActiveRecord(), "read from ZooKeeper: " + what);
      assertNull(b.election().readActiveRecord(), "read from ZooKeeper: " + what);
      for (Controller c : List.of(a, b)) {
        Await.until(c.nameNode() + " caches the garbage as no record: " + what, WAIT, () -> {
          try {
            return c.election().cachedActiveRecord() == null;
          } catch (RuntimeException e) {
            throw new AssertionError("cachedActiveRecord() threw on " + what, e);
          }
        });
      }
    }
    assertTrue(a.election().publish(la, valid), "the leader overwrites the garbage");
    assertEquals(valid, b.election().readActiveRecord());
  }
}
