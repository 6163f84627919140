package org.bulwark.hdfs.monitor.store;

import static org.bulwark.hdfs.monitor.store.Statements.bind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The charts' series, thinned in SQL on the reader's connection: a chart asks for at most so many points over a
 * range that may hold months of minute polls, and only those points leave the database.
 */
final class ChartQueries {
  private final Connection reader;

  ChartQueries(Connection reader) {
    this.reader = reader;
  }

  static void checkRange(long since, long until, int maxPoints) {
    if (maxPoints < 1 || since < 0 || until < since) {
      throw new IllegalArgumentException("a chart range needs 0 <= since <= until and at least one point: since " + since
          + ", until " + until + ", points " + maxPoints);
    }
  }

  /** Per time share (the poll itself while they fit): the last poll, with the share's highest missing and corrupt. */
  List<TrendPoint> trends(long since, long until, int maxPoints) throws SQLException {
    long width = pollBucketWidth(since, until, maxPoints);
    return Statements.rows(reader, "SELECT n.uri, p.finished, p.blocks, b.missing, b.corrupt, "
        + "p.blocks_one_rack, p.blocks_two_racks, p.blocks_more_racks FROM (SELECT namespace_id, MAX(finished) AS last, "
        + "MAX(missing) AS missing, MAX(corrupt) AS corrupt FROM poll WHERE finished >= ? AND finished <= ? "
        + "GROUP BY namespace_id, " + bucketOf(width) + ") b JOIN poll p ON p.namespace_id = b.namespace_id "
        + "AND p.finished = b.last JOIN namespace n ON n.id = p.namespace_id ORDER BY p.finished",
        rs -> new TrendPoint(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
            rs.getLong(7), rs.getLong(8)),
        width == 0 ? new Object[] {since, until} : new Object[] {since, until, since, width});
  }

  /**
   * Rack fill is a row per rack and poll: months of it are millions of rows, too many to scan for a chart. While
   * the range's polls fit the chart, every row is read; otherwise the last poll time of each share of the range is
   * found through the index on {@code finished} (one probe per point), and only those polls' rows are read.
   */
  List<RackFillPoint> rackFill(long since, long until, int maxPoints) throws SQLException {
    List<Long> times = pollsIn(since, until) <= maxPoints ? null : lastFillOfEachShare(since, until, maxPoints);
    if (times != null && times.isEmpty()) {
      return new ArrayList<>();
    }
    StringBuilder sql = new StringBuilder("SELECT finished, rack, capacity, used FROM rack_fill WHERE ");
    if (times == null) {
      sql.append("finished >= ? AND finished <= ?");
    } else {
      sql.append("finished IN (").append(Statements.placeholders(times.size())).append(')');
    }
    return Statements.rows(reader, sql.append(" ORDER BY finished, rack").toString(),
        rs -> new RackFillPoint(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4)),
        times == null ? new Object[] {since, until} : times.toArray());
  }

  /** Polls of every namespace in the range (an index range count). */
  private long pollsIn(long since, long until) throws SQLException {
    try (PreparedStatement p = reader.prepareStatement("SELECT COUNT(*) FROM poll WHERE finished >= ? AND finished <= ?")) {
      bind(p, since, until);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** The last rack fill time in each of {@code maxPoints} equal shares of the range that has one, oldest first. */
  private List<Long> lastFillOfEachShare(long since, long until, int maxPoints) throws SQLException {
    long width = (until - since) / maxPoints + 1;
    List<Long> times = new ArrayList<>();
    try (PreparedStatement p = reader.prepareStatement("SELECT finished FROM rack_fill WHERE finished >= ? AND finished <= ? "
        + "ORDER BY finished DESC FETCH FIRST 1 ROWS ONLY")) {
      for (int k = 0; k < maxPoints; k++) {
        long from = since + k * width;
        if (from > until || from < since) {
          break;
        }
        bind(p, from, until - from < width ? until : from + width - 1);
        try (ResultSet rs = p.executeQuery()) {
          if (rs.next()) {
            times.add(rs.getLong(1));
          }
        }
      }
    }
    return times;
  }

  /**
   * The width of a poll chart's time bucket: 0 (a bucket per poll) when no namespace has more polls in the range
   * than {@code maxPoints}, else the range over {@code maxPoints}, rounded up so that it makes at most that many.
   */
  private long pollBucketWidth(long since, long until, int maxPoints) throws SQLException {
    try (PreparedStatement p = reader.prepareStatement("SELECT MAX(c) FROM (SELECT COUNT(*) AS c FROM poll "
        + "WHERE finished >= ? AND finished <= ? GROUP BY namespace_id) counts")) {
      bind(p, since, until);
      try (ResultSet rs = p.executeQuery()) {
        long most = rs.next() ? rs.getLong(1) : 0;
        return most <= maxPoints ? 0 : (until - since) / maxPoints + 1;
      }
    }
  }

  /** The bucket a row's {@code finished} falls in: itself while rows fit (width 0), else its share of the range. */
  private static String bucketOf(long width) {
    return width == 0 ? "finished" : "(finished - ?) / ?";
  }
}
