package org.bulwark.hdfs.monitor.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.MissingBlock;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.ObservedBlock;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.bulwark.hdfs.testkit.TestPostgres;

/**
 * The same store behaviour on both engines: the embedded H2 file and the PostgreSQL server on
 * 127.0.0.1:5432 (database {@code test}, each run in a schema of its own).
 */
class HistoryStoreIT {
  @TempDir
  static File dir;

  static Stream<String> engines() {
    return Stream.of("embedded", "postgresql");
  }

  static HistoryStore open(String engine, String name) throws Exception {
    return open(engine, dir, name);
  }

  /** A new, empty store of {@code engine}: embedded under {@code parent}, or a fresh PostgreSQL schema. */
  static HistoryStore open(String engine, File parent, String name) throws Exception {
    if ("embedded".equals(engine)) {
      return StoreFactory.embedded(new File(parent, name), SharedStore.LEASE_TIMEOUT);
    }
    String schema = TestPostgres.createSchema("bulwark_" + name);
    return JdbcHistoryStore.open(TestPostgres.url(schema), TestPostgres.credentials(), "PostgreSQL test schema " + schema, SharedStore.LEASE_TIMEOUT);
  }

  private static Map<Long, ObservedBlock> seen(long block, String path, int... storages) {
    Map<Long, ObservedBlock> m = new HashMap<>();
    m.put(block, new ObservedBlock(100 + block, path, storages, false, false));
    return m;
  }

  @ParameterizedTest
  @MethodSource("engines")
  void recordsHistoryAndReadsItBack(String engine) throws Exception {
    try (HistoryStore store = open(engine, "history")) {
      int ns = store.namespaceId("hdfs://ns1");
      int dn1 = store.dataNodeId("uuid-1", "dn1.example.com", "10.0.0.1:9866", "/dc1/r1");
      int dn2 = store.dataNodeId("uuid-2", "dn2.example.com", "10.0.0.2:9866", "/dc1/r2");
      int s1 = store.storageId(dn1, "DS-1", "DISK");
      int s2 = store.storageId(dn2, "DS-2", "SSD");
      assertEquals(s1, store.storageId(dn1, "DS-1", "DISK"), "ids are stable");
      NamespaceState state = store.loadState(ns);
      PollChanges first = state.diff(ns, 1000, seen(7, "/data/a", s1, s2),
          Map.of(dn1, new DataNodeObservation("live", 100, 10), dn2, new DataNodeObservation("live", 100, 20)));
      store.record(first, new PollSummary(900, 1000, 1, 1, 2, 3));
      state.apply(first);
      PollChanges second = state.diff(ns, 2000, seen(7, "/data/b", s1),
          Map.of(dn1, new DataNodeObservation("live", 100, 10), dn2, new DataNodeObservation("dead", 100, 20)));
      store.record(second, new PollSummary(1900, 2000, 1, 1, 1, 3));

      List<BlockHistory> h = store.blockHistory(7);
      assertEquals(1, h.size());
      assertEquals("hdfs://ns1", h.get(0).namespace);
      assertEquals(2, h.get(0).replicas.size());
      assertEquals(2000, h.get(0).replicas.stream().filter(r -> r.host.equals("dn2.example.com")).findFirst().get().goneSince);
      assertEquals(0, h.get(0).replicas.stream().filter(r -> r.host.equals("dn1.example.com")).findFirst().get().goneSince);
      assertEquals(2, h.get(0).files.size(), "renamed: /data/a then /data/b");
      assertEquals(1, store.fileHistory("/data/a").size(), "the old path keeps its history");
      assertEquals("dead", store.dataNodeStates("dn2.example.com").get(0).state);
      assertEquals(1, store.soleReplicas("uuid-1", false, 10).size(), "block 7 now lives only on dn1");
      assertEquals(1, store.soleReplicas("/dc1/r1", true, 10).size());
      assertEquals(0, store.soleReplicas("/dc1/r2", true, 10).size());
      assertEquals(2, store.currentDataNodes().size());

      // A restarted monitor reads the same open state back.
      NamespaceState reloaded = store.loadState(ns);
      assertEquals(1, reloaded.openReplicas());
      assertEquals(0, reloaded.diff(ns, 3000, seen(7, "/data/b", s1), null).size(), "nothing changed since");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void missingBlocksComeWithTheirLastHolders(String engine) throws Exception {
    try (HistoryStore store = open(engine, "forensics")) {
      int ns = store.namespaceId("hdfs://ns1");
      int dn = store.dataNodeId("uuid-9", "dn9", "10.0.0.9:9866", "/r9");
      int s = store.storageId(dn, "DS-9", "DISK");
      NamespaceState state = store.loadState(ns);
      PollChanges c1 = state.diff(ns, 1000, seen(5, "/lost/file", s), Map.of(dn, new DataNodeObservation("live", 1, 0)));
      store.record(c1, new PollSummary(0, 1000, 1, 1, 1, 1));
      state.apply(c1);
      PollChanges c2 = state.diff(ns, 2000, seen(5, "/lost/file"), Map.of(dn, new DataNodeObservation("dead", 1, 0)));
      store.record(c2, new PollSummary(1000, 2000, 1, 1, 0, 1));
      List<MissingBlock> missing = store.forensics(10);
      assertEquals(1, missing.size());
      assertEquals("/lost/file", missing.get(0).path);
      assertEquals("dn9", missing.get(0).lastHolders.get(0).host);
      assertEquals(2000, missing.get(0).lastHolders.get(0).goneSince);
      assertTrue(missing.get(0).holderStates.stream().anyMatch(t -> t.state.equals("dead") && t.firstSeen == 2000));
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void retentionDeletesOnlyWhatEndedBeforeTheCut(String engine) throws Exception {
    try (HistoryStore store = open(engine, "retention")) {
      int ns = store.namespaceId("hdfs://ns1");
      int s = store.storageId(store.dataNodeId("u", "h", "a:1", "/r"), "DS", "DISK");
      NamespaceState state = store.loadState(ns);
      PollChanges c1 = state.diff(ns, 1000, seen(1, "/f", s), Map.of());
      store.record(c1, new PollSummary(0, 1000, 1, 1, 1, 1));
      state.apply(c1);
      PollChanges c2 = state.diff(ns, 5000, Map.of(), Map.of());
      store.record(c2, new PollSummary(4000, 5000, 0, 0, 0, 1));
      assertTrue(store.deleteHistoryBefore(6000) >= 2);
      assertEquals(0, store.blockHistory(1).size());
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void retentionKeepsWhatForensicsShowsOfABlockStillMissing(String engine) throws Exception {
    try (HistoryStore store = open(engine, "retention_missing")) {
      int ns = store.namespaceId("hdfs://ns1");
      int dn = store.dataNodeId("uuid-5", "dn5", "10.0.0.5:9866", "/r5");
      int s = store.storageId(dn, "DS-5", "DISK");
      NamespaceState state = store.loadState(ns);
      Map<Long, ObservedBlock> both = new HashMap<>(seen(5, "/lost/file", s));
      both.putAll(seen(6, "/deleted/file", s));
      PollChanges c1 = state.diff(ns, 1000, both, Map.of(dn, new DataNodeObservation("live", 1, 0)));
      store.record(c1, new PollSummary(0, 1000, 2, 2, 2, 1));
      state.apply(c1);
      // Block 5 loses its only replica (missing); block 6's file is deleted.
      PollChanges c2 = state.diff(ns, 2000, seen(5, "/lost/file"), Map.of(dn, new DataNodeObservation("dead", 1, 0)));
      store.record(c2, new PollSummary(1000, 2000, 1, 1, 0, 1));
      state.apply(c2);

      store.deleteHistoryBefore(10_000);
      assertEquals(0, store.blockHistory(6).size(), "what ended before the cut and concerns no missing block goes");
      List<MissingBlock> missing = store.forensics(10);
      assertEquals(1, missing.size());
      assertEquals("/lost/file", missing.get(0).path);
      assertEquals(1, missing.get(0).lastHolders.size(), "the last holder of a block still missing stays");
      assertEquals("dn5", missing.get(0).lastHolders.get(0).host);
      assertTrue(missing.get(0).holderStates.stream().anyMatch(t -> t.state.equals("live") && t.goneSince == 2000),
          "and its states");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void dataNodeRowsFollowMovesAndReimagedHostsShowTheirNewDataNode(String engine) throws Exception {
    try (HistoryStore store = open(engine, "datanode_rows")) {
      int ns = store.namespaceId("hdfs://ns1");
      int old = store.dataNodeId("uuid-old", "dn1", "10.0.0.1:9866", "/r1");
      assertEquals(old, store.dataNodeId("uuid-old", "dn1", "10.0.0.1:9866", "/r2"));
      assertEquals(old, store.dataNodeId("uuid-old", "dn1", "10.0.0.1:9866", "/r1"), "moved back: the same id");
      NamespaceState state = store.loadState(ns);
      PollChanges c1 = state.diff(ns, 1000, Map.of(), Map.of(old, new DataNodeObservation("live", 1, 0)));
      store.record(c1, new PollSummary(0, 1000, 0, 0, 0, 1));
      state.apply(c1);
      assertEquals("/r1", store.currentDataNodes().get(0).rack, "the row says where it is now");

      // The host is reimaged and registers under a new UUID: the old DataNode ends as unregistered.
      int reimaged = store.dataNodeId("uuid-new", "dn1", "10.0.0.1:9866", "/r1");
      PollChanges c2 = state.diff(ns, 2000, Map.of(), Map.of(reimaged, new DataNodeObservation("live", 1, 0)));
      store.record(c2, new PollSummary(1000, 2000, 0, 0, 0, 1));
      assertEquals(1, store.currentDataNodes().size(), "a DataNode the NameNode no longer lists is not current");
      assertEquals("uuid-new", store.currentDataNodes().get(0).dataNode);
      assertEquals(1, store.dataNodeStates("dn1").size(), "by host: the DataNode there now");
      assertEquals(2, store.dataNodeStates("uuid-old").size(), "live, then unregistered");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aNamespaceIsKnownByItsBlockPoolAcrossUrisAndFormats(String engine) throws Exception {
    try (HistoryStore store = open(engine, "block_pool")) {
      int s = store.storageId(store.dataNodeId("u1", "h1", "a:1", "/r"), "DS-1", "DISK");
      int before = store.namespaceId("hdfs://nn1:8020");
      assertEquals(before, store.claimBlockPool(before, "hdfs://nn1:8020", "BP-1", 500));
      NamespaceState state = store.loadState(before);
      PollChanges c1 = state.diff(before, 1000, seen(7, "/f", s), null);
      store.record(c1, new PollSummary(0, 1000, 1, 1, 1, 1));

      // HA enabled: the same block pool reached at hdfs://ns1.
      int fresh = store.namespaceId("hdfs://ns1");
      assertTrue(fresh != before);
      assertEquals(before, store.claimBlockPool(fresh, "hdfs://ns1", "BP-1", 2000), "the same namespace");
      assertEquals(before, store.namespaceId("hdfs://ns1"));
      assertEquals(1, store.loadState(before).openReplicas());
      List<BlockHistory> moved = store.blockHistory(7);
      assertEquals(1, moved.size(), "one history, not one per URI");
      assertEquals("hdfs://ns1", moved.get(0).namespace);

      // Formatted again: another block pool at the same URI, its block ids counted anew.
      int formatted = store.claimBlockPool(before, "hdfs://ns1", "BP-2", 3000);
      assertTrue(formatted != before);
      assertEquals(formatted, store.namespaceId("hdfs://ns1"));
      assertEquals(0, store.loadState(formatted).openReplicas(), "nothing of the old namespace to diff against");
      List<BlockHistory> retired = store.blockHistory(7);
      assertEquals(1, retired.size());
      assertEquals("hdfs://ns1 (block pool BP-1)", retired.get(0).namespace);
      assertEquals(3000, retired.get(0).replicas.get(0).goneSince, "closed when the new block pool was seen");
      assertEquals(formatted, store.claimBlockPool(formatted, "hdfs://ns1", "BP-2", 4000), "and known from then on");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void pollFiguresAndRackFillAreKeptForTheChartsAndExpireWithRetention(String engine) throws Exception {
    try (HistoryStore store = open(engine, "trends")) {
      int ns = store.namespaceId("hdfs://ns1");
      NamespaceState state = store.loadState(ns);
      Map<String, long[]> fill = new java.util.TreeMap<>();
      fill.put("/r1", new long[] {1000, 250});
      fill.put("/r2", new long[] {1000, 500});
      PollChanges c1 = state.diff(ns, 1000, Map.of(), Map.of());
      store.record(c1, new PollSummary(900, 1000, 10, 40, 100, 3, 1, 2, new long[] {5, 15, 19}, fill));
      state.apply(c1);
      PollChanges c2 = state.diff(ns, 2000, Map.of(), Map.of());
      store.record(c2, new PollSummary(1900, 2000, 10, 40, 100, 3, 0, 0, new long[] {0, 10, 30}, Map.of()));

      List<TrendPoint> trends = store.trends(0, Long.MAX_VALUE, Integer.MAX_VALUE);
      assertEquals(2, trends.size());
      TrendPoint first = trends.get(0);
      assertEquals("hdfs://ns1", first.namespace);
      assertEquals(1000, first.finished);
      assertEquals(List.of(40L, 1L, 2L, 5L, 15L, 19L),
          List.of(first.blocks, first.missing, first.corrupt, first.oneRack, first.twoRacks, first.moreRacks));
      assertEquals(30, trends.get(1).moreRacks);
      assertEquals(1, store.trends(1500, Long.MAX_VALUE, Integer.MAX_VALUE).size(), "only polls since the time asked");
      List<RackFillPoint> racks = store.rackFill(0, Long.MAX_VALUE, Integer.MAX_VALUE);
      assertEquals(2, racks.size(), "the second poll read no DataNode report");
      assertEquals("/r2", racks.get(1).rack);
      assertEquals(500, racks.get(1).used);

      store.deleteHistoryBefore(1500);
      assertEquals(1, store.trends(0, Long.MAX_VALUE, Integer.MAX_VALUE).size());
      assertEquals(0, store.rackFill(0, Long.MAX_VALUE, Integer.MAX_VALUE).size());
    }
  }

  /**
   * A store written by a monitor of schema version 1 (before the charts) is brought to the newest version
   * at start: its polls read back with zero counts, new polls keep every figure, and ids of new namespaces,
   * DataNodes and storages come from the database after the ones in use.
   */
  @ParameterizedTest
  @MethodSource("engines")
  void aVersionOneStoreIsMigratedAndKeepsItsPolls(String engine) throws Exception {
    String url;
    java.util.Properties props = new java.util.Properties();
    if ("embedded".equals(engine)) {
      url = "jdbc:h2:file:" + new File(dir, "v1/history").getAbsolutePath() + ";WRITE_DELAY=0";
    } else {
      url = TestPostgres.url(TestPostgres.createSchema("bulwark_v1"));
      props = TestPostgres.credentials();
    }
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, props); java.sql.Statement st = c.createStatement()) {
      String v1 = new String(HistoryStore.class.getResourceAsStream("V1__history.sql").readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8);
      for (String sql : v1.replaceAll("(?m)^--.*$", "").split(";")) {
        if (!sql.trim().isEmpty()) {
          st.execute(sql);
        }
      }
      st.execute("CREATE TABLE schema_version (version INT PRIMARY KEY, applied_at BIGINT NOT NULL)");
      st.execute("INSERT INTO schema_version VALUES (1, 0)");
      st.execute("INSERT INTO namespace VALUES (1, 'hdfs://old')");
      st.execute("INSERT INTO namespace VALUES (5, 'hdfs://older')");
      st.execute("INSERT INTO datanode VALUES (3, 'uuid-old', 'dn.old', '10.0.0.9:9866', '/r')");
      st.execute("INSERT INTO storage VALUES (8, 3, 'DS-old', 'DISK')");
      st.execute("INSERT INTO poll VALUES (1, 900, 1000, 3, 7, 21, 2)");
    }
    try (HistoryStore store = JdbcHistoryStore.open(url, props, "version 1 store", SharedStore.LEASE_TIMEOUT)) {
      List<TrendPoint> old = store.trends(0, Long.MAX_VALUE, Integer.MAX_VALUE);
      assertEquals(1, old.size());
      assertEquals(7, old.get(0).blocks);
      assertEquals(0, old.get(0).missing);
      int ns = store.namespaceId("hdfs://old");
      assertEquals(1, ns);
      store.record(store.loadState(ns).diff(ns, 2000, Map.of(), Map.of()),
          new PollSummary(1900, 2000, 3, 7, 21, 2, 1, 0, new long[] {1, 2, 3}, Map.of("/r", new long[] {10, 5})));
      assertEquals(1, store.trends(1500, Long.MAX_VALUE, Integer.MAX_VALUE).get(0).missing);
      assertEquals(1, store.rackFill(0, Long.MAX_VALUE, Integer.MAX_VALUE).size());
      assertEquals(6, store.namespaceId("hdfs://new"), "after the largest namespace id");
      int dn = store.dataNodeId("uuid-new", "dn.new", "10.0.0.10:9866", "/r");
      assertEquals(4, dn, "after the largest DataNode id");
      assertEquals(9, store.storageId(dn, "DS-new", "DISK"), "after the largest storage id");
      assertEquals(3, store.dataNodeId("uuid-old", "dn.old", "10.0.0.9:9866", "/r"), "old ids kept");
    }
  }

  /**
   * H2 commits each of the version 3 statements on its own: a monitor stopped half-way through (the primary
   * key of one table dropped, its identity not yet made) finishes the migration at the next start.
   */
  @org.junit.jupiter.api.Test
  void anEmbeddedIdentityMigrationCutShortIsFinishedAtTheNextStart() throws Exception {
    File storeDir = new File(dir, "identity-cut");
    String url = "jdbc:h2:file:" + new File(storeDir, "history").getAbsolutePath() + ";WRITE_DELAY=0";
    try (HistoryStore store = StoreFactory.embedded(storeDir, SharedStore.LEASE_TIMEOUT)) {
      store.namespaceId("hdfs://a");
    }
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url); java.sql.Statement st = c.createStatement()) {
      // As left by a monitor stopped inside version 3, before any later version.
      st.execute("DELETE FROM schema_version WHERE version >= 3");
      st.execute("DROP TABLE writer_lease");
      st.execute("ALTER TABLE namespace DROP COLUMN block_pool");
      st.execute("ALTER TABLE datanode DROP PRIMARY KEY");
    }
    try (HistoryStore store = StoreFactory.embedded(storeDir, SharedStore.LEASE_TIMEOUT)) {
      assertEquals(1, store.namespaceId("hdfs://a"));
      assertEquals(2, store.namespaceId("hdfs://b"));
      assertEquals(1, store.dataNodeId("u", "h", "a:1", "/r"));
    }
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
        java.sql.ResultSet rs = c.getMetaData().getPrimaryKeys(null, c.getSchema(), "DATANODE")) {
      assertTrue(rs.next(), "the primary key is back");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aFailedRecordLeavesNothingHalfWritten(String engine) throws Exception {
    try (HistoryStore store = open(engine, "atomic")) {
      int ns = store.namespaceId("hdfs://ns1");
      int s = store.storageId(store.dataNodeId("u", "h", "a:1", "/r"), "DS", "DISK");
      NamespaceState state = store.loadState(ns);
      Map<Long, ObservedBlock> bad = new HashMap<>(seen(1, "/ok", s));
      bad.put(2L, new ObservedBlock(2, "/" + "x".repeat(5000), new int[] {s}, false, false)); // path too long for the column
      PollChanges c = state.diff(ns, 1000, bad, Map.of());
      assertThrows(java.io.IOException.class, () -> store.record(c, new PollSummary(0, 1000, 2, 2, 2, 1)));
      assertEquals(0, store.loadState(ns).openReplicas(), "the replicas of that poll were rolled back with it");
    }
  }
}
