package org.bulwark.hdfs.hotstandby.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.junit.jupiter.api.Test;

class ControllerRulesTest {
  private static final long NOW = 100_000;

  private static ControllerView.Builder follower(String me, int priority) {
    return ControllerView.builder(me, priority).health(NameNodeHealth.HEALTHY).zooKeeperConnected(true)
        .candidate(new Candidate(me, priority, 0)).lowerPriorityDelay(1000).leadershipFreeSince(NOW);
  }

  private static ControllerView.Builder leader(String me, int priority) {
    return follower(me, priority).leader(me, true);
  }

  @Test
  void aTimeoutBehindTheLeadersOwnTransitionIsSetAside() {
    long activated = 1_000_000_000L;
    assertTrue(ControllerRules.waitedBehindActivation(true, NameNodeHealth.UNRESPONSIVE, activated - 1, activated),
        "a check begun before the NameNode answered transitionToActive waited behind it");
    assertFalse(ControllerRules.waitedBehindActivation(true, NameNodeHealth.UNRESPONSIVE, activated, activated),
        "a check begun after it is news");
    assertFalse(ControllerRules.waitedBehindActivation(true, NameNodeHealth.GONE, activated - 1, activated),
        "a refused connection is no queue");
    assertFalse(ControllerRules.waitedBehindActivation(true, NameNodeHealth.UNHEALTHY, activated - 1, activated),
        "the NameNode answered that it is unhealthy");
    assertFalse(ControllerRules.waitedBehindActivation(false, NameNodeHealth.UNRESPONSIVE, activated - 1, activated),
        "only a leader's own transition queues its checks");
    assertTrue(ControllerRules.waitedBehindActivation(true, NameNodeHealth.UNRESPONSIVE, Long.MAX_VALUE,
        Long.MAX_VALUE + 10), "nanoTime compared across its wrap");
  }

  @Test
  void standsOnlyWhenHealthyConnectedAndNotCeded() {
    assertTrue(ControllerRules.shouldStand(follower("nn1", 0).build(), NOW));
    assertFalse(ControllerRules.shouldStand(follower("nn1", 0).health(NameNodeHealth.UNHEALTHY).build(), NOW));
    assertFalse(ControllerRules.shouldStand(follower("nn1", 0).health(NameNodeHealth.UNKNOWN).build(), NOW));
    assertFalse(ControllerRules.shouldStand(follower("nn1", 0).zooKeeperConnected(false).build(), NOW));
    assertFalse(ControllerRules.shouldStand(follower("nn1", 0).cededUntil(NOW + 1).build(), NOW));
    assertTrue(ControllerRules.shouldStand(follower("nn1", 0).cededUntil(NOW).build(), NOW));
    assertFalse(ControllerRules.shouldStand(follower("nn1", 0).observer(true).build(), NOW), "observers are never elected");
  }

  @Test
  void freeLeadershipIsTakenAtOnceByTheHighestPriority() {
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(follower("nn1", 5)
        .candidate(new Candidate("nn2", 5, 0)).candidate(new Candidate("nn3", 1, 0)).build(), NOW).kind());
  }

  @Test
  void lowerPriorityWaitsItsRankTimesTheDelayThenTakesOver() {
    ControllerView v = follower("nn3", 1).candidate(new Candidate("nn1", 5, 0)).candidate(new Candidate("nn2", 3, 0))
        .build();
    Step now = ControllerRules.decide(v, NOW);
    assertEquals(Step.Kind.WAIT, now.kind());
    assertEquals(NOW + 2000, now.wakeAtMillis());
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(v, NOW + 2000).kind());
  }

  @Test
  void aLockNamingThisNameNodeInAnotherSessionIsTakenOver() {
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(follower("nn1", 0).leader("nn1", false).active(true).build(),
        NOW).kind(), "a restarted controller beside its active NameNode takes its previous run's lock over");
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(follower("nn1", 0).leader("nn1", false).build(), NOW).kind(),
        "nobody can be active behind a lock naming a standby: waiting out the old session helps no one");
    assertEquals(Step.Kind.NONE, ControllerRules.decide(follower("nn1", 0).leader("nn1", false)
        .health(NameNodeHealth.UNHEALTHY).build(), NOW).kind(), "an unhealthy NameNode takes nothing over");
  }

  @Test
  void anActiveNameNodeTakesAFreeLeadershipWhateverThePriorities() {
    ControllerView v = follower("nn2", 1).candidate(new Candidate("nn1", 5, 0)).active(true).build();
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(v, NOW).kind(), "the active one stays active: no failover");
    assertEquals(Step.Kind.WAIT, ControllerRules.decide(follower("nn2", 1).candidate(new Candidate("nn1", 5, 0)).build(),
        NOW).kind(), "a standby of lower priority still waits its rank");
  }

  @Test
  void aStandbyLeavesTheLeadershipToAnUnclaimedActiveForTheWaitThenTakesIt() {
    ControllerView.Builder v = follower("nn1", 0).unclaimedActive("nn2", NOW - 1000, 60_000);
    Step step = ControllerRules.decide(v.build(), NOW);
    assertEquals(Step.Kind.WAIT, step.kind(), step.reason());
    assertEquals(NOW + 59_000, step.wakeAtMillis());
    assertTrue(step.reason().contains("nn2"), step.reason());
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(v.build(), NOW + 59_000).kind(),
        "its controller never came: the leadership is taken, and the activation fences nn2 first");
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(follower("nn1", 0).unclaimedActive("nn2", NOW, 60_000)
        .handoffTarget("nn1").build(), NOW).kind(), "an operator's failover to this NameNode does not wait");
  }

  @Test
  void heldLeadershipIsNotContended() {
    assertEquals(Step.Kind.NONE, ControllerRules.decide(follower("nn1", 9).leader("nn2", false).build(), NOW).kind());
  }

  @Test
  void unhealthyOrDisconnectedControllerDoesNothing() {
    assertEquals(Step.Kind.NONE, ControllerRules.decide(follower("nn1", 0).health(NameNodeHealth.GONE).build(), NOW).kind());
    assertEquals(Step.Kind.NONE, ControllerRules.decide(leader("nn1", 0).health(NameNodeHealth.GONE)
        .zooKeeperConnected(false).build(), NOW).kind(), "no ZooKeeper: a leader holds on until its session is lost");
  }

  @Test
  void leaderAbandonsWhenItsNameNodeIsGoneOrHungAndResignsWhenUnhealthy() {
    assertEquals(Step.Kind.ABANDON, ControllerRules.decide(leader("nn1", 0).health(NameNodeHealth.GONE).build(), NOW).kind());
    assertEquals(Step.Kind.ABANDON, ControllerRules.decide(leader("nn1", 0).health(NameNodeHealth.UNRESPONSIVE).build(),
        NOW).kind());
    assertEquals(Step.Kind.RESIGN, ControllerRules.decide(leader("nn1", 0).health(NameNodeHealth.UNHEALTHY).build(),
        NOW).kind());
    assertEquals(Step.Kind.NONE, ControllerRules.decide(leader("nn1", 0).build(), NOW).kind());
  }

  @Test
  void manualFailoverGoesToItsTargetOnly() {
    Candidate target = new Candidate("nn2", 0, 0);
    assertEquals(Step.Kind.RESIGN, ControllerRules.decide(leader("nn1", 0).candidate(target).handoffTarget("nn2")
        .build(), NOW).kind());
    assertEquals(Step.Kind.NONE, ControllerRules.decide(leader("nn1", 0).handoffTarget("nn1").build(), NOW).kind());
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(follower("nn2", 0).candidate(new Candidate("nn1", 9, 0))
        .handoffTarget("nn2").build(), NOW).kind(), "the target goes first whatever the priorities");
    assertEquals(Step.Kind.NONE, ControllerRules.decide(follower("nn3", 9).candidate(target).handoffTarget("nn2")
        .build(), NOW).kind());
  }

  /**
   * A request left behind (its removal failed) or whose target's NameNode has since failed must not hold the
   * election: with it honoured, a leader would resign to nobody and the followers would wait for nobody.
   */
  @Test
  void aManualFailoverToANameNodeThatDoesNotStandIsNotWaitedOn() {
    assertEquals(Step.Kind.NONE, ControllerRules.decide(leader("nn1", 0).handoffTarget("nn2").build(), NOW).kind(),
        "the leader keeps its role");
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(follower("nn3", 9).handoffTarget("nn2").build(), NOW).kind(),
        "a free leadership goes to the highest priority as without a request");
  }

  /**
   * A NameNode made standby behind its leader's back (haadmin --forcemanual, or restarted while its controller was
   * cut off from ZooKeeper) leaves the nameservice without an active NameNode while the lock is held: the leader
   * resigns, so the election starts again.
   */
  @Test
  void onlyACheckBegunAfterTheActivationSaysTheNameNodeWasMadeInactive() {
    long activated = 1_000_000_000L;
    HealthReport standby = new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.STANDBY, null);
    assertTrue(ControllerRules.madeInactive(true, standby.ofCheckStartedAt(activated + 1), activated));
    assertTrue(ControllerRules.madeInactive(true, new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.OBSERVER,
        null).ofCheckStartedAt(activated + 1), activated));
    assertFalse(ControllerRules.madeInactive(true, standby.ofCheckStartedAt(activated - 1), activated),
        "a check begun before the transition answered may predate it");
    assertFalse(ControllerRules.madeInactive(false, standby.ofCheckStartedAt(activated + 1), activated),
        "only a leader's NameNode");
    assertFalse(ControllerRules.madeInactive(true, new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.ACTIVE,
        null).ofCheckStartedAt(activated + 1), activated));
    assertFalse(ControllerRules.madeInactive(true, new HealthReport(NameNodeHealth.UNHEALTHY, HAServiceState.STANDBY,
        null).ofCheckStartedAt(activated + 1), activated), "an unhealthy NameNode is the resign rule's own case");
    assertTrue(ControllerRules.madeInactive(true, standby.ofCheckStartedAt(Long.MIN_VALUE), Long.MAX_VALUE),
        "nanoTime compared across its wrap");
  }

  @Test
  void leaderWhoseNameNodeIsNoLongerActiveResigns() {
    assertEquals(Step.Kind.RESIGN, ControllerRules.decide(leader("nn1", 0).madeInactive(true).build(), NOW).kind());
    assertEquals(Step.Kind.NONE, ControllerRules.decide(follower("nn1", 0).leader("nn2", false).madeInactive(true)
        .build(), NOW).kind(), "only a leader resigns");
  }

  @Test
  void cededLeaderResignsAndStaysOut() {
    assertEquals(Step.Kind.RESIGN, ControllerRules.decide(leader("nn1", 0).cededUntil(NOW + 10).build(), NOW).kind());
    assertEquals(Step.Kind.NONE, ControllerRules.decide(follower("nn1", 0).cededUntil(NOW + 10).build(), NOW).kind());
  }

  @Test
  void failbackWaitsUntilTheHigherPriorityHasBeenHealthyLongEnough() {
    ControllerView v = leader("nn2", 1).candidate(new Candidate("nn1", 5, NOW - 400)).failback(true, 1000).build();
    Step early = ControllerRules.decide(v, NOW);
    assertEquals(Step.Kind.WAIT, early.kind());
    assertEquals(NOW + 600, early.wakeAtMillis());
    assertEquals(Step.Kind.RESIGN, ControllerRules.decide(v, NOW + 600).kind());
    ControllerView without = leader("nn2", 1).candidate(new Candidate("nn1", 5, 0)).failback(false, 1000).build();
    assertEquals(Step.Kind.NONE, ControllerRules.decide(without, NOW).kind(), "no fail-back unless enabled");
    ControllerView equal = leader("nn2", 5).candidate(new Candidate("nn1", 5, 0)).failback(true, 0).build();
    assertEquals(Step.Kind.NONE, ControllerRules.decide(equal, NOW).kind(), "equal priority never fails back");
  }

  /**
   * {@code hdfs haadmin -failover nnHigh nnLow} with fail-back on: nnLow, made leader by the operator's request, does
   * not hand back to nnHigh, passed over (it stood then: {@link FailbackPassOver}), neither while the request stands
   * nor after; it does to one no longer passed over (back from a failure) or that did not stand then, once that one has
   * been healthy for the fail-back delay.
   */
  @Test
  void failbackDoesNotUndoAnOperatorsFailover() {
    Candidate high = new Candidate("nnHigh", 5, NOW - 3_600_000); // a candidate for an hour: it was the active
    Set<String> passedOver = Set.of("nnHigh");
    ControllerView requestPending = leader("nnLow", 0).candidate(high).handoffTarget("nnLow").passedOver(passedOver)
        .failback(true, 30_000).build();
    assertEquals(Step.Kind.NONE, ControllerRules.decide(requestPending, NOW).kind(), "while the request stands");
    ControllerView afterRequest = leader("nnLow", 0).candidate(high).passedOver(passedOver).failback(true, 30_000).build();
    assertEquals(Step.Kind.NONE, ControllerRules.decide(afterRequest, NOW + 3_600_000).kind(), "once it is done");
    Candidate back = new Candidate("nnHigh", 5, NOW + 1000); // gone for a session timeout, then seen standing again
    ControllerView standsAnew = leader("nnLow", 0).candidate(back).failback(true, 30_000).build();
    Step waiting = ControllerRules.decide(standsAnew, NOW + 1000);
    assertEquals(Step.Kind.WAIT, waiting.kind());
    assertEquals(NOW + 31_000, waiting.wakeAtMillis());
    assertEquals(Step.Kind.RESIGN, ControllerRules.decide(standsAnew, NOW + 31_000).kind());
    ControllerView newcomer = leader("nnLow", 0).candidate(high).candidate(new Candidate("nnNew", 3, NOW))
        .passedOver(passedOver).failback(true, 30_000).build();
    assertEquals("fail-back to nnNew(priority 3)", ControllerRules.decide(newcomer, NOW + 30_000).reason(),
        "one that did not stand at the operator's failover");
    ControllerView elected = leader("nnLow", 0).candidate(high).failback(true, 30_000).build();
    assertEquals(Step.Kind.RESIGN, ControllerRules.decide(elected, NOW).kind(), "a leader the election chose fails back");
  }

  @Test
  void justStartedControllerGivesAbsentHigherPrioritiesOneDelay() {
    java.util.Map<String, Integer> configured = java.util.Map.of("nn1", 1, "nn2", 5, "nn3", 3);
    ControllerView v = follower("nn1", 1).configured(configured, NOW - 100).build();
    Step step = ControllerRules.decide(v, NOW);
    assertEquals(Step.Kind.WAIT, step.kind());
    assertEquals(NOW + 900, step.wakeAtMillis());
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(v, NOW + 900).kind(), "absent ones are not waited for longer");
    ControllerView highest = follower("nn2", 5).configured(configured, NOW).build();
    assertEquals(Step.Kind.ACQUIRE, ControllerRules.decide(highest, NOW).kind());
  }

  @Test
  void aNameNodeMadeStandbyIsStandbyUntilTheNextReport() {
    HealthReport reported = new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.ACTIVE, "ok").ofCheckStartedAt(7);
    HealthReport seen = ControllerRules.healthToDecideBy(reported, true, false, 0);
    assertEquals(HAServiceState.STANDBY, seen.state(), "demoted since the report that said active");
    assertEquals(7, seen.checkStartedNanos(), "the check keeps its start");
    assertEquals(HAServiceState.ACTIVE, ControllerRules.healthToDecideBy(reported, false, false, 0).state(),
        "a report after the demotion is believed");
    long activated = 1_000_000L;
    HealthReport queued = new HealthReport(NameNodeHealth.UNRESPONSIVE, null, "timed out").ofCheckStartedAt(activated - 1);
    HealthReport leaderSees = ControllerRules.healthToDecideBy(queued, false, true, activated);
    assertEquals(NameNodeHealth.HEALTHY, leaderSees.health(), "a leader's check that waited behind its transition");
    assertEquals(HAServiceState.ACTIVE, leaderSees.state());
    assertEquals(NameNodeHealth.UNRESPONSIVE, ControllerRules.healthToDecideBy(queued, false, false, activated).health(),
        "a follower's timeout stands");
  }

  @Test
  void aLeaderWhoseNameNodeIsGoneOrHungReleasesBeforeItWithdraws() {
    assertTrue(ControllerRules.releasesBeforeWithdrawing(true, NameNodeHealth.GONE));
    assertTrue(ControllerRules.releasesBeforeWithdrawing(true, NameNodeHealth.UNRESPONSIVE));
    assertFalse(ControllerRules.releasesBeforeWithdrawing(true, NameNodeHealth.UNHEALTHY), "it resigns: it answers");
    assertFalse(ControllerRules.releasesBeforeWithdrawing(false, NameNodeHealth.GONE), "nothing to release");

    assertEquals(ControllerRules.Candidacy.STAND, ControllerRules.candidacyBeforeStep(true, false, false));
    assertEquals(ControllerRules.Candidacy.AS_IS, ControllerRules.candidacyBeforeStep(true, false, true));
    assertEquals(ControllerRules.Candidacy.WITHDRAW, ControllerRules.candidacyBeforeStep(false, false, true));
    assertEquals(ControllerRules.Candidacy.AS_IS, ControllerRules.candidacyBeforeStep(false, true, true),
        "the release goes first; the withdrawal after the step");
    assertEquals(ControllerRules.Candidacy.AS_IS, ControllerRules.candidacyBeforeStep(false, false, false));
    assertTrue(ControllerRules.withdrawsAfterStep(false, true, true));
    assertFalse(ControllerRules.withdrawsAfterStep(false, false, true), "withdrawn before the step already");
    assertFalse(ControllerRules.withdrawsAfterStep(false, true, false), "not standing");
  }

  @Test
  void anActiveNameNodeNobodyHereLeadsForStepsDownUnlessItIsBeingAcquired() {
    HealthReport active = new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.ACTIVE, "ok");
    assertTrue(ControllerRules.stepsDownUnled(false, active, Step.none()));
    assertTrue(ControllerRules.stepsDownUnled(false, new HealthReport(NameNodeHealth.UNHEALTHY, HAServiceState.ACTIVE,
        "low on disk"), Step.none()), "it answers, so it can be made standby");
    assertFalse(ControllerRules.stepsDownUnled(false, active, Step.of(Step.Kind.ACQUIRE, "taking over")),
        "an acquisition that did not complete leaves it as it is");
    assertFalse(ControllerRules.stepsDownUnled(true, active, Step.none()), "led: it stays");
    assertFalse(ControllerRules.stepsDownUnled(false, new HealthReport(NameNodeHealth.GONE, HAServiceState.ACTIVE,
        "refused"), Step.none()), "gone: nothing to ask");
    assertFalse(ControllerRules.stepsDownUnled(false, new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.STANDBY,
        "ok"), Step.none()));
  }

  @Test
  void theStateFollowsLeadershipThenHealth() {
    HealthReport standby = new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.STANDBY, "ok");
    assertEquals(ControllerState.ACTIVE, ControllerRules.stateOf(false, true, standby), "a leader cut off leads on");
    assertEquals(ControllerState.NEUTRAL, ControllerRules.stateOf(false, false, standby));
    assertEquals(ControllerState.ACTIVE, ControllerRules.stateOf(true, true, standby));
    assertEquals(ControllerState.STANDBY, ControllerRules.stateOf(true, false, standby));
    assertEquals(ControllerState.OBSERVER, ControllerRules.stateOf(true, false,
        new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.OBSERVER, "ok")));
    assertEquals(ControllerState.INITIALIZING, ControllerRules.stateOf(true, false,
        new HealthReport(NameNodeHealth.UNKNOWN, null, null)));
    for (NameNodeHealth h : new NameNodeHealth[] {NameNodeHealth.UNHEALTHY, NameNodeHealth.GONE,
        NameNodeHealth.UNRESPONSIVE}) {
      assertEquals(ControllerState.UNHEALTHY, ControllerRules.stateOf(true, false, new HealthReport(h, null, "x")), h.name());
    }
  }
}
