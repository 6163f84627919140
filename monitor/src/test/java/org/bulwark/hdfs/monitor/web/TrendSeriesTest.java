package org.bulwark.hdfs.monitor.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.bulwark.hdfs.monitor.store.RackFillPoint;
import org.bulwark.hdfs.monitor.store.TrendPoint;
import org.junit.jupiter.api.Test;

/** Chart series: every poll while they fit, thinned to the limit beyond, never losing a spike of missing blocks. */
class TrendSeriesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<TrendPoint> polls(int n, long every, int spikeAt) {
    List<TrendPoint> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new TrendPoint("hdfs://ns1", 1_000 + i * every, 100, i == spikeAt ? 7 : 0, 0, 1, 2, 97));
    }
    return out;
  }

  @Test
  void pollsThatFitAreAllKeptEvenSecondsApart() {
    JsonNode rows = new TrendSeries(500, 0, 86_400_000L).polls(JSON, polls(3, 1_000, -1)).get("hdfs://ns1");
    assertEquals(3, rows.size(), "three polls a second apart in a day's range: three points");
    assertEquals(3_000, rows.get(2).get(0).asLong());
    assertEquals(97, rows.get(0).get(6).asLong());
  }

  @Test
  void manyPollsAreThinnedToTheLimitKeepingTheHighestMissingCount() {
    long every = 60_000;
    int n = 1_440;
    JsonNode rows = new TrendSeries(500, 1_000, 1_000 + n * every).polls(JSON, polls(n, every, 777)).get("hdfs://ns1");
    assertTrue(rows.size() <= 500 && rows.size() >= 480, rows.size() + " points");
    long highest = 0;
    for (JsonNode r : rows) {
      highest = Math.max(highest, r.get(2).asLong());
    }
    assertEquals(7, highest, "the one poll with missing blocks survives the thinning");
  }

  @Test
  void rackFillIsAPercentagePerRack() {
    List<RackFillPoint> fill = List.of(new RackFillPoint(1_000, "/r1", 400, 100), new RackFillPoint(1_000, "/r2", 0, 0),
        new RackFillPoint(2_000, "/r1", 400, 300));
    JsonNode racks = new TrendSeries(500, 0, 10_000).racks(JSON, fill);
    assertEquals(2, racks.get("/r1").size());
    assertEquals(25.0, racks.get("/r1").get(0).get(1).asDouble());
    assertEquals(75.0, racks.get("/r1").get(1).get(1).asDouble());
    assertEquals(0.0, racks.get("/r2").get(0).get(1).asDouble(), "no capacity reads 0, not NaN");
  }
}
