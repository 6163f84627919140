package org.bulwark.hdfs.placement.rescan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RescanTriggerTest {
  private static final long SETTLE = 30_000;
  private static final long MIN_INTERVAL = 600_000;
  private static final TopologyShape TWO_DCS = new TopologyShape(4, 2);
  private static final TopologyShape ONE_DC = new TopologyShape(2, 1);

  @Test
  void aStableTopologyNeverAsks() {
    RescanTrigger t = new RescanTrigger(SETTLE, MIN_INTERVAL);
    for (long now = 0; now < 3_600_000; now += 5_000) {
      assertFalse(t.due(true, TWO_DCS, now));
    }
  }

  @Test
  void aDatacenterBackAsksOnceItHeldStillForTheSettleTime() {
    RescanTrigger t = new RescanTrigger(SETTLE, MIN_INTERVAL);
    assertFalse(t.due(true, TWO_DCS, 0));
    assertFalse(t.due(true, ONE_DC, 5_000)); // dc2 gone: blocks written now fit one datacenter
    assertEquals(ONE_DC, t.baseline());
    assertFalse(t.due(true, new TopologyShape(3, 2), 60_000)); // its first rack registers
    assertFalse(t.due(true, TWO_DCS, 70_000)); // then the second: the settle time starts again
    assertFalse(t.due(true, TWO_DCS, 95_000));
    assertTrue(t.due(true, TWO_DCS, 100_000));
    assertEquals(TWO_DCS, t.baseline());
    assertFalse(t.due(true, TWO_DCS, 200_000), "once per growth");
  }

  @Test
  void rescansAreAtLeastTheMinimumIntervalApart() {
    RescanTrigger t = new RescanTrigger(0, MIN_INTERVAL);
    t.due(true, TWO_DCS, 0);
    t.due(true, ONE_DC, 1_000);
    assertTrue(t.due(true, TWO_DCS, 2_000));
    t.due(true, ONE_DC, 3_000);
    assertFalse(t.due(true, TWO_DCS, 4_000));
    assertFalse(t.due(true, TWO_DCS, 601_999));
    assertTrue(t.due(true, TWO_DCS, 602_000), "the growth is still owed once the interval is over");
  }

  @Test
  void aStandbyNeverAsksAndItsActivationScanIsTheBaseline() {
    RescanTrigger t = new RescanTrigger(0, 0);
    assertFalse(t.due(false, ONE_DC, 0));
    assertFalse(t.due(false, TWO_DCS, 5_000));
    assertNull(t.baseline());
    // Active from here: its own activation scan judged what it knew then.
    assertFalse(t.due(true, TWO_DCS, 10_000));
    assertFalse(t.due(true, TWO_DCS, 15_000));
  }

  @Test
  void nodesRegisteringBetweenTheLastStandbyCheckAndTheActivationScanStillCount() {
    RescanTrigger t = new RescanTrigger(0, 0);
    assertFalse(t.due(false, ONE_DC, 0));
    // Activated with dc2 already back at the first active check: its scan may have run before dc2 registered.
    assertFalse(t.due(true, TWO_DCS, 5_000));
    assertEquals(ONE_DC, t.baseline());
    assertTrue(t.due(true, TWO_DCS, 10_000));
  }

  @Test
  void moreRacksInOneDatacenterAlsoCount() {
    RescanTrigger t = new RescanTrigger(0, 0);
    t.due(true, new TopologyShape(2, 1), 0);
    assertTrue(t.due(true, new TopologyShape(3, 1), 1_000));
  }
}
