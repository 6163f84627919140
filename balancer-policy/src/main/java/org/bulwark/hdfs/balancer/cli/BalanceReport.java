package org.bulwark.hdfs.balancer.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import org.apache.hadoop.util.StringUtils;
import org.bulwark.hdfs.balancer.exec.RunRecord;
import org.bulwark.hdfs.balancer.exec.UtilisationFigures;

/** The run's summary table on the console and, with {@code -report FILE}, its JSON report. */
final class BalanceReport {
  private final RunRecord record;
  private final double threshold;
  private final double durationSeconds;

  BalanceReport(RunRecord record, double threshold, double durationSeconds) {
    this.record = record;
    this.threshold = threshold;
    this.durationSeconds = durationSeconds;
  }

  Map<String, Object> fields() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("policy", BalancerOptions.AVAILABILITY);
    m.put("threshold", threshold);
    m.put("iterations", record.iterationsWithMoves());
    m.put("duration_s", durationSeconds);
    m.put("bytes_moved", record.bytesMoved());
    m.put("bytes_min_to_move", record.bytesMinToMove());
    m.put("bytes_least", record.bytesLeast());
    m.put("bytes_failed", record.bytesFailed());
    m.put("bytes_refused", record.bytesRefused());
    m.put("mb_per_s", durationSeconds <= 0 ? 0.0 : record.bytesMoved() / (1024.0 * 1024.0) / durationSeconds);
    m.put("moves", record.moves());
    m.put("moves_adding_rack", record.movesAddingRack());
    m.put("moves_adding_rack_possible", record.movesAddingRackPossible());
    m.put("moves_keeping_rack", record.movesKeepingRack());
    m.put("dn_util_stddev_before", stdDev(record.before()));
    m.put("dn_util_stddev_after", stdDev(record.after()));
    m.put("dn_util_max_dev_after", record.after() == null ? null : record.after().maxDeviation());
    m.put("dn_over_threshold_after", record.after() == null ? null : record.after().dataNodesAbove(threshold));
    m.put("rack_util_before", racks(record.before()));
    m.put("rack_util_after", racks(record.after()));
    m.put("blocks_by_rack_count_before", counts(record.blocksByRacksBefore()));
    m.put("blocks_by_rack_count_after", counts(record.blocksByRacksAfter()));
    return m;
  }

  /** Writes the JSON next to the target and renames it into place: never a half-written report. */
  void writeJson(String path) throws IOException {
    File target = new File(path).getAbsoluteFile();
    File tmp = new File(target.getParentFile(), "." + target.getName() + ".tmp");
    Files.write(tmp.toPath(), Json.write(fields()).getBytes(StandardCharsets.UTF_8));
    Files.move(tmp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING);
  }

  void printSummary(PrintStream out) {
    out.println();
    out.println("Availability balancing summary (threshold " + threshold + ")");
    out.printf("  %-28s %d%n", "iterations with moves", record.iterationsWithMoves());
    out.printf("  %-28s %s (needed at least %s)%n", "bytes moved", StringUtils.byteDesc(record.bytesMoved()),
        StringUtils.byteDesc(record.bytesMinToMove()));
    out.printf("  %-28s %.1f MB/s%n", "moved at", (Double) fields().get("mb_per_s"));
    if (record.bytesFailed() > 0 || record.bytesRefused() > 0) {
      out.printf("  %-28s %s failed at the DataNodes, %s refused by the dispatcher%n", "moves not done",
          StringUtils.byteDesc(record.bytesFailed()), StringUtils.byteDesc(record.bytesRefused()));
    }
    long moves = record.moves();
    out.printf("  %-28s %d: %d adding a rack (%.1f%%), %d keeping the rack count%n", "block moves", moves,
        record.movesAddingRack(), moves == 0 ? 0.0 : record.movesAddingRack() * 100.0 / moves,
        record.movesKeepingRack());
    out.printf("  %-28s %d of the best possible %d moves raised a rack; %s moved, %s was the least that balances%n",
        "rack-adding moves", record.movesAddingRack(), record.movesAddingRackPossible(),
        StringUtils.byteDesc(record.bytesMoved()), StringUtils.byteDesc(record.bytesLeast()));
    if (record.before() != null) {
      out.printf("  %-28s %.2f -> %.2f points (largest distance from average after: %.2f)%n",
          "DataNode utilisation std-dev", record.before().stdDev(), record.after().stdDev(),
          record.after().maxDeviation());
      out.printf("  %-28s %-26s %s%n", "rack", "before", "after");
      for (Map.Entry<String, long[]> e : record.before().racks().entrySet()) {
        long[] after = record.after().racks().get(e.getKey());
        out.printf("  %-28s %-26s %s%n", e.getKey(), rack(e.getValue()), after == null ? "-" : rack(after));
      }
    }
    if (record.blocksByRacksBefore() != null && record.blocksByRacksAfter() != null) {
      out.printf("  %-28s %s -> %s%n", "blocks by number of racks", record.blocksByRacksBefore(),
          record.blocksByRacksAfter());
    }
  }

  private static String rack(long[] usedAndCapacity) {
    return String.format("%s (%.1f%%)", StringUtils.byteDesc(usedAndCapacity[0]),
        usedAndCapacity[1] == 0 ? 0.0 : usedAndCapacity[0] * 100.0 / usedAndCapacity[1]);
  }

  private static Double stdDev(UtilisationFigures f) {
    return f == null ? null : f.stdDev();
  }

  private static Map<String, Object> racks(UtilisationFigures f) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (f != null) {
      for (Map.Entry<String, long[]> e : f.racks().entrySet()) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("bytes", e.getValue()[0]);
        r.put("pct", e.getValue()[1] == 0 ? 0.0 : e.getValue()[0] * 100.0 / e.getValue()[1]);
        out.put(e.getKey(), r);
      }
    }
    return out;
  }

  private static Map<String, Object> counts(SortedMap<Integer, Long> counts) {
    if (counts == null) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    counts.forEach((racks, blocks) -> out.put(String.valueOf(racks), blocks));
    return out;
  }
}
