package org.bulwark.hdfs.hotstandby.controller;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.apache.curator.framework.state.ConnectionState;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.ServiceFailedException;
import org.apache.hadoop.util.Time;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.election.Leadership;
import org.bulwark.hdfs.hotstandby.fencing.LocalExitWitness;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's one decision thread. Health reports, ZooKeeper connection changes, election znode
 * changes and operator requests only record what they saw and wake it; it then builds a
 * {@link ControllerView}, asks {@link ControllerRules} for the next {@link Step} and carries it out.
 * One thread does every transition and every election write, so they never interleave.
 */
public final class ControllerLoop implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerLoop.class);
  private static final long IDLE_RECHECK_MILLIS = 1000;
  /**
   * How long a controller giving its NameNode up waits for a process seen exiting to finish (a killed process
   * closes its sockets just before it ends) before it leaves the NameNode to be fenced.
   */
  private static final long EXIT_WAIT_MILLIS = 100;
  /** How long a decision thread ended by an Error waits for its lock and candidacy to go before it hands the Error on. */
  private static final long RELEASE_ON_ERROR_MILLIS = 2000;

  /** What the operator chose for this controller (priorities, fail-back, delays). */
  public static final class Settings {
    final int priority;
    final boolean failback;
    final long failbackDelayMillis;
    final long lowerPriorityDelayMillis;
    final long retryBackoffMillis;
    final Map<String, Integer> configuredPriorities;
    /** The ZooKeeper session timeout: how long a candidate must be gone to count as failed (see FailbackPassOver). */
    final long sessionTimeoutMillis;
    /** How long a standby leaves a free leadership to an unclaimed active NameNode's own controller. */
    final long unclaimedActiveWaitMillis;

    public Settings(int priority, Map<String, Integer> configuredPriorities, boolean failback, long failbackDelayMillis,
        long lowerPriorityDelayMillis, long retryBackoffMillis, long sessionTimeoutMillis, long unclaimedActiveWaitMillis) {
      this.priority = priority;
      this.configuredPriorities = configuredPriorities;
      this.failback = failback;
      this.failbackDelayMillis = failbackDelayMillis;
      this.lowerPriorityDelayMillis = lowerPriorityDelayMillis;
      this.retryBackoffMillis = retryBackoffMillis;
      this.sessionTimeoutMillis = sessionTimeoutMillis;
      this.unclaimedActiveWaitMillis = unclaimedActiveWaitMillis;
    }

    public int priority() {
      return priority;
    }
  }

  private final Settings settings;
  private final LocalNameNode nameNode;
  private final LeaderElection election;
  private final PreviousActiveFencer fencer;
  private final OtherNameNodes others;
  private final ControllerMetrics metrics;
  /**
   * Every wait, cede, back-off and delay is timed on a monotonic clock: a wall clock stepped back (NTP, an operator)
   * would stretch each by as much. Only what the ZooKeeper records carry ({@code since}, {@code failedAt}) is wall-clock
   * time, which other hosts compare with theirs.
   */
  private final LongSupplier clock = Time::monotonicNow;
  private final Thread thread;
  private volatile Activation.StepListener steps = step -> { };
  /** Sees this NameNode's process exit, on its host; null when it cannot. */
  private volatile LocalExitWitness exitWitness;
  private volatile ActivityListener activity = new ActivityListener() { };
  private volatile Consumer<Throwable> fatal = error -> { };

  /** Told, on the loop's thread, when this controller's NameNode became active and when it stopped being so. */
  public interface ActivityListener {
    default void activated() {
    }

    default void deactivated() {
    }
  }

  private final Object signal = new Object();
  private boolean dirty = true;
  /** Lifecycle, moved only by compare-and-set (as Curator's recipes do): LATENT, STARTED, STOPPING, CLOSED. */
  private final AtomicReference<Lifecycle> lifecycle = new AtomicReference<>(Lifecycle.LATENT);

  private enum Lifecycle { LATENT, STARTED, STOPPING, CLOSED }

  /** Set by {@link #closeKeepingLock} before the loop's thread is told to stop. */
  private volatile boolean keepLockOnStop;

  /** Written only by the health monitor's thread ({@link #onHealth}). */
  private volatile HealthReport health = new HealthReport(NameNodeHealth.UNKNOWN, null, null);
  /** Health reports received so far; the loop compares it with {@link #demotedAtReport}. */
  private volatile long healthReports;
  /** Loop thread only: {@link #healthReports} when it last made the NameNode standby, or -1. */
  private long demotedAtReport = -1;
  /** Loop thread only: {@link System#nanoTime} when its NameNode last answered a transitionToActive; 0 before. */
  private long activatedAtNanos;
  /** Asks the health monitor to report its next check even if unchanged (see {@link #reconcile}). */
  private volatile Runnable healthRecheck = () -> { };
  /** Wall-clock time of the last change of health: written as {@code failedAt} into the record. */
  private volatile long healthChangedAt;
  private volatile boolean zooKeeperConnected;
  private volatile long cededUntil;
  /** This controller's requests that the leadership be handed over to it ({@link #failoverToHere}). */
  private final HandoffRequests handoffs;

  // Owned by the loop thread.
  private volatile Leadership leadership;
  /** The NameNodes fail-back passes over after an operator's failover to this one. */
  private final FailbackPassOver passOver;
  private ActiveRecord published;
  private long leadershipFreeSince;
  private long startedAt;
  /** Another NameNode found active though no breadcrumb names it, and since when; null when none. */
  private String unclaimedActive;
  private long unclaimedActiveSince;

  public ControllerLoop(Settings settings, LocalNameNode nameNode, LeaderElection election, PreviousActiveFencer fencer,
      OtherNameNodes others, ControllerMetrics metrics) {
    this.settings = settings;
    this.nameNode = nameNode;
    this.election = election;
    this.handoffs = new HandoffRequests(election, nameNode.nameNodeId());
    this.fencer = fencer;
    this.others = others;
    this.metrics = metrics;
    this.passOver = new FailbackPassOver(settings.sessionTimeoutMillis);
    this.thread = new Thread(this::run, "hotstandby-" + nameNode.nameservice() + "-" + nameNode.nameNodeId());
    this.thread.setDaemon(true);
  }

  /**
   * Lets this controller tell the next leader that its NameNode's process exited (set before {@link #start}),
   * so it is not fenced again.
   */
  public void witnessExits(LocalExitWitness witness) {
    exitWitness = witness;
  }

  /**
   * How to ask the health monitor for a fresh verdict: after an activation, a timed-out check that began before
   * the NameNode answered transitionToActive is set aside until a check begun after it reports.
   */
  public void healthRecheck(Runnable recheck) {
    healthRecheck = recheck;
  }

  /** Who is told when this controller's NameNode becomes active or stops being so (one listener). */
  public void onActivity(ActivityListener listener) {
    activity = listener;
  }

  /**
   * Who is told, on the thread it broke, of an Error that ended the decision thread (out of memory, a class that
   * cannot be loaded): nothing decides any more, while the ZooKeeper session lives on. The thread first tries to
   * release its lock and candidacy, which may fail (ZooKeeper out of reach); the handler must make the session end
   * (see {@code HotStandbyController}).
   */
  public void onFatalError(Consumer<Throwable> handler) {
    fatal = handler;
  }

  /**
   * Fault injection for tests (Hadoop's FaultInjector pattern): {@code faults} is told the name of each activation
   * step as it completes ({@code LOCKED}, {@code FENCED}, {@code TRANSITIONED}, {@code PUBLISHED}), on the decision
   * thread; throwing there aborts the activation at that step, halting the JVM there is a crash there. Production
   * code never sets one.
   */
  public void injectActivationFaults(Consumer<String> faults) {
    onActivationStep(step -> faults.accept(step.name()));
  }

  /** Test seam: told after each step of an activation (see {@link Activation}); throwing there aborts it. */
  void onActivationStep(Activation.StepListener listener) {
    steps = listener;
  }

  public void start() {
    if (!lifecycle.compareAndSet(Lifecycle.LATENT, Lifecycle.STARTED)) {
      throw new IllegalStateException("the controller loop of " + nameNode + " was already started");
    }
    startedAt = clock.getAsLong();
    thread.start();
  }

  // ---- inputs ----

  public void onHealth(HealthReport report) {
    if (report.health() != health.health()) {
      healthChangedAt = System.currentTimeMillis();
    }
    health = report;
    healthReports++;
    LocalExitWitness witness = exitWitness;
    if (witness != null && report.health().answers()) {
      witness.answered();
    }
    wake();
  }

  /** A session Curator gave up (LOST) is seen once connected again, in a new one: see {@link #carryOver}. */
  public void onConnectionState(ConnectionState state) {
    zooKeeperConnected = state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED;
    LOG.info("ZooKeeper connection of {}: {}", nameNode, state);
    wake();
  }

  /** Something under the nameservice's znodes changed. */
  public void onElectionChange() {
    wake();
  }

  /** Keeps this NameNode out of the election (stepping down if active) for {@code millis}. */
  public void cede(long millis) {
    cededUntil = clock.getAsLong() + Math.max(0, millis);
    wake();
  }

  /**
   * Makes this NameNode active through the election: the leader hands over cleanly, then this
   * controller takes the lock. Returns once active; throws when not healthy, when another manual
   * failover is pending, or after {@code timeoutMillis}.
   */
  public void failoverToHere(long timeoutMillis) throws IOException, InterruptedException {
    if (isActive()) {
      return;
    }
    if (health.health() != NameNodeHealth.HEALTHY) {
      throw new ServiceFailedException("NameNode " + nameNode.nameNodeId() + " is not healthy (" + health
          + "): it cannot become active");
    }
    try {
      handoffs.open(nameNode.nameservice());
      cededUntil = 0;
      wake();
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      synchronized (signal) {
        while (!isActive() && System.nanoTime() < deadline) {
          signal.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
      }
      if (!isActive()) {
        throw new ServiceFailedException("NameNode " + nameNode.nameNodeId() + " did not become active within "
            + timeoutMillis + " ms");
      }
    } finally {
      handoffs.close();
    }
  }

  public boolean isActive() {
    return metrics.state() == ControllerState.ACTIVE;
  }

  public ControllerState state() {
    return metrics.state();
  }

  private void wake() {
    synchronized (signal) {
      dirty = true;
      signal.notifyAll();
    }
  }

  // ---- the loop ----

  private void run() {
    try {
      decideUntilStopped();
    } catch (Throwable t) {
      // Nothing will decide again; left alone, the session would keep the lock (and the candidacy) for good.
      lifecycle.set(Lifecycle.CLOSED);
      try {
        LOG.error("Controller of {}: the decision thread failed; ending this controller so its ZooKeeper session, and "
            + "any lock it holds, goes", nameNode, t);
        releaseOnError();
      } finally {
        // Whatever the release met (another Error while memory is short), the handler is told.
        fatal.accept(t);
      }
    }
  }

  private void decideUntilStopped() {
    while (lifecycle.get() == Lifecycle.STARTED) {
      long wakeAt;
      try {
        wakeAt = reconcile();
      } catch (Exception e) {
        metrics.reconcileErrors.incr();
        LOG.warn("Controller of {}: a decision failed (retrying in {} ms)", nameNode, settings.retryBackoffMillis, e);
        wakeAt = clock.getAsLong() + settings.retryBackoffMillis;
      }
      synchronized (signal) {
        signal.notifyAll();
        while (lifecycle.get() == Lifecycle.STARTED && !dirty) {
          long wait = wakeAt - clock.getAsLong();
          if (wait <= 0) {
            break;
          }
          try {
            signal.wait(wait);
          } catch (InterruptedException e) {
            releaseOnStop();
            return;
          }
        }
        dirty = false;
      }
    }
    releaseOnStop();
  }

  /** One decision: returns when to decide again if nothing changes before. */
  private long reconcile() throws Exception {
    long now = clock.getAsLong();
    HealthReport h = health;
    if (demotedAtReport == healthReports && h.state() == HAServiceState.ACTIVE) {
      // Made standby since the last health check: until the next one says otherwise, it is.
      h = new HealthReport(h.health(), HAServiceState.STANDBY, h.detail()).ofCheckStartedAt(h.checkStartedNanos());
    }
    if (ControllerRules.waitedBehindActivation(leadership != null, h.health(), h.checkStartedNanos(), activatedAtNanos)) {
      // Active until a check begun after the transition says otherwise (asked for when it answered).
      h = new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.ACTIVE, "answered transitionToActive after: " + h);
    }
    if (!zooKeeperConnected) {
      passOver.lostSight();
      setState(leadership != null ? ControllerState.ACTIVE : ControllerState.NEUTRAL);
      return Long.MAX_VALUE;
    }
    if (leadership != null && !election.ofCurrentSession(leadership)) {
      carryOver();
    }
    if (leadership == null && election.iLead()) {
      // This session holds the lock with no leadership behind it: a lock transaction that committed but whose
      // reply was lost (Curator sent it again and met the lock), or a release that failed. Nobody else may take
      // the lock while the session lives, so it goes now; the breadcrumb still names whatever must be fenced.
      LOG.warn("{} holds the leader lock without leading; releasing it", nameNode);
      election.release(null, null);
    }
    handoffs.removeLeftover();
    String handoff = election.handoffTarget();
    List<Candidate> candidates = election.candidates(now);
    ControllerView.Builder view = ControllerView.builder(nameNode.nameNodeId(), settings.priority)
        .health(h.health())
        .observer(h.state() == HAServiceState.OBSERVER)
        .madeInactive(ControllerRules.madeInactive(leadership != null, h, activatedAtNanos))
        .zooKeeperConnected(true)
        .cededUntil(cededUntil)
        .failback(settings.failback, settings.failbackDelayMillis)
        .lowerPriorityDelay(settings.lowerPriorityDelayMillis)
        .configured(settings.configuredPriorities, startedAt)
        .handoffTarget(handoff)
        .candidates(candidates);
    boolean stand = ControllerRules.shouldStand(view.build(), now);
    // A leader whose NameNode is gone or hung lets go of the lock first: withdrawing its candidacy is a
    // ZooKeeper write of its own, and one was seen to hold the release back 230-690 ms on a host busy with the kill.
    boolean releaseFirst = leadership != null
        && (h.health() == NameNodeHealth.GONE || h.health() == NameNodeHealth.UNRESPONSIVE);
    if (stand && !election.standing()) {
      election.stand(settings.priority);
      candidates = election.candidates(now);
      view.candidates(candidates);
    } else if (!stand && !releaseFirst && election.standing()) {
      election.withdraw();
    }
    // A session Curator replaced since the carry-over above fails the check too: its leadership is carried over at the
    // next decision (woken by the new connection), not dropped here.
    if (leadership != null && !election.iLead() && !election.stillLeading(leadership)
        && election.ofCurrentSession(leadership)) {
      LOG.warn("{} lost its leadership (epoch {} superseded)", nameNode, leadership.epoch());
      demote("leadership lost");
      leadership = null;
    }
    String leader = leadership != null ? nameNode.nameNodeId() : election.leader();
    if (leader == null) {
      if (leadershipFreeSince == 0) {
        leadershipFreeSince = now;
      }
    } else {
      leadershipFreeSince = 0;
    }
    boolean active = h.health() == NameNodeHealth.HEALTHY && h.state() == HAServiceState.ACTIVE;
    lookForUnclaimedActive(leader == null && leadership == null && stand && !active, now);
    view.leader(leader, leadership != null).leadershipFreeSince(leadershipFreeSince)
        .active(active)
        .unclaimedActive(unclaimedActive, unclaimedActiveSince, settings.unclaimedActiveWaitMillis)
        .passedOver(leadership != null ? passOver.passedOver(candidates, now) : Collections.emptySet());
    Step step = ControllerRules.decide(view.build(), now);
    // Level-triggered: decide again at least every second even if nothing is heard of, and when a
    // cede or back-off ends.
    long wakeAt = now + IDLE_RECHECK_MILLIS;
    if (cededUntil > now) {
      wakeAt = Math.min(wakeAt, cededUntil);
    }
    switch (step.kind()) {
      case ACQUIRE:
        acquire(step, nameNode.nameNodeId().equals(handoff), candidates);
        break;
      case RESIGN:
        resign(step);
        break;
      case ABANDON:
        abandon(step);
        break;
      case WAIT:
        wakeAt = Math.min(wakeAt, step.wakeAtMillis());
        break;
      default:
        break;
    }
    if (releaseFirst && !stand && election.standing()) {
      election.withdraw();
    }
    if (leadership == null && h.state() == HAServiceState.ACTIVE && h.health().answers()
        && step.kind() != Step.Kind.ACQUIRE) {
      // Active without leading (made active by hand, or left active by an earlier run): nothing
      // guarantees it is alone, so it steps down; if it should lead it will win the election.
      demote("active without holding the leadership");
    }
    setState(leadership != null ? ControllerState.ACTIVE
        : h.health() == NameNodeHealth.HEALTHY && h.state() == HAServiceState.OBSERVER ? ControllerState.OBSERVER
        : h.health() == NameNodeHealth.HEALTHY ? ControllerState.STANDBY
        : h.health() == NameNodeHealth.UNKNOWN ? ControllerState.INITIALIZING : ControllerState.UNHEALTHY);
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
            + "the leadership to its controller for {} ms, then fences it", first, nameNode,
            settings.unclaimedActiveWaitMillis);
      }
    }
    unclaimedActive = first;
  }

  /**
   * Takes the leadership; {@code requested} when an operator's failover to this NameNode asks for it, while
   * {@code standing} stand as candidates.
   */
  private void acquire(Step why, boolean requested, List<Candidate> standing) throws Exception {
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
      // (An Error goes on to run(): the session ends, and the breadcrumb, naming this NameNode from the lock on, has
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
    setState(ControllerState.ACTIVE);
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
    cededUntil = clock.getAsLong() + settings.retryBackoffMillis;
    try {
      election.release(l, null);
    } catch (Exception e) {
      LOG.warn("Could not release the lock ({}); it goes with the session", e.toString());
    }
  }

  private void resign(Step why) throws Exception {
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

  private void abandon(Step why) throws Exception {
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
        lastWord = published.exited(healthChangedAt);
      } else {
        lastWord = published.failedAt(healthChangedAt);
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
  private void carryOver() throws Exception {
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

  /** Best effort: the NameNode to standby (it may be gone). */
  private void demote(String why) {
    try {
      nameNode.transitionToStandby();
      demotedAtReport = healthReports;
      LOG.info("{} is standby: {}", nameNode, why);
    } catch (IOException e) {
      LOG.warn("{} could not be made standby ({}): {}", nameNode, why, firstLine(e));
    }
  }

  private void setState(ControllerState s) {
    ControllerState was = metrics.state();
    if (was != s) {
      LOG.info("Controller of {}: {} -> {}", nameNode, was, s);
      metrics.state(s);
      if (was == ControllerState.ACTIVE) {
        activity.deactivated();
      }
    }
  }

  private static String firstLine(Throwable t) {
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m.split("\n")[0];
  }

  /**
   * Stops deciding as a daemon stops ({@code hdfs --daemon stop hotstandby}, an upgrade): a leader keeps its lock,
   * which then lasts until its ZooKeeper session expires, so that the controller started again within the session
   * timeout takes it over and its NameNode stays active; if none is, the next leader fences that NameNode as after a
   * crash. The caller must then leave the session to expire rather than close it.
   */
  public void closeKeepingLock() {
    keepLockOnStop = true;
    close();
  }

  /**
   * Stops deciding: asks the loop's thread to finish the decision under way and, if it leads, to release
   * the lock (its NameNode stays active until the next leader fences it), and waits for it. Election
   * writes stay on that one thread; if it does not finish in time, the lock goes with the session.
   */
  @Override
  public void close() {
    if (!lifecycle.compareAndSet(Lifecycle.STARTED, Lifecycle.STOPPING)) {
      lifecycle.compareAndSet(Lifecycle.LATENT, Lifecycle.CLOSED);
      return;
    }
    wake();
    try {
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      LOG.warn("The controller loop of {} did not stop within 30 s; its lock goes with its ZooKeeper session", nameNode);
      thread.interrupt();
    }
    lifecycle.set(Lifecycle.CLOSED);
    setState(ControllerState.STOPPED);
  }

  /**
   * Best effort, after an Error ended the decision thread: this session's lock (held, or just taken by an activation the
   * Error cut short) and candidacy go now, so another controller can take over without waiting for the session to end,
   * which nothing may make happen (an embedder without a fatal handler). The NameNode is left as it is: the breadcrumb
   * names it from the lock on, so the next leader fences it. On a thread of its own, waited for at most
   * RELEASE_ON_ERROR_MILLIS (ZooKeeper may not answer); on this one, if connected, when no thread can be started.
   */
  private void releaseOnError() {
    Runnable release = () -> {
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
    };
    Thread releaser;
    try {
      releaser = new Thread(release, thread.getName() + "-release");
      releaser.setDaemon(true);
      releaser.start();
    } catch (Throwable cannotStart) {
      if (zooKeeperConnected) {
        release.run();
      }
      return;
    }
    try {
      releaser.join(RELEASE_ON_ERROR_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** On the loop's thread, as it ends: a leader gives up the lock (close() asked it to stop). */
  private void releaseOnStop() {
    Leadership l = leadership;
    leadership = null;
    if (l != null && keepLockOnStop) {
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
}
