package org.bulwark.hdfs.monitor.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.ObservedBlock;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A poll's transaction seen from outside, on both engines, through the store's write-step seam: a query
 * answers while a poll's transaction is held open (and sees the last committed poll), and a transaction
 * that dies after any one of its steps leaves the store exactly as it was.
 */
class StoreTransactionIT {
  @TempDir
  File dir;

  private static final List<String> STEPS = List.of("replicas closed", "replicas opened", "files closed",
      "files opened", "events", "datanode states", "poll row");

  /** A store with one poll recorded: block 1 of /old on storages s1 and s2, DataNode live. */
  private static final class Fixture {
    final JdbcHistoryStore store;
    final int ns;
    final int dn;
    final int s1;
    final int s2;
    final NamespaceState state;

    Fixture(String engine, File dir) throws Exception {
      store = (JdbcHistoryStore) HistoryStoreIT.open(engine, dir, "store");
      ns = store.namespaceId("hdfs://ns1");
      dn = store.dataNodeId("uuid-1", "dn1.example.com", "10.0.0.1:9866", "/dc1/r1");
      s1 = store.storageId(dn, "DS-1", "DISK");
      s2 = store.storageId(dn, "DS-2", "DISK");
      state = store.loadState(ns);
      PollChanges first = state.diff(ns, 1000, blocks(1, 10, "/old", s1, s2), Map.of(dn, new DataNodeObservation("live", 100, 10)));
      store.record(first, new PollSummary(900, 1000, 1, 1, 2, 3));
      state.apply(first);
    }

    /**
     * A poll that touches every step: block 1 loses a replica and moves to /renamed (file closed and
     * opened), block 2 appears on s1, block 3 appears with no replica (a missing-block event), the
     * DataNode's state changes.
     */
    PollChanges secondPoll() {
      Map<Long, ObservedBlock> seen = new HashMap<>(blocks(1, 11, "/renamed", s1));
      seen.putAll(blocks(2, 12, "/new", s1));
      seen.putAll(blocks(3, 13, "/lost"));
      PollChanges c = state.diff(ns, 2000, seen, Map.of(dn, new DataNodeObservation("decommissioning", 100, 20)));
      assertTrue(!c.closedReplicas.isEmpty() && !c.openedReplicas.isEmpty() && !c.closedFiles.isEmpty()
          && !c.openedFiles.isEmpty() && !c.openedEvents.isEmpty() && !c.dataNodeStates.isEmpty(), "every step has rows");
      return c;
    }

    /** Everything a reader can see, as one comparable text. */
    String visible() throws IOException {
      StringBuilder b = new StringBuilder();
      for (long block = 1; block <= 3; block++) {
        for (BlockHistory h : store.blockHistory(block)) {
          b.append(block).append(": ").append(h.files.size()).append(" files, replicas");
          h.replicas.forEach(r -> b.append(' ').append(r.storage).append('@').append(r.firstSeen).append('-').append(r.goneSince));
          b.append(", events ").append(h.events.size()).append('\n');
        }
      }
      store.currentDataNodes().forEach(d -> b.append(d.host).append(' ').append(d.state).append('\n'));
      b.append("missing ").append(store.forensics(10).size()).append('\n');
      b.append("open replicas ").append(store.loadState(ns).openReplicas());
      return b.toString();
    }
  }

  private static Map<Long, ObservedBlock> blocks(long block, long fileId, String path, int... storages) {
    Map<Long, ObservedBlock> m = new HashMap<>();
    m.put(block, new ObservedBlock(fileId, path, storages, false, false));
    return m;
  }

  @ParameterizedTest
  @MethodSource("org.bulwark.hdfs.monitor.store.HistoryStoreIT#engines")
  void aQueryAnswersWhileAPollsTransactionIsOpen(String engine) throws Exception {
    Fixture f = new Fixture(engine, dir);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (JdbcHistoryStore store = f.store) {
      String before = f.visible();
      CountDownLatch inside = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      store.onWriteStep(step -> {
        if (step.equals("poll row")) {
          inside.countDown();
          awaitQuietly(release);
        }
      });
      PollChanges second = f.secondPoll();
      Future<?> poll = threads.submit(() -> {
        store.record(second, new PollSummary(1900, 2000, 3, 3, 2, 4));
        return null;
      });
      assertTrue(inside.await(60, TimeUnit.SECONDS), "the poll reached its last step");
      Future<String> query = threads.submit(() -> {
        StringBuilder b = new StringBuilder();
        for (long block = 1; block <= 3; block++) {
          b.append(store.blockHistory(block).size());
        }
        b.append(store.fileHistory("/new").size()).append(store.currentDataNodes().get(0).state);
        return b.toString();
      });
      String seen;
      try {
        seen = query.get(30, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("a query waited for the poll's open transaction");
      } finally {
        release.countDown();
      }
      assertEquals("1000live", seen, "the query sees the last committed poll, nothing of the open one");
      poll.get(60, TimeUnit.SECONDS);
      store.onWriteStep(step -> { });
      String after = f.visible();
      assertTrue(!after.equals(before) && after.contains("decommissioning") && after.contains("missing 1"), after);
    } finally {
      threads.shutdownNow();
    }
  }

  @ParameterizedTest
  @MethodSource("org.bulwark.hdfs.monitor.store.HistoryStoreIT#engines")
  void aPollThatDiesAfterAnyStepLeavesTheStoreAsItWas(String engine) throws Exception {
    Fixture f = new Fixture(engine, dir);
    try (JdbcHistoryStore store = f.store) {
      String before = f.visible();
      PollChanges second = f.secondPoll();
      for (String dieAt : STEPS) {
        store.onWriteStep(step -> {
          if (step.equals(dieAt)) {
            throw new SQLException("connection lost after step '" + step + "' (injected)");
          }
        });
        IOException e = assertThrows(IOException.class, () -> store.record(second, new PollSummary(1900, 2000, 3, 3, 2, 4)));
        assertTrue(e.getMessage().contains("injected"), e.getMessage());
        assertEquals(before, f.visible(), "after dying at '" + dieAt + "' the store is as before the poll");
      }
      store.onWriteStep(step -> { });
      store.record(second, new PollSummary(1900, 2000, 3, 3, 2, 4));
      String after = f.visible();
      assertTrue(after.contains("decommissioning") && after.contains("missing 1") && after.contains("open replicas 2"), after);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) throws SQLException {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new SQLException("the test never released the transaction");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted", e);
    }
  }
}
