package org.bulwark.hdfs.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class TopologySpecTest {

  @Test
  void parsesRacksCountsCapacitiesAndDatacenters() {
    TopologySpec spec = TopologySpec.parse("/dc1/r1:3, /dc1/r2:3@512m,/dc2/r3:2@1g,/dc2/r4:2");
    assertEquals(4, spec.racks().size());
    assertEquals(10, spec.dataNodeCount());
    assertEquals(new TopologySpec.Rack("/dc1/r2", 3, 512L << 20), spec.racks().get(1));
    assertEquals(1L << 30, spec.racks().get(2).capacityBytes());
    assertEquals(0, spec.racks().get(3).capacityBytes());
    assertEquals(List.of("/dc1", "/dc2"), spec.datacenters());
    List<TopologySpec.Rack> each = spec.rackOfEachDataNode();
    assertEquals(10, each.size());
    assertEquals("/dc1/r1", each.get(2).path());
    assertEquals("/dc1/r2", each.get(3).path());
    assertEquals("/dc2/r4", each.get(9).path());
    assertEquals(spec, TopologySpec.parse(spec.toString()));
  }

  @Test
  void flatRacksAllBelongToOneDatacenter() {
    TopologySpec spec = TopologySpec.parse("/r1:1,/r2:2");
    assertEquals(List.of("/"), spec.datacenters());
  }

  @Test
  void rejectsBadSpecsNamingTheEntry() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse("/dc1/r1:x"))
        .getMessage().contains("'/dc1/r1:x' is not /rack:count[@capacity]"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse("dc1/r1:3"))
        .getMessage().contains("'dc1/r1:3'"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse("/r1:0"))
        .getMessage().contains("at least one DataNode"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse("/r1:1,/r1:2"))
        .getMessage().contains("names rack /r1 twice"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse("/dc1/r1:1,/r2:2"))
        .getMessage().contains("same depth"));
    assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse(" "));
    assertThrows(IllegalArgumentException.class, () -> TopologySpec.parse("/r1:2@lots"));
  }
}
