package org.bulwark.hdfs.hotstandby.controller;

import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;

import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.election.Leadership;
import org.bulwark.hdfs.hotstandby.fencing.LocalExitWitness;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out what {@link ControllerRules} decided, on the decision thread only: the election writes (stand, withdraw,
 * take, release), the NameNode's transitions, and the leadership this controller holds with the record it published.
 * It decides nothing; each method does one action and records what came of it (metrics, state, log line).
 */
final class ControllerActions {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerActions.class);
  /**
   * How long a controller giving its NameNode up waits for a process seen exiting to finish (a killed process
   * closes its sockets just before it ends) before it leaves the NameNode to be fenced.
   */
  private static final long EXIT_WAIT_MILLIS = 100;

  private final ControllerSettings settings;
  private final LocalNameNode nameNode;
  private final LeaderElection election;
  private final PreviousActiveFencer fencer;
  private final OtherNameNodes others;
  private final ControllerMetrics metrics;
  private final FailbackPassOver passOver;
  private final ControllerInputs inputs;
  private final LongSupplier clock;

  volatile Activation.StepListener steps = step -> { };
  /** Sees this NameNode's process exit, on its host; null when it cannot. */
  volatile LocalExitWitness exitWitness;
  volatile ControllerLoop.ActivityListener activity = new ControllerLoop.ActivityListener() { };
  /** Asks the health monitor to report its next check even if unchanged (see {@link ControllerRules#healthToDecideBy}). */
  volatile Runnable healthRecheck = () -> { };

  /** Read by other threads (close, isActive through the state); written by the decision thread. */
  private volatile Leadership leadership;
  private ActiveRecord published;
  /** {@link ControllerInputs#healthReports} when this controller last made the NameNode standby, or -1. */
  private long demotedAtReport = -1;
  /** {@link System#nanoTime} when its NameNode last answered a transitionToActive; 0 before. */
  private long activatedAtNanos;

  ControllerActions(ControllerSettings settings, LocalNameNode nameNode, LeaderElection election,
      PreviousActiveFencer fencer, OtherNameNodes others, ControllerMetrics metrics, FailbackPassOver passOver,
      ControllerInputs inputs, LongSupplier clock) {
    this.settings = settings;
    this.nameNode = nameNode;
    this.election = election;
    this.fencer = fencer;
    this.others = others;
    this.metrics = metrics;
    this.passOver = passOver;
    this.inputs = inputs;
    this.clock = clock;
  }

  boolean leading() {
    return leadership != null;
  }

  /** Whether no health report has come since this controller last made its NameNode standby. */
  boolean demotedSinceLastReport() {
    return demotedAtReport == inputs.healthReports();
  }

  long activatedAtNanos() {
    return activatedAtNanos;
  }

  void stand() throws Exception {
    election.stand(settings.priority);
  }

  void withdraw() throws Exception {
    election.withdraw();
  }

  /**
   * This session holds the lock with no leadership behind it: a lock transaction that committed but whose reply was
   * lost (Curator sent it again and met the lock), or a release that failed. Nobody else may take the lock while the
   * session lives, so it goes now; the breadcrumb still names whatever must be fenced.
   */
  void releaseStrayLock() throws Exception {
    LOG.warn("{} holds the leader lock without leading; releasing it", nameNode);
    election.release(null, null);
  }

  /** Another controller's epoch superseded this leadership: the NameNode goes standby. */
  void dropSuperseded() {
    LOG.warn("{} lost its leadership (epoch {} superseded)", nameNode, leadership.epoch());
    demote("leadership lost");
    leadership = null;
  }

  /**
   * Takes the leadership; {@code requested} when an operator's failover to this NameNode asks for it, while
   * {@code standing} stand as candidates.
   */
  void acquire(Step why, boolean requested, List<Candidate> standing) throws Exception {
    long start = clock.getAsLong();
    // Only for the detection figure: since when the previous active's controller saw it fail (its record's wall clock).
    ActiveRecord previous = election.cachedActiveRecord();
    long detection = previous != null && previous.failedAt() > 0 && !previous.nameNodeId().equals(nameNode.nameNodeId())
        ? Math.max(0, System.currentTimeMillis() - previous.failedAt()) : 0;
    Activation activation = new Activation(election, nameNode, fencer::fence, others, clock, steps);
    Activation.Result r;
    try {
      r = activation.run();
    } catch (Exception e) {
      // (An Error goes on to the loop: the session ends, and the breadcrumb, naming this NameNode from the lock on, has
      // the next leader fence it.)
      Leadership taken = activation.taken();
      if (taken != null) {
        demote("failed while becoming active");
        giveUp(taken, e.toString());
      }
      throw e;
    }
    metrics.gracefulFencings.incr(r.fenced.graceful);
    metrics.methodFencings.incr(r.fenced.byMethod);
    switch (r.outcome) {
      case NOT_ELECTED:
        return;
      case FENCING_FAILED:
        metrics.fencingFailures.incr();
        giveUp(r.leadership, r.detail);
        return;
      case LOST_BEFORE_TRANSITION:
        LOG.warn("{} lost its leadership while fencing; not becoming active", nameNode);
        return;
      case LOST_AFTER_TRANSITION:
        LOG.warn("{} lost its leadership while becoming active; stepping down", nameNode);
        demote("leadership lost");
        return;
      case TRANSITION_FAILED:
        demote("transitionToActive failed");
        giveUp(r.leadership, r.detail);
        return;
      default:
        break;
    }
    activatedAtNanos = System.nanoTime();
    healthRecheck.run();
    Leadership l = r.leadership;
    leadership = l;
    passOver.tookOver(requested, nameNode.nameNodeId(), settings.priority, standing);
    published = r.published;
    long done = clock.getAsLong();
    metrics.failovers.incr();
    metrics.epoch.set(l.epoch());
    metrics.lastDetectionMillis.set(detection);
    metrics.lastFencingMillis.set(r.fenced.millis);
    metrics.lastTransitionMillis.set(r.transitionMillis);
    metrics.lastFailoverMillis.set(done - start);
    state(ControllerState.ACTIVE);
    LOG.info("NameNode {} is active, epoch {} ({}): detection {} ms, lock {} ms, fencing {} ms ({}), confirm {} ms, "
        + "transition {} ms, publish {} ms, total {} ms", nameNode, l.epoch(), why.reason(), detection,
        activation.lockMillis(), r.fenced.millis, r.fenced.toFence.isEmpty() ? "nothing to fence" : "fenced " + r.fenced.toFence,
        activation.confirmMillis(), r.transitionMillis, activation.publishMillis(), done - start);
    activity.activated();
  }

  /** Releases a leadership that could not be used and stays out for a back-off, so another can try. */
  private void giveUp(Leadership l, String why) {
    LOG.error("{} gives up the leadership: {}", nameNode, why);
    leadership = null;
    inputs.cedeUntil(clock.getAsLong() + settings.retryBackoffMillis);
    try {
      election.release(l, null);
    } catch (Exception e) {
      LOG.warn("Could not release the lock ({}); it goes with the session", e.toString());
    }
  }

  void resign(Step why) throws Exception {
    LOG.info("{} steps down: {}", nameNode, why.reason());
    try {
      nameNode.transitionToStandby();
    } catch (IOException e) {
      LOG.warn("{} could not go to standby ({}); leaving it to be fenced", nameNode, firstLine(e));
      abandon(why);
      return;
    }
    Leadership l = leadership;
    leadership = null;
    election.release(l, published == null ? null : published.relinquished());
    published = null;
  }

  void abandon(Step why) throws Exception {
    LOG.warn("{} gives up the leadership at once: {}", nameNode, why.reason());
    Leadership l = leadership;
    leadership = null;
    ActiveRecord lastWord = null;
    if (published != null) {
      LocalExitWitness witness = exitWitness;
      long asked = clock.getAsLong();
      // Waited for only while the process is being torn down (a hung one is not): whatever the health check saw, a
      // check that broke on the dying process (read as unresponsive before the witness saw the exit) included.
      String exited = witness == null ? null : witness.exitedProcess(EXIT_WAIT_MILLIS);
      if (exited != null) {
        LOG.info("The process of NameNode {} ({}) has exited on this host (checked in {} ms): the next leader has "
            + "nothing to fence", nameNode, exited, clock.getAsLong() - asked);
        metrics.exitsWitnessed.incr();
        lastWord = published.exited(inputs.healthChangedAt());
      } else {
        lastWord = published.failedAt(inputs.healthChangedAt());
      }
    }
    election.release(l, lastWord);
    published = null;
  }

  /**
   * The session that took this leadership is gone: ZooKeeper said it expired, or Curator gave it up after a session
   * timeout without a connection (a ZooKeeper outage, or this host cut off: it cannot tell which). Until connected
   * again nothing changed, as under the stock ZKFC. Now, if no other controller has led since, the leadership passes to
   * the new session and the NameNode stays active (the stock ZKFC too takes a free lock back after an expiry without
   * stepping down first); otherwise another leads, and may have fenced this NameNode already.
   */
  void carryOver() throws Exception {
    Leadership kept = election.resume(leadership);
    if (kept != null) {
      LOG.info("{} keeps its leadership (epoch {}) in a new ZooKeeper session", nameNode, kept.epoch());
      leadership = kept;
      return;
    }
    LOG.warn("{}: ZooKeeper session lost while leading, and another controller has led since; stepping down", nameNode);
    leadership = null;
    published = null;
    demote("ZooKeeper session lost");
  }

  /** Whether the leadership held was taken in a ZooKeeper session that is no longer this controller's. */
  boolean leadershipOfAnEndedSession() {
    return leadership != null && !election.ofCurrentSession(leadership);
  }

  /** Whether another controller's epoch has superseded the leadership held, in this session. */
  boolean leadershipSuperseded() throws Exception {
    return leadership != null && !election.iLead() && !election.stillLeading(leadership)
        && election.ofCurrentSession(leadership);
  }

  /** Best effort: the NameNode to standby (it may be gone). */
  void demote(String why) {
    try {
      nameNode.transitionToStandby();
      demotedAtReport = inputs.healthReports();
      LOG.info("{} is standby: {}", nameNode, why);
    } catch (IOException e) {
      LOG.warn("{} could not be made standby ({}): {}", nameNode, why, firstLine(e));
    }
  }

  /** The controller's state, as an operator sees it (metrics, log), and the activity listener told of leaving ACTIVE. */
  void state(ControllerState s) {
    ControllerState was = metrics.state();
    if (was != s) {
      LOG.info("Controller of {}: {} -> {}", nameNode, was, s);
      metrics.state(s);
      if (was == ControllerState.ACTIVE) {
        activity.deactivated();
      }
    }
  }

  /**
   * As the decision thread ends (asked to stop): a leader gives up the lock, or with {@code keepLock} leaves it to
   * last until its ZooKeeper session expires.
   */
  void releaseOnStop(boolean keepLock) {
    Leadership l = leadership;
    leadership = null;
    if (l != null && keepLock) {
      LOG.info("{} stops leading, its NameNode left active: its lock lasts until its ZooKeeper session expires, so a "
          + "controller started again before then takes over without a failover", nameNode);
      return;
    }
    if (l != null) {
      try {
        election.release(l, null);
      } catch (Exception e) {
        LOG.warn("Could not release the lock on close; it goes with the session", e);
      }
    }
  }

  /**
   * After an Error ended the decision thread: this session's lock (held, or just taken by an activation the Error cut
   * short) and candidacy go; the NameNode is left as it is (the breadcrumb names it from the lock on, so the next
   * leader fences it). Each may fail, and is only logged.
   */
  void releaseAfterError() {
    try {
      election.release(null, null);
    } catch (Throwable e) {
      LOG.warn("Could not release the lock of {} after the Error; it goes with the session: {}", nameNode, e.toString());
    }
    try {
      election.withdraw();
    } catch (Throwable e) {
      LOG.warn("Could not withdraw the candidacy of {} after the Error: {}", nameNode, e.toString());
    }
  }

  private static String firstLine(Throwable t) {
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m.split("\n")[0];
  }
}
