package org.bulwark.hdfs.hotstandby.controller;

import java.util.Map;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;

/**
 * The controller's decisions, as pure functions of a {@link ControllerView}. The controller re-decides
 * after every change it sees (health, session, lock, candidates, requests), so the rules say what
 * should hold now rather than how to react to one event: a lost event cannot leave it stuck.
 *
 * <ul>
 *   <li>A NameNode stands as candidate only while healthy, not an observer, connected and not asked to cede.</li>
 *   <li>A leader whose NameNode is gone or hung abandons at once (the next leader fences it); one
 *       whose NameNode answers but is unhealthy or no longer active, or that is asked to cede or hand over
 *       (to a standing candidate), resigns cleanly; with fail-back, it hands over to a higher priority that
 *       has stayed healthy long enough, unless an operator's failover made it leader while that one stood and it has
 *       not been gone for a session timeout since.</li>
 *   <li>A lock naming this NameNode held by another session is this controller's previous run's: it is taken over
 *       (a restart is no failover). A free leadership goes first to a NameNode that is active already; a standby
 *       leaves it for {@code unclaimed-active-wait} to another NameNode that answers active unnamed by any breadcrumb
 *       (a migration from the stock ZKFC), then takes it and fences that one.</li>
 *   <li>A free leadership goes to the pending manual-failover target if any, else to the highest
 *       priority: each candidate ranked below others waits {@code rank x lower-priority-delay}, so a
 *       higher one that is slow or stuck cannot block the election; a controller that has just
 *       started also gives configured higher priorities one delay to register.</li>
 *   <li>Without a ZooKeeper connection nothing changes, however long it lasts: a leader keeps its NameNode
 *       active (no other can take over while ZooKeeper is out of reach), and once connected again, in a new
 *       session if its own was given up meanwhile, it leads on unless another controller has led since.</li>
 * </ul>
 */
public final class ControllerRules {
  private ControllerRules() {
  }

  /** Whether this NameNode should be registered as a candidate now. */
  public static boolean shouldStand(ControllerView v, long now) {
    return v.zooKeeperConnected && v.health == NameNodeHealth.HEALTHY && !v.observer && now >= v.cededUntilMillis;
  }

  /**
   * Whether a leader sets a timed-out health check aside: one begun before its NameNode answered the
   * transitionToActive that made it active waited behind that call (a NameNode takes its HA calls one at a time,
   * and a long transition outlasts the health timeout), so it says nothing of a hang.
   */
  public static boolean waitedBehindActivation(boolean leading, NameNodeHealth health, long checkStartedNanos,
      long activatedAtNanos) {
    return leading && health == NameNodeHealth.UNRESPONSIVE && checkStartedNanos - activatedAtNanos < 0;
  }

  /**
   * Whether a leader's NameNode has been made inactive outside its controller: healthy, and a check begun after it
   * answered transitionToActive says standby or observer (a check begun before may predate the transition).
   */
  public static boolean madeInactive(boolean leading, HealthReport h, long activatedAtNanos) {
    return leading && h.health() == NameNodeHealth.HEALTHY
        && (h.state() == HAServiceState.STANDBY || h.state() == HAServiceState.OBSERVER)
        && h.checkStartedNanos() - activatedAtNanos > 0;
  }

  /**
   * The health a decision goes by. A NameNode this controller made standby since the last report is standby until a
   * report says otherwise; a leader's timed-out check that waited behind its own transition ({@link
   * #waitedBehindActivation}) is set aside: active, until a check begun after the transition says otherwise.
   */
  public static HealthReport healthToDecideBy(HealthReport reported, boolean demotedSinceLastReport, boolean leading,
      long activatedAtNanos) {
    HealthReport h = reported;
    if (demotedSinceLastReport && h.state() == HAServiceState.ACTIVE) {
      h = new HealthReport(h.health(), HAServiceState.STANDBY, h.detail()).ofCheckStartedAt(h.checkStartedNanos());
    }
    if (waitedBehindActivation(leading, h.health(), h.checkStartedNanos(), activatedAtNanos)) {
      h = new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.ACTIVE, "answered transitionToActive after: " + h);
    }
    return h;
  }

  /**
   * Whether a leader lets go of the lock before it withdraws its candidacy: one whose NameNode is gone or hung, as
   * withdrawing is a ZooKeeper write of its own, and one was seen to hold the release back 230-690 ms on a host busy
   * with the kill.
   */
  public static boolean releasesBeforeWithdrawing(boolean leading, NameNodeHealth health) {
    return leading && (health == NameNodeHealth.GONE || health == NameNodeHealth.UNRESPONSIVE);
  }

  /** What becomes of the candidacy before the step: see {@link #candidacyBeforeStep}. */
  public enum Candidacy { STAND, WITHDRAW, AS_IS }

  /**
   * Stand where the NameNode should ({@link #shouldStand}) and does not; withdraw where it should not and does, unless
   * the leadership is released first ({@link #withdrawsAfterStep}).
   */
  public static Candidacy candidacyBeforeStep(boolean shouldStand, boolean releasesFirst, boolean standing) {
    if (shouldStand && !standing) {
      return Candidacy.STAND;
    }
    return !shouldStand && !releasesFirst && standing ? Candidacy.WITHDRAW : Candidacy.AS_IS;
  }

  /** The withdrawal a leader that released first ({@link #releasesBeforeWithdrawing}) makes after the step. */
  public static boolean withdrawsAfterStep(boolean shouldStand, boolean releasesFirst, boolean standing) {
    return releasesFirst && !shouldStand && standing;
  }

  /**
   * Whether an active NameNode this controller does not lead for steps down: made active by hand, or left active by
   * an earlier run, nothing guarantees it is alone; if it should lead it will win the election.
   */
  public static boolean stepsDownUnled(boolean leading, HealthReport h, Step step) {
    return !leading && h.state() == HAServiceState.ACTIVE && h.health().answers() && step.kind() != Step.Kind.ACQUIRE;
  }

  /** The controller's state after a decision: leading, or what its NameNode's health and HA state make it. */
  public static ControllerState stateOf(boolean zooKeeperConnected, boolean leading, HealthReport h) {
    if (leading) {
      return ControllerState.ACTIVE;
    }
    if (!zooKeeperConnected) {
      return ControllerState.NEUTRAL;
    }
    return h.health() == NameNodeHealth.HEALTHY && h.state() == HAServiceState.OBSERVER ? ControllerState.OBSERVER
        : h.health() == NameNodeHealth.HEALTHY ? ControllerState.STANDBY
        : h.health() == NameNodeHealth.UNKNOWN ? ControllerState.INITIALIZING : ControllerState.UNHEALTHY;
  }

  /** The next step. */
  public static Step decide(ControllerView v, long now) {
    if (!v.zooKeeperConnected) {
      return Step.none();
    }
    return v.iLead ? decideAsLeader(v, now) : decideAsFollower(v, now);
  }

  private static Step decideAsLeader(ControllerView v, long now) {
    if (v.health == NameNodeHealth.GONE || v.health == NameNodeHealth.UNRESPONSIVE) {
      return Step.of(Step.Kind.ABANDON, "NameNode " + v.me + " is " + v.health.name().toLowerCase());
    }
    if (v.health == NameNodeHealth.UNHEALTHY) {
      return Step.of(Step.Kind.RESIGN, "NameNode " + v.me + " reports itself unhealthy");
    }
    if (now < v.cededUntilMillis) {
      return Step.of(Step.Kind.RESIGN, "asked to cede the active role");
    }
    if (v.madeInactive) {
      // Leading with no active NameNode would keep every other from taking over; the NameNode is standby, so
      // nothing needs fencing, and the election starts again (this NameNode may well win it).
      return Step.of(Step.Kind.RESIGN, "NameNode " + v.me + " is no longer active (made so outside this controller)");
    }
    if (v.handoffTarget != null && !v.handoffTarget.equals(v.me) && v.candidates.containsKey(v.handoffTarget)) {
      return Step.of(Step.Kind.RESIGN, "manual failover to " + v.handoffTarget);
    }
    // While an operator's failover to this NameNode is under way, or after it made this one leader, fail-back
    // would undo it: the NameNodes that stood then are passed over until back from a failure.
    if (v.failback && !v.me.equals(v.handoffTarget)) {
      long readyAt = Long.MAX_VALUE;
      Candidate preferred = null;
      for (Candidate c : v.candidates.values()) {
        if (!c.nameNodeId().equals(v.me) && c.priority() > v.myPriority && !v.passedOver.contains(c.nameNodeId())) {
          long at = c.sinceMillis() + v.failbackDelayMillis;
          if (at < readyAt) {
            readyAt = at;
            preferred = c;
          }
        }
      }
      if (preferred != null) {
        return now >= readyAt
            ? Step.of(Step.Kind.RESIGN, "fail-back to " + preferred)
            : Step.waitUntil(readyAt, "fail-back to " + preferred + " once it has been healthy long enough");
      }
    }
    return Step.none();
  }

  private static Step decideAsFollower(ControllerView v, long now) {
    if (!shouldStand(v, now)) {
      return Step.none();
    }
    if (v.leader != null) {
      // A lock naming this NameNode that this session does not hold is a previous run's of this controller (killed, or
      // restarted for an upgrade, within a session timeout): taken over, its NameNode stays as it is, no failover.
      return v.leader.equals(v.me)
          ? Step.of(Step.Kind.ACQUIRE, "the lock names this NameNode: taking over from its controller's previous run")
          : Step.none();
    }
    // A request whose target does not stand (its NameNode failed, or the request was left behind) is not waited on.
    if (v.handoffTarget != null && (v.handoffTarget.equals(v.me) || v.candidates.containsKey(v.handoffTarget))) {
      return v.handoffTarget.equals(v.me)
          ? Step.of(Step.Kind.ACQUIRE, "manual failover to this NameNode")
          : Step.none();
    }
    if (v.active) {
      // Already active (left so by the stock ZKFC before a migration, or by this controller's previous run after its
      // session ended): leading it keeps it active, whatever the priorities; fail-back may hand over later.
      return Step.of(Step.Kind.ACQUIRE, "leadership free and this NameNode is active");
    }
    if (v.unclaimedActive != null && now < v.unclaimedActiveSinceMillis + v.unclaimedActiveWaitMillis) {
      return Step.waitUntil(v.unclaimedActiveSinceMillis + v.unclaimedActiveWaitMillis, "NameNode " + v.unclaimedActive
          + " is active without a controller of ours: leaving the leadership to its controller");
    }
    int rank = 0;
    for (Candidate c : v.candidates.values()) {
      if (!c.nameNodeId().equals(v.me) && c.priority() > v.myPriority) {
        rank++;
      }
    }
    if (rank == 0) {
      int absent = 0;
      if (now < v.startedAtMillis + v.lowerPriorityDelayMillis) {
        for (Map.Entry<String, Integer> e : v.configuredPriorities.entrySet()) {
          if (!e.getKey().equals(v.me) && e.getValue() > v.myPriority && !v.candidates.containsKey(e.getKey())) {
            absent++;
          }
        }
      }
      return absent == 0
          ? Step.of(Step.Kind.ACQUIRE, "leadership free and no healthy candidate ranks higher")
          : Step.waitUntil(v.startedAtMillis + v.lowerPriorityDelayMillis,
              "just started: " + absent + " NameNode(s) of higher priority may still register");
    }
    long at = v.leadershipFreeSinceMillis + rank * v.lowerPriorityDelayMillis;
    return now >= at
        ? Step.of(Step.Kind.ACQUIRE, "leadership still free after " + (now - v.leadershipFreeSinceMillis)
            + " ms although " + rank + " candidate(s) rank higher")
        : Step.waitUntil(at, rank + " healthy candidate(s) rank higher");
  }
}
