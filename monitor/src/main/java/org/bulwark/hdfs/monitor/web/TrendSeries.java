package org.bulwark.hdfs.monitor.web;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.bulwark.hdfs.monitor.store.RackFillPoint;
import org.bulwark.hdfs.monitor.store.TrendPoint;

/**
 * Turns stored poll figures, already thinned by the store to a chart's points
 * ({@link org.bulwark.hdfs.monitor.store.HistoryStore#trends}), into the series the overview's charts draw.
 */
final class TrendSeries {
  private TrendSeries() {
  }

  /** Per namespace: {@code [time, blocks, missing, corrupt, oneRack, twoRacks, moreRacks]} rows. */
  static ObjectNode polls(ObjectMapper json, List<TrendPoint> points) {
    ObjectNode out = json.createObjectNode();
    for (TrendPoint p : points) {
      ArrayNode rows = out.has(p.namespace) ? (ArrayNode) out.get(p.namespace) : out.putArray(p.namespace);
      rows.addArray().add(p.finished).add(p.blocks).add(p.missing).add(p.corrupt).add(p.oneRack).add(p.twoRacks)
          .add(p.moreRacks);
    }
    return out;
  }

  /** Per rack: {@code [time, utilisation %]} rows. */
  static ObjectNode racks(ObjectMapper json, List<RackFillPoint> points) {
    ObjectNode out = json.createObjectNode();
    for (RackFillPoint p : points) {
      double pct = p.capacity == 0 ? 0 : 100.0 * p.used / p.capacity;
      ArrayNode rows = out.has(p.rack) ? (ArrayNode) out.get(p.rack) : out.putArray(p.rack);
      rows.addArray().add(p.finished).add(Math.round(pct * 100) / 100.0);
    }
    return out;
  }
}
