package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The pauses between a failing-over client's questions to the NameNodes. */
class ProbePacingTest {
  /** A source whose every draw is {@code value}: 0 gives the shortest pause, just below 1 the longest. */
  private static Random fixed(double value) {
    return new Random() {
      @Override
      public double nextDouble() {
        return value;
      }
    };
  }

  private static long[] pauses(ProbePacing pacing, int n) {
    long[] p = new long[n];
    for (int i = 0; i < n; i++) {
      p[i] = pacing.nextPauseMillis();
    }
    return p;
  }

  @Test
  void pausesDoubleUpToTheCapAtTheirNominalLength() {
    // A draw of one half lands on the nominal length (half of it, plus half of it and one).
    long[] p = pauses(new ProbePacing(50, 1000, fixed(0.5)), 8);
    assertEquals("[50, 100, 200, 400, 800, 1000, 1000, 1000]", Arrays.toString(p));
  }

  @Test
  void jitterKeepsEachPauseBetweenHalfAndOneAndAHalfTimesItsNominalLength() {
    assertEquals("[25, 50, 100, 200, 400, 500]", Arrays.toString(pauses(new ProbePacing(50, 1000, fixed(0)), 6)));
    assertEquals("[75, 150, 300, 600, 1200, 1500]",
        Arrays.toString(pauses(new ProbePacing(50, 1000, fixed(0.9999999)), 6)));
    ProbePacing random = new ProbePacing(50, 1000, new Random(7));
    long nominal = 50;
    for (int i = 0; i < 1000; i++) {
      long pause = random.nextPauseMillis();
      assertTrue(pause >= nominal / 2 && pause <= nominal + nominal / 2 + 1, i + ": " + pause + " for " + nominal);
      nominal = Math.min(1000, nominal * 2);
    }
  }

  @Test
  void aHundredClientsFailingTogetherDoNotAskTogether() {
    // Clients whose calls failed at the same moment: their third questions spread over a window, not one instant.
    Random seeds = new Random(11);
    long earliest = Long.MAX_VALUE;
    long latest = 0;
    for (int c = 0; c < 100; c++) {
      long[] p = pauses(new ProbePacing(50, 1000, new Random(seeds.nextLong())), 3);
      long third = p[0] + p[1] + p[2];
      earliest = Math.min(earliest, third);
      latest = Math.max(latest, third);
    }
    assertTrue(latest - earliest > 150, "third questions between " + earliest + " and " + latest + " ms");
  }

  @Test
  void aCapBelowTheFirstPauseKeepsTheFirstPause() {
    assertEquals("[200, 200, 200]", Arrays.toString(pauses(new ProbePacing(200, 10, fixed(0.5)), 3)));
  }

  @Test
  void aPauseIsNeverShorterThanAMillisecond() {
    assertEquals("[1, 1, 1]", Arrays.toString(pauses(new ProbePacing(1, 1, fixed(0)), 3)));
    assertThrows(IllegalArgumentException.class, () -> new ProbePacing(0, 10, fixed(0)));
  }
}
