package org.bulwark.hdfs.monitor.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.ObservedBlock;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store written in polls as a large first scan writes it: its file grows past twice its
 * size, {@code compactIfGrown} shrinks it to a fraction, and the store then answers and records as before
 * (both connections reopened).
 */
class EmbeddedCompactionIT {
  private static final int BLOCKS_PER_POLL = 20_000;

  @TempDir
  File dir;

  @Test
  void compactsOnceTheFileHasDoubledAndKeepsEveryRow() throws Exception {
    File file = new File(dir, "store/history.mv.db");
    try (HistoryStore store = StoreFactory.embedded(new File(dir, "store"), SharedStore.LEASE_TIMEOUT)) {
      int ns = store.namespaceId("hdfs://ns1");
      int[] storages = new int[30];
      for (int d = 0; d < storages.length; d++) {
        storages[d] = store.storageId(store.dataNodeId("uuid-" + d, "dn" + d, "10.0.0." + d + ":9866", "/r" + (d % 3)),
            "DS-" + d, "DISK");
      }
      assertFalse(store.compactIfGrown(), "an empty store is below the size worth compacting");
      long time = 1_000;
      int polls = 0;
      while (file.length() < EmbeddedCompaction.MIN_BYTES) {
        Map<Long, ObservedBlock> seen = new HashMap<>();
        for (long b = (long) polls * BLOCKS_PER_POLL; b < (long) (polls + 1) * BLOCKS_PER_POLL; b++) {
          int first = (int) (b % storages.length);
          seen.put(b, new ObservedBlock(b / 10, "/data/f" + b / 10, new int[] {storages[first],
              storages[(first + 7) % storages.length], storages[(first + 13) % storages.length]}, false, false));
        }
        PollChanges c = new NamespaceState().diff(ns, time++, seen, Map.<Integer, DataNodeObservation>of());
        store.record(c, new PollSummary(time, time, seen.size() / 10, seen.size(), seen.size() * 3L, 1));
        polls++;
        assertTrue(polls < 200, "the file should pass " + EmbeddedCompaction.MIN_BYTES + " bytes: " + file.length());
      }
      long blocks = (long) polls * BLOCKS_PER_POLL;
      List<BlockHistory> before = store.blockHistory(blocks / 2);
      long grown = file.length();

      assertTrue(store.compactIfGrown(), "a file of " + grown + " bytes written in " + polls + " polls");
      long compacted = file.length();
      assertTrue(compacted * 4 < grown, "compacted to " + compacted + " of " + grown + " bytes");
      assertFalse(store.compactIfGrown(), "not again until the file doubles");

      List<BlockHistory> after = store.blockHistory(blocks / 2);
      assertEquals(before.get(0).replicas.size(), after.get(0).replicas.size());
      assertEquals(3, after.get(0).replicas.size());
      assertEquals(blocks * 3, store.loadState(ns).openReplicas(), "every replica interval kept");
      PollChanges next = new NamespaceState().diff(ns, time, Map.of(blocks, new ObservedBlock(blocks, "/data/new",
          new int[] {storages[0]}, false, false)), Map.<Integer, DataNodeObservation>of());
      store.record(next, new PollSummary(time, time, 1, 1, 1, 1));
      assertEquals(1, store.blockHistory(blocks).get(0).replicas.size(), "the store records after compacting");
    }
  }
}
