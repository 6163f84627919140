package org.bulwark.hdfs.monitor.store;

import java.io.File;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.bulwark.hdfs.testkit.BenchReport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overview's charts over the longest range they offer (90 days, the default retention) of a monitor polling
 * every minute: how long the store takes to give the series, thinned by the database to the chart's 500 points,
 * and, in the same run, what reading every row of the range costs (what the monitor did before it thinned in
 * SQL: rows loaded into its heap, then thinned). Both engines. Writes {@code target/bench/monitor-trends.json}.
 */
@Tag("bench-all")
@Tag("bench-monitor-trends")
class TrendsBenchmark {
  private static final int DAYS = Integer.getInteger("bench.trends.days", 90);
  private static final int RACKS = Integer.getInteger("bench.trends.racks", 40);
  private static final long MINUTE = 60_000;
  private static final int POINTS = 500;
  private static final int RUNS = 5;

  @TempDir
  File dir;

  @Test
  void trends() throws Exception {
    BenchReport report = BenchReport.start("monitor-trends", RUNS);
    ObjectNode root = report.root();
    long polls = DAYS * 1_440L;
    root.put("days", DAYS).put("racks", RACKS).put("polls", polls).put("rack_fill_rows", polls * RACKS)
        .put("chart_points", POINTS);
    for (String engine : new String[] {"embedded", "postgresql"}) {
      SharedStore place = new SharedStore(engine, dir, "trends_bench");
      try (HistoryStore store = place.open()) {
        int ns = store.namespaceId("hdfs://ns1");
        long t0 = System.nanoTime();
        fill(place, ns, polls);
        System.out.printf("%s: wrote %,d polls and %,d rack fill rows in %.0f s%n", engine, polls, polls * RACKS,
            (System.nanoTime() - t0) / 1e9);
        long until = (polls - 1) * MINUTE;
        List<Double> thinned = new ArrayList<>();
        List<Double> unthinned = new ArrayList<>();
        long points = 0;
        long rows = 0;
        for (int run = 0; run < RUNS; run++) {
          long s = System.nanoTime();
          points = store.trends(0, until, POINTS).size() + store.rackFill(0, until, POINTS).size();
          thinned.add((System.nanoTime() - s) / 1e6);
          s = System.nanoTime();
          rows = readEveryRow(place, until);
          unthinned.add((System.nanoTime() - s) / 1e6);
        }
        ObjectNode e = root.putObject(engine);
        e.put("thinned_ms_p50", median(thinned)).put("thinned_points", points)
            .put("every_row_ms_p50", median(unthinned)).put("every_row_rows", rows);
        System.out.printf("%s: series of %,d points in %.0f ms at the median; reading every row (%,d) %.0f ms%n", engine,
            points, median(thinned), rows, median(unthinned));
      }
    }
    System.out.println("wrote " + report.write());
  }

  /** Every minute for the range: one poll row and one fill row per rack. */
  private static void fill(SharedStore place, int ns, long polls) throws Exception {
    try (Connection c = place.connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement poll = c.prepareStatement("INSERT INTO poll (namespace_id, started, finished, files, blocks, "
          + "replicas, rpcs, missing, corrupt, blocks_one_rack, blocks_two_racks, blocks_more_racks) "
          + "VALUES (?, ?, ?, 1000, 5000, 15000, 10, ?, 0, 0, 100, 4900)");
          PreparedStatement fill = c.prepareStatement("INSERT INTO rack_fill (finished, rack, capacity, used) VALUES (?, ?, ?, ?)")) {
        for (long i = 0; i < polls; i++) {
          long finished = i * MINUTE;
          poll.setInt(1, ns);
          poll.setLong(2, finished - 5_000);
          poll.setLong(3, finished);
          poll.setLong(4, i % 5_000 == 0 ? 3 : 0);
          poll.addBatch();
          for (int r = 0; r < RACKS; r++) {
            fill.setLong(1, finished);
            fill.setString(2, "/dc" + (r % 2) + "/rack" + r);
            fill.setLong(3, 1L << 44);
            fill.setLong(4, (1L << 40) + i * r);
            fill.addBatch();
          }
          if (i % 1_000 == 999) {
            poll.executeBatch();
            fill.executeBatch();
            c.commit();
          }
        }
        poll.executeBatch();
        fill.executeBatch();
        c.commit();
      }
    }
  }

  /**
   * Every poll and fill row of the range, read into points as the monitor did before it thinned in SQL (its
   * queries then, the points held until thinned); the number of points.
   */
  private static long readEveryRow(SharedStore place, long until) throws Exception {
    List<TrendPoint> polls = new ArrayList<>();
    List<RackFillPoint> fills = new ArrayList<>();
    try (Connection c = place.connect()) {
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("SELECT n.uri, p.finished, p.blocks, p.missing, p.corrupt, "
          + "p.blocks_one_rack, p.blocks_two_racks, p.blocks_more_racks FROM poll p JOIN namespace n ON n.id = p.namespace_id "
          + "WHERE p.finished >= 0 AND p.finished <= " + until + " ORDER BY p.finished")) {
        p.setFetchSize(10_000);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            polls.add(new TrendPoint(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                rs.getLong(6), rs.getLong(7), rs.getLong(8)));
          }
        }
      }
      try (PreparedStatement p = c.prepareStatement("SELECT finished, rack, capacity, used FROM rack_fill "
          + "WHERE finished >= 0 AND finished <= " + until + " ORDER BY finished, rack")) {
        p.setFetchSize(10_000);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            fills.add(new RackFillPoint(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
          }
        }
      }
    }
    return polls.size() + fills.size();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return Math.round(sorted.get(sorted.size() / 2) * 10) / 10.0;
  }
}
