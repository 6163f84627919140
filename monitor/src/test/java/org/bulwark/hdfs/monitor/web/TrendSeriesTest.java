package org.bulwark.hdfs.monitor.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.bulwark.hdfs.monitor.store.RackFillPoint;
import org.bulwark.hdfs.monitor.store.TrendPoint;
import org.junit.jupiter.api.Test;

/** Chart series as the overview draws them, from points the store has thinned (see TrendThinningIT). */
class TrendSeriesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void pollsAreRowsPerNamespace() {
    List<TrendPoint> points = List.of(new TrendPoint("hdfs://ns1", 1_000, 100, 7, 0, 1, 2, 97),
        new TrendPoint("hdfs://ns2", 1_000, 50, 0, 0, 0, 0, 50), new TrendPoint("hdfs://ns1", 2_000, 101, 0, 1, 1, 2, 98));
    JsonNode polls = TrendSeries.polls(JSON, points);
    assertEquals(2, polls.get("hdfs://ns1").size());
    assertEquals("[1000,100,7,0,1,2,97]", polls.get("hdfs://ns1").get(0).toString());
    assertEquals(2_000, polls.get("hdfs://ns1").get(1).get(0).asLong());
    assertEquals(1, polls.get("hdfs://ns2").size());
  }

  @Test
  void rackFillIsAPercentagePerRack() {
    List<RackFillPoint> fill = List.of(new RackFillPoint(1_000, "/r1", 400, 100), new RackFillPoint(1_000, "/r2", 0, 0),
        new RackFillPoint(2_000, "/r1", 400, 300));
    JsonNode racks = TrendSeries.racks(JSON, fill);
    assertEquals(2, racks.get("/r1").size());
    assertEquals(25.0, racks.get("/r1").get(0).get(1).asDouble());
    assertEquals(75.0, racks.get("/r1").get(1).get(1).asDouble());
    assertEquals(0.0, racks.get("/r2").get(0).get(1).asDouble(), "no capacity reads 0, not NaN");
  }
}
