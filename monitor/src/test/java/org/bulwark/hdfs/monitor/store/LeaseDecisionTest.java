package org.bulwark.hdfs.monitor.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bulwark.hdfs.monitor.store.LeaseDecision.Holder;
import org.bulwark.hdfs.monitor.store.LeaseDecision.Outcome;
import org.junit.jupiter.api.Test;

/** Every state the lease row can be in, as the store opening for writing finds it. */
class LeaseDecisionTest {
  private static final long TIMEOUT = 300_000;
  private static final String STORE = "PostgreSQL jdbc:postgresql://db/bulwark";

  private static LeaseDecision decide(Holder holder, String holderGone) {
    return LeaseDecision.decide(holder, "me", TIMEOUT, holderGone, STORE);
  }

  private static Holder other(long renewedAgoMillis) {
    return new Holder("them", "mon2.example.com", 4242, renewedAgoMillis);
  }

  @Test
  void aFreeLeaseIsTaken() {
    for (Holder free : new Holder[] {null, new Holder(null, null, 0, Long.MAX_VALUE)}) {
      LeaseDecision d = decide(free, null);
      assertEquals(Outcome.FREE, d.outcome);
      assertTrue(d.take());
      assertNull(d.message);
    }
  }

  @Test
  void ourOwnLeaseIsTakenHoweverFreshOrOld() {
    for (long ago : new long[] {0, TIMEOUT, 10 * TIMEOUT}) {
      LeaseDecision d = decide(new Holder("me", "mon1", 1, ago), null);
      assertEquals(Outcome.OURS, d.outcome);
      assertTrue(d.take());
    }
  }

  @Test
  void aFreshLeaseOfAnotherIsRefusedWithOneLineNamingHolderKeyAndWhatToDo() {
    LeaseDecision d = decide(other(12_400), null);
    assertEquals(Outcome.HELD, d.outcome);
    assertFalse(d.take());
    assertEquals("the history store (PostgreSQL jdbc:postgresql://db/bulwark) is written by another block monitor "
        + "(host mon2.example.com, pid 4242, lease renewed 12 s ago): stop that monitor, or if it is gone wait until its "
        + "lease expires, in 288 s (bulwark.monitor.store.lease-timeout = 300 s)", d.message);
  }

  @Test
  void theLeaseExpiresOnlyOnceRenewedLongerAgoThanTheTimeout() {
    assertEquals(Outcome.HELD, decide(other(TIMEOUT), null).outcome);
    assertTrue(decide(other(TIMEOUT), null).message.contains("in 1 s"), "never 'in 0 s' while it holds");
    LeaseDecision d = decide(other(TIMEOUT + 1), null);
    assertEquals(Outcome.EXPIRED, d.outcome);
    assertTrue(d.take());
    assertEquals("Took over the writer lease of the history store (PostgreSQL jdbc:postgresql://db/bulwark) from host "
        + "mon2.example.com, pid 4242: not renewed for 300 s, longer than bulwark.monitor.store.lease-timeout (300 s); "
        + "that monitor, if it wakes, records nothing more", d.message);
  }

  @Test
  void aFreshLeaseOfAHolderKnownGoneIsTaken() {
    LeaseDecision d = decide(other(2_000), "that monitor no longer has the store's file open");
    assertEquals(Outcome.ABANDONED, d.outcome);
    assertTrue(d.take());
    assertTrue(d.message.contains("from host mon2.example.com, pid 4242, renewed 2 s ago: that monitor no longer has the "
        + "store's file open"), d.message);
  }

  @Test
  void aRenewalTimeAheadOfTheDatabaseClockCountsAsFresh() {
    LeaseDecision d = decide(other(-5_000), null);
    assertEquals(Outcome.HELD, d.outcome);
    assertTrue(d.message.contains("lease renewed 0 s ago") && d.message.contains("in 300 s"), d.message);
  }
}
