package org.bulwark.hdfs.hotstandby.controller;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.apache.curator.framework.state.ConnectionState;
import org.apache.hadoop.ha.ServiceFailedException;
import org.apache.hadoop.util.Time;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.fencing.LocalExitWitness;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's one decision thread and its lifecycle. Health reports, ZooKeeper connection changes, election
 * znode changes and operator requests only record what they saw ({@link ControllerInputs}) and wake it; it then makes
 * one decision ({@link Reconciler}: the rules decide, {@link ControllerActions} carries out) and sleeps until the next
 * change or the time the decision asked to be woken at. One thread does every transition and every election write,
 * so they never interleave.
 */
public final class ControllerLoop implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerLoop.class);
  /** How long a decision thread ended by an Error waits for its lock and candidacy to go before it hands the Error on. */
  private static final long RELEASE_ON_ERROR_MILLIS = 2000;

  private final LocalNameNode nameNode;
  private final ControllerMetrics metrics;
  private final ControllerInputs inputs = new ControllerInputs();
  private final ControllerActions actions;
  private final Reconciler reconciler;
  /** This controller's requests that the leadership be handed over to it ({@link #failoverToHere}). */
  private final HandoffRequests handoffs;
  /**
   * Every wait, cede, back-off and delay is timed on a monotonic clock: a wall clock stepped back (NTP, an operator)
   * would stretch each by as much. Only what the ZooKeeper records carry ({@code since}, {@code failedAt}) is wall-clock
   * time, which other hosts compare with theirs.
   */
  private final LongSupplier clock = Time::monotonicNow;
  private final long retryBackoffMillis;
  private final Thread thread;
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

  public ControllerLoop(ControllerSettings settings, LocalNameNode nameNode, LeaderElection election,
      PreviousActiveFencer fencer, OtherNameNodes others, ControllerMetrics metrics) {
    this.nameNode = nameNode;
    this.metrics = metrics;
    this.retryBackoffMillis = settings.retryBackoffMillis;
    this.handoffs = new HandoffRequests(election, nameNode.nameNodeId());
    FailbackPassOver passOver = new FailbackPassOver(settings.sessionTimeoutMillis);
    this.actions = new ControllerActions(settings, nameNode, election, fencer, others, metrics, passOver, inputs, clock);
    this.reconciler = new Reconciler(settings, nameNode, election, handoffs, others, passOver, inputs, actions, clock);
    this.thread = new Thread(this::run, "hotstandby-" + nameNode.nameservice() + "-" + nameNode.nameNodeId());
    this.thread.setDaemon(true);
  }

  /**
   * Lets this controller tell the next leader that its NameNode's process exited (set before {@link #start}),
   * so it is not fenced again.
   */
  public void witnessExits(LocalExitWitness witness) {
    actions.exitWitness = witness;
  }

  /**
   * How to ask the health monitor for a fresh verdict: after an activation, a timed-out check that began before
   * the NameNode answered transitionToActive is set aside until a check begun after it reports.
   */
  public void healthRecheck(Runnable recheck) {
    actions.healthRecheck = recheck;
  }

  /** Who is told when this controller's NameNode becomes active or stops being so (one listener). */
  public void onActivity(ActivityListener listener) {
    actions.activity = listener;
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
    actions.steps = listener;
  }

  public void start() {
    if (!lifecycle.compareAndSet(Lifecycle.LATENT, Lifecycle.STARTED)) {
      throw new IllegalStateException("the controller loop of " + nameNode + " was already started");
    }
    reconciler.started();
    thread.start();
  }

  // ---- inputs ----

  public void onHealth(HealthReport report) {
    inputs.health(report);
    LocalExitWitness witness = actions.exitWitness;
    if (witness != null && report.health().answers()) {
      witness.answered();
    }
    wake();
  }

  /** A session Curator gave up (LOST) is seen once connected again, in a new one: see {@link ControllerActions#carryOver}. */
  public void onConnectionState(ConnectionState state) {
    inputs.zooKeeperConnected(state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED);
    LOG.info("ZooKeeper connection of {}: {}", nameNode, state);
    wake();
  }

  /** Something under the nameservice's znodes changed. */
  public void onElectionChange() {
    wake();
  }

  /** Keeps this NameNode out of the election (stepping down if active) for {@code millis}. */
  public void cede(long millis) {
    inputs.cedeUntil(clock.getAsLong() + Math.max(0, millis));
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
    HealthReport health = inputs.health();
    if (health.health() != NameNodeHealth.HEALTHY) {
      throw new ServiceFailedException("NameNode " + nameNode.nameNodeId() + " is not healthy (" + health
          + "): it cannot become active");
    }
    try {
      handoffs.open(nameNode.nameservice());
      inputs.cedeUntil(0);
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
        wakeAt = reconciler.reconcile();
      } catch (Exception e) {
        metrics.reconcileErrors.incr();
        LOG.warn("Controller of {}: a decision failed (retrying in {} ms)", nameNode, retryBackoffMillis, e);
        wakeAt = clock.getAsLong() + retryBackoffMillis;
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
            actions.releaseOnStop(keepLockOnStop);
            return;
          }
        }
        dirty = false;
      }
    }
    actions.releaseOnStop(keepLockOnStop);
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
    actions.state(ControllerState.STOPPED);
  }

  /**
   * Best effort, after an Error ended the decision thread: this session's lock (held, or just taken by an activation the
   * Error cut short) and candidacy go now, so another controller can take over without waiting for the session to end,
   * which nothing may make happen (an embedder without a fatal handler). The NameNode is left as it is: the breadcrumb
   * names it from the lock on, so the next leader fences it. On a thread of its own, waited for at most
   * RELEASE_ON_ERROR_MILLIS (ZooKeeper may not answer); on this one, if connected, when no thread can be started.
   */
  private void releaseOnError() {
    Runnable release = actions::releaseAfterError;
    Thread releaser;
    try {
      releaser = new Thread(release, thread.getName() + "-release");
      releaser.setDaemon(true);
      releaser.start();
    } catch (Throwable cannotStart) {
      if (inputs.zooKeeperConnected()) {
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
}
