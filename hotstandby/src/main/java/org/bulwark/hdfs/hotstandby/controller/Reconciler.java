package org.bulwark.hdfs.hotstandby.controller;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One decision of the controller, made again after every change it hears of: reads the inputs and the election into a
 * {@link ControllerView}, asks {@link ControllerRules} what to do, and has {@link ControllerActions} do it. Also keeps
 * what a decision needs from the ones before it (since when the leadership is free, an unclaimed active NameNode and
 * since when it was seen).
 */
final class Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);
  /** Decide again at least this often, even if nothing is heard of (level-triggered). */
  private static final long IDLE_RECHECK_MILLIS = 1000;

  private final ControllerSettings settings;
  private final String me;
  private final String nameNodeName;
  private final LeaderElection election;
  private final HandoffRequests handoffs;
  private final OtherNameNodes others;
  private final FailbackPassOver passOver;
  private final ControllerInputs inputs;
  private final ControllerActions actions;
  private final LongSupplier clock;

  private long startedAt;
  private long leadershipFreeSince;
  /** Another NameNode found active though no breadcrumb names it, and since when; null when none. */
  private String unclaimedActive;
  private long unclaimedActiveSince;

  Reconciler(ControllerSettings settings, LocalNameNode nameNode, LeaderElection election,
      HandoffRequests handoffs, OtherNameNodes others, FailbackPassOver passOver, ControllerInputs inputs,
      ControllerActions actions, LongSupplier clock) {
    this.settings = settings;
    this.me = nameNode.nameNodeId();
    this.nameNodeName = nameNode.toString();
    this.election = election;
    this.handoffs = handoffs;
    this.others = others;
    this.passOver = passOver;
    this.inputs = inputs;
    this.actions = actions;
    this.clock = clock;
  }

  /** When the controller started deciding: configured higher priorities get one delay from then to register. */
  void started() {
    startedAt = clock.getAsLong();
  }

  /** One decision: returns when to decide again if nothing changes before. */
  long reconcile() throws Exception {
    long now = clock.getAsLong();
    HealthReport h = ControllerRules.healthToDecideBy(inputs.health(), actions.demotedSinceLastReport(),
        actions.leading(), actions.activatedAtNanos());
    if (!inputs.zooKeeperConnected()) {
      passOver.lostSight();
      actions.state(ControllerRules.stateOf(false, actions.leading(), h));
      return Long.MAX_VALUE;
    }
    if (actions.leadershipOfAnEndedSession()) {
      actions.carryOver();
    }
    if (!actions.leading() && election.iLead()) {
      actions.releaseStrayLock();
    }
    handoffs.removeLeftover();
    String handoff = election.handoffTarget();
    List<Candidate> candidates = election.candidates(now);
    ControllerView.Builder view = ControllerView.builder(me, settings.priority)
        .health(h.health())
        .observer(h.state() == HAServiceState.OBSERVER)
        .madeInactive(ControllerRules.madeInactive(actions.leading(), h, actions.activatedAtNanos()))
        .zooKeeperConnected(true)
        .cededUntil(inputs.cededUntil())
        .failback(settings.failback, settings.failbackDelayMillis)
        .lowerPriorityDelay(settings.lowerPriorityDelayMillis)
        .configured(settings.configuredPriorities, startedAt)
        .handoffTarget(handoff)
        .candidates(candidates);
    boolean stand = ControllerRules.shouldStand(view.build(), now);
    boolean releaseFirst = ControllerRules.releasesBeforeWithdrawing(actions.leading(), h.health());
    switch (ControllerRules.candidacyBeforeStep(stand, releaseFirst, election.standing())) {
      case STAND:
        actions.stand();
        candidates = election.candidates(now);
        view.candidates(candidates);
        break;
      case WITHDRAW:
        actions.withdraw();
        break;
      default:
        break;
    }
    // A session Curator replaced since the carry-over above fails the check too: its leadership is carried over at the
    // next decision (woken by the new connection), not dropped here.
    if (actions.leadershipSuperseded()) {
      actions.dropSuperseded();
    }
    String leader = actions.leading() ? me : election.leader();
    if (leader == null) {
      if (leadershipFreeSince == 0) {
        leadershipFreeSince = now;
      }
    } else {
      leadershipFreeSince = 0;
    }
    boolean active = h.health() == NameNodeHealth.HEALTHY && h.state() == HAServiceState.ACTIVE;
    lookForUnclaimedActive(leader == null && !actions.leading() && stand && !active, now);
    view.leader(leader, actions.leading()).leadershipFreeSince(leadershipFreeSince)
        .active(active)
        .unclaimedActive(unclaimedActive, unclaimedActiveSince, settings.unclaimedActiveWaitMillis)
        .passedOver(actions.leading() ? passOver.passedOver(candidates, now) : Collections.emptySet());
    Step step = ControllerRules.decide(view.build(), now);
    long wakeAt = now + IDLE_RECHECK_MILLIS;
    if (inputs.cededUntil() > now) {
      wakeAt = Math.min(wakeAt, inputs.cededUntil());
    }
    switch (step.kind()) {
      case ACQUIRE:
        actions.acquire(step, me.equals(handoff), candidates);
        break;
      case RESIGN:
        actions.resign(step);
        break;
      case ABANDON:
        actions.abandon(step);
        break;
      case WAIT:
        wakeAt = Math.min(wakeAt, step.wakeAtMillis());
        break;
      default:
        break;
    }
    if (ControllerRules.withdrawsAfterStep(stand, releaseFirst, election.standing())) {
      actions.withdraw();
    }
    if (ControllerRules.stepsDownUnled(actions.leading(), h, step)) {
      actions.demote("active without holding the leadership");
    }
    actions.state(ControllerRules.stateOf(true, actions.leading(), h));
    return wakeAt;
  }

  /**
   * While this standby could take a free leadership, asks the other NameNodes the breadcrumb does not name whether one
   * is active ({@link OtherNameNodes}); remembers the first found and since when, which the rules leave the leadership
   * to for a while.
   */
  private void lookForUnclaimedActive(boolean mayAcquire, long now) {
    if (!mayAcquire) {
      unclaimedActive = null;
      return;
    }
    Set<String> found = others.active(election.cachedMayBeActive());
    String first = found.isEmpty() ? null : found.iterator().next();
    if (first == null || !first.equals(unclaimedActive)) {
      unclaimedActiveSince = now;
      if (first != null) {
        LOG.info("NameNode {} is active but no controller of ours made it so (the stock ZKFC's, or by hand): {} leaves "
            + "the leadership to its controller for {} ms, then fences it", first, nameNodeName,
            settings.unclaimedActiveWaitMillis);
      }
    }
    unclaimedActive = first;
  }
}
