package org.bulwark.hdfs.hotstandby.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Which NameNodes fail-back passes over after {@code hdfs haadmin -failover nnHigh nnLow}. */
class FailbackPassOverTest {
  private static final long SESSION_TIMEOUT = 2000;
  private static final long T = 100_000;
  private static final Candidate HIGH = new Candidate("nnHigh", 5, 0);
  private static final Candidate LOW = new Candidate("nnLow", 1, 0);

  private static FailbackPassOver handedOverWhileStanding(Candidate... standing) {
    FailbackPassOver p = new FailbackPassOver(SESSION_TIMEOUT);
    p.tookOver(true, "nnLow", 1, List.of(standing));
    return p;
  }

  @Test
  void onlyHigherPrioritiesThatStoodAtTheOperatorsFailoverArePassedOver() {
    FailbackPassOver p = handedOverWhileStanding(HIGH, LOW, new Candidate("nnEqual", 1, 0), new Candidate("nnBelow", 0, 0));
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(HIGH, LOW), T));
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(HIGH, LOW, new Candidate("nnNew", 9, T)), T),
        "one that did not stand then is not passed over");
    p.tookOver(false, "nnLow", 1, List.of(HIGH, LOW));
    assertEquals(Set.of(), p.passedOver(List.of(HIGH, LOW), T), "elected, not handed over: nothing passed over");
  }

  /**
   * A candidacy made anew for a new ZooKeeper session (an outage longer than the session timeout, a restarted
   * controller) or after a health blip is no failure: before, its new candidate znode counted as standing anew, and
   * the operator's failover was undone after the fail-back delay.
   */
  @Test
  void aCandidacyGoneForLessThanASessionTimeoutIsStillPassedOver() {
    FailbackPassOver p = handedOverWhileStanding(HIGH, LOW);
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(LOW), T), "gone");
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(LOW), T + SESSION_TIMEOUT - 1));
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(new Candidate("nnHigh", 5, T + SESSION_TIMEOUT), LOW),
        T + SESSION_TIMEOUT), "back within the session timeout");
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(LOW), T + SESSION_TIMEOUT + 1), "gone again: counted afresh");
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(LOW), T + 2 * SESSION_TIMEOUT));
  }

  @Test
  void aCandidacyGoneForASessionTimeoutIsFailedBackToOnceItStandsAgain() {
    FailbackPassOver p = handedOverWhileStanding(HIGH, LOW);
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(LOW), T));
    assertEquals(Set.of(), p.passedOver(List.of(LOW), T + SESSION_TIMEOUT), "its NameNode failed or stopped");
    assertEquals(Set.of(), p.passedOver(List.of(new Candidate("nnHigh", 5, T + 60_000), LOW), T + 60_000),
        "back: a candidate as any other, failed back to once healthy for the fail-back delay");
  }

  /** While ZooKeeper is out of reach this controller sees nothing: an absence counts only from a sighting after it. */
  @Test
  void anAbsenceCountsOnlyWhileThisControllerSeesTheCandidates() {
    FailbackPassOver p = handedOverWhileStanding(HIGH, LOW);
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(LOW), T));
    p.lostSight();
    assertEquals(Set.of("nnHigh"), p.passedOver(List.of(LOW), T + SESSION_TIMEOUT), "counted from here");
    assertEquals(Set.of(), p.passedOver(List.of(LOW), T + 2 * SESSION_TIMEOUT));
  }
}
