package org.bulwark.hdfs.placement.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TopologyDepthRulesTest {
  @Test
  void depthCountsPathComponents() {
    assertEquals(1, TopologyDepthRules.depth("/r1"));
    assertEquals(2, TopologyDepthRules.depth("/dc1/r1"));
    assertEquals(2, TopologyDepthRules.depth("/dc1/r1/"));
  }

  @Test
  void sameDepthEverywhereIsFineAndTheFirstOddHostIsNamed() {
    assertNull(TopologyDepthRules.firstMismatch(Map.of("a", "/dc1/r1", "b", "/dc2/r9")));
    assertNull(TopologyDepthRules.firstMismatch(Map.of()));
    Map<String, String> mixed = new LinkedHashMap<>();
    mixed.put("a", "/r1");
    mixed.put("b", "/r2");
    mixed.put("c", "/dc1/r3");
    String m = TopologyDepthRules.firstMismatch(mixed);
    assertTrue(m.startsWith("host c maps to /dc1/r3 (2 levels) but a maps to /r1 (1 level)"), m);
  }
}
