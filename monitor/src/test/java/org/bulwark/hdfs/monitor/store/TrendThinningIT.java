package org.bulwark.hdfs.monitor.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The charts' series thinned by the database, on both engines: every poll while they fit, else at most the
 * points asked per namespace and per rack, the last poll of each share of the range, never losing a spike of
 * missing or corrupt blocks.
 */
class TrendThinningIT {
  private static final long MINUTE = 60_000;
  private static final int DAY = 1_440;

  @TempDir
  File dir;

  static Stream<String> engines() {
    return Stream.of("embedded", "postgresql");
  }

  /** A day of polls a minute apart for two namespaces, missing blocks once (poll 777) in the first, and two racks' fill. */
  private static void aDayOfPolls(SharedStore place, int ns1, int ns2) throws Exception {
    try (Connection c = place.connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement poll = c.prepareStatement("INSERT INTO poll (namespace_id, started, finished, files, blocks, "
          + "replicas, rpcs, missing, corrupt, blocks_one_rack, blocks_two_racks, blocks_more_racks) "
          + "VALUES (?, ?, ?, 1, ?, 3, 1, ?, ?, 0, 0, ?)");
          PreparedStatement fill = c.prepareStatement("INSERT INTO rack_fill (finished, rack, capacity, used) VALUES (?, ?, 1000, ?)")) {
        for (int i = 0; i < DAY; i++) {
          long finished = i * MINUTE;
          for (int ns : new int[] {ns1, ns2}) {
            poll.setInt(1, ns);
            poll.setLong(2, finished - 10);
            poll.setLong(3, finished);
            poll.setLong(4, 100 + i);
            poll.setLong(5, ns == ns1 && i == 777 ? 7 : 0);
            poll.setLong(6, ns == ns1 && i == 1_000 ? 2 : 0);
            poll.setLong(7, 100 + i);
            poll.addBatch();
          }
          for (String rack : new String[] {"/r1", "/r2"}) {
            fill.setLong(1, finished);
            fill.setString(2, rack);
            fill.setLong(3, i % 1000);
            fill.addBatch();
          }
        }
        poll.executeBatch();
        fill.executeBatch();
      }
      c.commit();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aDayOfPollsIsThinnedToThePointsAskedKeepingSpikes(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "trend_thinning");
    try (HistoryStore store = place.open()) {
      int ns1 = store.namespaceId("hdfs://ns1");
      int ns2 = store.namespaceId("hdfs://ns2");
      aDayOfPolls(place, ns1, ns2);
      long until = (DAY - 1) * MINUTE;

      List<TrendPoint> thinned = store.trends(0, until, 500);
      for (String ns : List.of("hdfs://ns1", "hdfs://ns2")) {
        long points = thinned.stream().filter(p -> p.namespace.equals(ns)).count();
        assertTrue(points <= 500 && points >= 480, ns + ": " + points + " points");
      }
      List<TrendPoint> first = thinned.stream().filter(p -> p.namespace.equals("hdfs://ns1")).toList();
      assertEquals(7, first.stream().mapToLong(p -> p.missing).max().getAsLong(), "the one poll with missing blocks survives");
      assertEquals(2, first.stream().mapToLong(p -> p.corrupt).max().getAsLong(), "and the one with corrupt blocks");
      TrendPoint last = first.get(first.size() - 1);
      assertEquals(until, last.finished, "each point is its share's last poll");
      assertEquals(100 + DAY - 1, last.blocks);
      for (int i = 1; i < first.size(); i++) {
        assertTrue(first.get(i).finished > first.get(i - 1).finished, "oldest first");
      }

      List<RackFillPoint> racks = store.rackFill(0, until, 500);
      for (String rack : List.of("/r1", "/r2")) {
        long points = racks.stream().filter(p -> p.rack.equals(rack)).count();
        assertTrue(points <= 500 && points >= 480, rack + ": " + points + " points");
      }
      RackFillPoint lastFill = racks.get(racks.size() - 1);
      assertEquals(until, lastFill.finished);
      assertEquals((DAY - 1) % 1000, lastFill.used);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void pollsThatFitAreAllKept(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "trend_fit");
    try (HistoryStore store = place.open()) {
      int ns1 = store.namespaceId("hdfs://ns1");
      int ns2 = store.namespaceId("hdfs://ns2");
      aDayOfPolls(place, ns1, ns2);
      // The last hour: 60 polls per namespace, 60 fills per rack, all under the limit.
      long since = (DAY - 60) * MINUTE;
      List<TrendPoint> hour = store.trends(since, since + 59 * MINUTE, 500);
      assertEquals(120, hour.size());
      assertEquals(since, hour.get(0).finished);
      assertEquals(120, store.rackFill(since, since + 59 * MINUTE, 500).size());
      assertEquals(2, store.trends(since, since, 500).size(), "a range of one poll");
    }
  }
}
