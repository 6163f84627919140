package org.bulwark.hdfs.monitor.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.ObservedBlock;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two monitors pointed at one store, on both engines: the second is refused while the first's lease is fresh,
 * having written nothing; once the lease has expired (set back in the table: no clock involved) the second takes
 * the store over, and the first's next write is rolled back and every write after it refused; a clean close gives
 * the lease back at once; an idle store keeps its lease; a store from before the lease (version 4) is migrated and
 * leased.
 */
class WriterLeaseIT {
  @TempDir
  File dir;

  static Stream<String> engines() {
    return Stream.of("embedded", "postgresql");
  }

  /** A poll of namespace {@code ns} at {@code time} that sees {@code block} on storage {@code s}. */
  private static PollChanges poll(HistoryStore store, int ns, long time, long block, int s) throws IOException {
    NamespaceState state = store.loadState(ns);
    return state.diff(ns, time, Map.of(block, new ObservedBlock(100 + block, "/f" + block, new int[] {s}, false, false)),
        Map.of());
  }

  /** The one storage of DataNode dn1 (/r1), as a first poll registers it. */
  private static int dn1Storage(HistoryStore store) throws IOException {
    return store.storageId(store.dataNodeId("u1", "dn1", "10.0.0.1:9866", "/r1"), "DS-1", "DISK");
  }

  private static PollSummary summary(long time) {
    return new PollSummary(time - 100, time, 1, 1, 1, 1);
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aSecondMonitorIsRefusedWhileTheFirstHoldsAFreshLeaseAndWritesNothing(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "lease_held");
    try (HistoryStore first = place.open()) {
      int ns = first.namespaceId("hdfs://ns1");
      int s = dn1Storage(first);
      first.record(poll(first, ns, 1000, 1, s), summary(1000));
      String before = place.visible();

      IOException refused = assertThrows(IOException.class, place::open);
      String m = refused.getMessage();
      assertTrue(!m.contains("\n"), "one line: " + m);
      assertTrue(m.startsWith("the history store (") && m.contains(") is written by another block monitor (host "), m);
      assertTrue(m.matches(".*, pid -?\\d+, lease renewed \\d+ s ago\\): stop that monitor, or if it is gone wait until "
          + "its lease expires, in \\d+ s \\(bulwark\\.monitor\\.store\\.lease-timeout = 300 s\\)"), m);
      assertEquals(before, place.visible(), "the refused monitor wrote nothing, its lease neither");

      first.record(poll(first, ns, 2000, 2, s), summary(2000));
      assertEquals("2", place.text("SELECT COUNT(*) FROM poll"), "the first monitor writes on");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void anExpiredLeaseIsTakenOverAndTheDisplacedMonitorWritesNothingMore(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "lease_expired");
    HistoryStore first = place.open();
    try {
      int ns = first.namespaceId("hdfs://ns1");
      int s = dn1Storage(first);
      first.record(poll(first, ns, 1000, 1, s), summary(1000));
      // A poll computed before the first monitor hung; it tries to record it once it wakes.
      PollChanges late = poll(first, ns, 2000, 2, s);
      String firstInstance = place.leaseHolder();

      place.expireLease();
      try (HistoryStore second = place.open()) {
        String secondInstance = place.leaseHolder();
        assertNotNull(secondInstance);
        assertTrue(!secondInstance.equals(firstInstance), "the second monitor holds the lease");
        String before = place.visible();

        LeaseLostException lost = assertThrows(LeaseLostException.class, () -> first.record(late, summary(2000)));
        assertTrue(lost.getMessage().startsWith("the writer lease of the history store (")
            && lost.getMessage().matches(".*\\) was taken over by another block monitor \\(now held by host .*, pid -?\\d+\\), "
                + "so this one records nothing more"), lost.getMessage());
        assertEquals(before, place.visible(), "the displaced monitor's poll was rolled back whole");
        assertThrows(LeaseLostException.class, () -> first.namespaceId("hdfs://ns2"));
        assertThrows(LeaseLostException.class, () -> first.deleteHistoryBefore(Long.MAX_VALUE));
        assertThrows(LeaseLostException.class, first::renewLease);
        assertEquals(before, place.visible(), "and nothing after it");
        assertEquals(1, first.blockHistory(1).size(), "it still reads");

        int ns2 = second.namespaceId("hdfs://ns1");
        second.record(poll(second, ns2, 3000, 3, s), summary(3000));
        assertEquals("2", place.text("SELECT COUNT(*) FROM poll"), "the second monitor writes");
        first.close();
        assertEquals(secondInstance, place.leaseHolder(), "closing the displaced store leaves the lease to the second");
      }
    } finally {
      first.close();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aCleanCloseGivesTheLeaseBackSoAMonitorStartedNextWritesAtOnce(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "lease_released");
    try (HistoryStore first = place.open()) {
      first.namespaceId("hdfs://ns1");
      assertNotNull(place.leaseHolder());
    }
    assertNull(place.leaseHolder(), "given back");
    try (HistoryStore again = place.open()) {
      assertEquals(1, again.namespaceId("hdfs://ns1"));
      assertEquals(2, again.namespaceId("hdfs://ns2"), "it writes");
      assertNotNull(place.leaseHolder());
      assertThrows(IOException.class, place::open, "and holds the lease in turn");
    }
  }

  /**
   * A monitor restarted on its machine after kill -9 (or a crash) finds its predecessor's lease fresh; that process
   * no longer runs, so the lease is taken at once rather than after the timeout. A lease of a process still running
   * here is refused, as is, on PostgreSQL, one of a process on another machine under the same host name (a container
   * with its own processes); the embedded store's file lock proves that one gone.
   */
  @ParameterizedTest
  @MethodSource("engines")
  void aMonitorRestartedOnItsMachineAfterItsProcessDiedTakesTheLeaseAtOnce(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "lease_restart");
    try (HistoryStore first = place.open()) {
      first.namespaceId("hdfs://ns1");
    }
    String host = InetAddress.getLocalHost().getHostName();
    String machine = WriterLease.machineForTests();
    Process exited = new ProcessBuilder("true").start();
    exited.waitFor();
    holdLease(place, "killed", host, machine, exited.pid(), 12_345);
    try (HistoryStore restarted = place.open()) {
      assertEquals(2, restarted.namespaceId("hdfs://ns2"), "it writes");
    }

    Process running = new ProcessBuilder("sleep", "60").start();
    try {
      holdLease(place, "alive", host, machine, running.pid(), WriterLease.processStart(running.pid()));
      // On both engines: the embedded file is free while its monitor compacts it, so the lock alone proves nothing.
      IOException refused = assertThrows(IOException.class, place::open);
      assertTrue(refused.getMessage().contains("pid " + running.pid() + ", lease renewed"), refused.getMessage());
      holdLease(place, "pid-reused", host, machine, running.pid(), 12_345);
      place.open().close();
      holdLease(place, "in-a-container", host, "another-boot pid:[1]", exited.pid(), 12_345);
      assertRefusedOnPostgres(engine, place, "pid " + exited.pid() + ", lease renewed");
    } finally {
      running.destroy();
    }
  }

  private static void holdLease(SharedStore place, String instance, String host, String machine, long pid, long started)
      throws Exception {
    place.execute("UPDATE writer_lease SET instance = '" + instance + "', host = '" + host + "', machine = '" + machine
        + "', pid = " + pid + ", process_start = " + started + ", renewed_at = CURRENT_TIMESTAMP");
  }

  private static void assertRefusedOnPostgres(String engine, SharedStore place, String expected) throws Exception {
    if (engine.equals("postgresql")) {
      IOException refused = assertThrows(IOException.class, place::open);
      assertTrue(refused.getMessage().contains(expected), refused.getMessage());
    } else {
      place.open().close();
    }
  }

  /**
   * A poll whose transaction outlasts the lease timeout (a first poll of a big namespace) keeps the store: a monitor
   * starting meanwhile waits on the lease row, then reads the renewal made just before the commit, not one as old
   * as the transaction.
   */
  @Test
  void aWriteLongerThanTheLeaseTimeoutKeepsTheStore() throws Exception {
    // PostgreSQL only: the embedded store's file admits no second monitor process.
    SharedStore place = new SharedStore("postgresql", dir, "lease_long_write");
    try (HistoryStore first = place.open(3_000)) {
      int ns = first.namespaceId("hdfs://ns1");
      int s = dn1Storage(first);
      PollChanges slow = poll(first, ns, 1000, 1, s);
      ((JdbcHistoryStore) first).onWriteStep(step -> {
        if (step.equals("poll row")) {
          try {
            Thread.sleep(4_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
      Thread writer = new Thread(() -> {
        try {
          first.record(slow, summary(1000));
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      });
      writer.start();
      // The contender queues on the lease row before the renewal timer's first turn (a third of the lease in).
      Thread.sleep(300);
      IOException refused = assertThrows(IOException.class, () -> place.open(3_000), "the writing monitor keeps its store");
      assertTrue(refused.getMessage().contains("is written by another block monitor"), refused.getMessage());
      writer.join();
      assertEquals("1", place.text("SELECT COUNT(*) FROM poll"), "and its poll is recorded");
    }
  }

  /** Between writes, however long a poll scans, the store renews its lease on its own: every third of the timeout. */
  @ParameterizedTest
  @MethodSource("engines")
  void anIdleStoreRenewsItsLease(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "lease_idle");
    try (HistoryStore idle = place.open(1_500)) {
      place.expireLease();
      Await.until("the idle store renewed its lease", Duration.ofSeconds(30),
          () -> "1".equals(place.text("SELECT COUNT(*) FROM writer_lease WHERE renewed_at > "
              + "TIMESTAMP WITH TIME ZONE '2001-01-01 00:00:00+00:00'")));
      assertThrows(IOException.class, place::open, "so a second monitor is refused");
      assertEquals(1, idle.namespaceId("hdfs://ns1"), "and the idle one writes on");
    }
  }

  /** A store written before the lease (schema version 4) is brought to version 5 and leased, its history kept. */
  @ParameterizedTest
  @MethodSource("engines")
  void aVersionFourStoreIsMigratedAndLeased(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "lease_v4");
    try (HistoryStore old = place.open()) {
      int ns = old.namespaceId("hdfs://ns1");
      int s = dn1Storage(old);
      old.record(poll(old, ns, 1000, 1, s), summary(1000));
    }
    // As a version 4 monitor left it.
    place.execute("DROP TABLE writer_lease");
    place.execute("DELETE FROM schema_version WHERE version >= 5");
    assertEquals("4", place.text("SELECT MAX(version) FROM schema_version"));

    try (HistoryStore store = place.open()) {
      assertEquals("5", place.text("SELECT MAX(version) FROM schema_version"));
      assertNotNull(place.leaseHolder(), "leased once migrated");
      assertEquals(1, store.loadState(1).openReplicas(), "the history is kept");
      int s = store.storageId(1, "DS-1", "DISK");
      store.record(poll(store, 1, 2000, 2, s), summary(2000));
      assertThrows(IOException.class, place::open, "a second monitor is refused");
    }
  }
}
