package org.bulwark.hdfs.monitor.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MonitorStatusTest {
  private final MonitorStatus status = new MonitorStatus();

  private void poll(long start, long millis) {
    status.pollStarted(start);
    status.pollFinished(start + millis);
  }

  @Test
  void theLongestOfTheLastThreeCompletePollsIsRemembered() {
    assertEquals(0, status.longestRecentPollMillis(), "none yet");
    poll(1_000, 9_000);
    poll(20_000, 2_000);
    status.pollStarted(30_000);
    status.failed("Connection refused", 31_000);
    poll(40_000, 3_000);
    assertEquals(9_000, status.longestRecentPollMillis(), "a failed poll is not a complete one");
    poll(50_000, 1_000);
    assertEquals(3_000, status.longestRecentPollMillis(), "the slow poll is four complete polls ago");
    assertEquals(1_000, status.lastPollMillis());
  }
}
