package org.bulwark.hdfs.placement.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The tally of why nodes were turned down, and the once-per-cause-per-interval log gate. */
class FallbackRulesTest {

  @Test
  void theDominantReasonCountsEachNodeOnce() {
    RejectionTally<String> tally = new RejectionTally<>();
    assertEquals(FallbackCause.NO_RACK_LEFT, tally.dominant(), "nothing turned down: the racks ran out");
    assertFalse(tally.counted("n1"));
    tally.reject("n1", FallbackCause.SPACE);
    tally.reject("n1", FallbackCause.EXCLUDED);
    tally.reject("n1", FallbackCause.EXCLUDED);
    tally.reject("n2", FallbackCause.EXCLUDED);
    tally.reject("n3", FallbackCause.SPACE);
    assertTrue(tally.counted("n1"));
    assertEquals(FallbackCause.SPACE, tally.dominant(), "n1 is a space problem met again as excluded");
    tally.reject("n4", FallbackCause.EXCLUDED);
    tally.reject("n5", FallbackCause.EXCLUDED);
    assertEquals(FallbackCause.EXCLUDED, tally.dominant());
  }

  @Test
  void eachCauseIsLoggedOncePerIntervalWithWhatWasHeldBack() {
    PerCauseLogGate gate = new PerCauseLogGate(1000);
    assertEquals(0, gate.admit(FallbackCause.SPACE, 5_000));
    assertEquals(-1, gate.admit(FallbackCause.SPACE, 5_001));
    assertEquals(-1, gate.admit(FallbackCause.SPACE, 5_999));
    assertEquals(0, gate.admit(FallbackCause.EXCLUDED, 5_999), "another cause has its own interval");
    assertEquals(2, gate.admit(FallbackCause.SPACE, 6_000), "two held back since the last line");
    assertEquals(-1, gate.admit(FallbackCause.SPACE, 6_500));
    assertEquals(1, gate.admit(FallbackCause.SPACE, 7_000));
  }

  @Test
  void causesHaveMetricNames() {
    assertEquals("NoRackLeft", FallbackCause.NO_RACK_LEFT.metricName());
    assertEquals("StorageType", FallbackCause.STORAGE_TYPE.metricName());
    assertEquals("storage type", FallbackCause.STORAGE_TYPE.words());
  }
}
