package org.bulwark.hdfs.monitor.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.bulwark.hdfs.monitor.store.RackFillPoint;
import org.bulwark.hdfs.monitor.store.TrendPoint;

/**
 * Turns stored poll figures into the series the overview's charts draw, at most {@code maxPoints} per
 * series whatever the range: polls are grouped into equal time buckets, each keeping the highest missing
 * and corrupt count (a spike must not vanish when thinned) and the last of the other figures.
 */
final class TrendSeries {
  private final int maxPoints;
  private final long since;
  private final long until;

  TrendSeries(int maxPoints, long since, long until) {
    this.maxPoints = maxPoints;
    this.since = since;
    this.until = Math.max(until, since + 1);
  }

  /** A poll's bucket: its own when a series has no more polls than points, else its share of the range. */
  private int bucket(long time, int index, int count) {
    if (count <= maxPoints) {
      return index;
    }
    return (int) Math.min(maxPoints - 1, Math.max(0, (time - since) * maxPoints / (until - since)));
  }

  /** Per namespace: {@code [time, blocks, missing, corrupt, oneRack, twoRacks, moreRacks]} rows. */
  ObjectNode polls(ObjectMapper json, List<TrendPoint> points) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    points.forEach(p -> counts.merge(p.namespace, 1, Integer::sum));
    Map<String, Map<Integer, long[]>> byNamespace = new LinkedHashMap<>();
    for (TrendPoint p : points) {
      Map<Integer, long[]> buckets = byNamespace.computeIfAbsent(p.namespace, n -> new LinkedHashMap<>());
      int bucket = bucket(p.finished, buckets.size(), counts.get(p.namespace));
      long[] row = buckets.get(bucket);
      long missing = row == null ? p.missing : Math.max(row[2], p.missing);
      long corrupt = row == null ? p.corrupt : Math.max(row[3], p.corrupt);
      buckets.put(bucket, new long[] {p.finished, p.blocks, missing, corrupt, p.oneRack, p.twoRacks, p.moreRacks});
    }
    ObjectNode out = json.createObjectNode();
    byNamespace.forEach((ns, buckets) -> {
      ArrayNode rows = out.putArray(ns);
      for (long[] r : buckets.values()) {
        ArrayNode row = rows.addArray();
        for (long v : r) {
          row.add(v);
        }
      }
    });
    return out;
  }

  /** Per rack: {@code [time, utilisation %]} rows, the last poll of each bucket. */
  ObjectNode racks(ObjectMapper json, List<RackFillPoint> points) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    points.forEach(p -> counts.merge(p.rack, 1, Integer::sum));
    Map<String, Map<Integer, double[]>> byRack = new LinkedHashMap<>();
    for (RackFillPoint p : points) {
      double pct = p.capacity == 0 ? 0 : 100.0 * p.used / p.capacity;
      Map<Integer, double[]> buckets = byRack.computeIfAbsent(p.rack, r -> new LinkedHashMap<>());
      buckets.put(bucket(p.finished, buckets.size(), counts.get(p.rack)), new double[] {p.finished, pct});
    }
    ObjectNode out = json.createObjectNode();
    byRack.forEach((rack, buckets) -> {
      ArrayNode rows = out.putArray(rack);
      for (double[] r : new ArrayList<>(buckets.values())) {
        rows.addArray().add((long) r[0]).add(Math.round(r[1] * 100) / 100.0);
      }
    });
    return out;
  }
}
