package org.bulwark.hdfs.hotstandby.controller;

import java.io.IOException;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.election.Leadership;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;

/**
 * The steps that make a leader's NameNode active, in the one order that is safe to die in:
 * <ol>
 * <li>take the lock; the same ZooKeeper transaction adds this NameNode to the fencing breadcrumb;</li>
 * <li>fence every other NameNode the breadcrumb named, and every other that answers active though the breadcrumb
 * does not name it (made active outside our election: the stock ZKFC's active, when a nameservice moves over);
 * then the breadcrumb names this one alone;</li>
 * <li>{@code transitionToActive};</li>
 * <li>publish the active record clients read.</li>
 * </ol>
 * A controller that dies after any step (kill -9, OOM, a transition that timed out but happened) leaves
 * a breadcrumb naming every NameNode that may be active, and the next leader fences them before its
 * own becomes active. This class only carries the steps out and says how far it got; what to do about
 * an activation that stopped short (step down, back off) is the {@link ControllerActions}'s.
 */
final class Activation {
  /** The steps, in order. */
  enum Step { LOCKED, FENCED, TRANSITIONED, PUBLISHED }

  /** Told after each step, on the controller's thread. A test throws there to kill the controller there. */
  interface StepListener {
    void after(Step step) throws Exception;
  }

  /** The NameNode to make active. */
  interface Target {
    String nameNodeId();

    void transitionToActive() throws IOException;

    ActiveRecord activeRecord(long epoch, long sinceMillis);
  }

  /** Fences another NameNode of the nameservice. */
  interface Fencer {
    PreviousActiveFencer.Outcome fence(String nameNodeId);
  }

  /** How an activation ended. */
  enum Outcome {
    /** Another controller holds the lock or won the race: nothing was done. */
    NOT_ELECTED,
    /** A NameNode the breadcrumb named could not be fenced: this one was not made active. */
    FENCING_FAILED,
    /** The leadership passed on before the NameNode was made active. */
    LOST_BEFORE_TRANSITION,
    /** The NameNode was made active, then the leadership passed on before the record was published. */
    LOST_AFTER_TRANSITION,
    /** {@code transitionToActive} failed (the NameNode may or may not have become active). */
    TRANSITION_FAILED,
    /** The NameNode is active and the record published. */
    ACTIVE
  }

  /** Where an activation stopped, with what it took. */
  static final class Result {
    final Outcome outcome;
    final Leadership leadership;
    final ActiveRecord published;
    final String detail;
    final Fenced fenced;
    final long transitionMillis;

    private Result(Outcome outcome, Leadership leadership, ActiveRecord published, String detail, Fenced fenced,
        long transitionMillis) {
      this.outcome = outcome;
      this.leadership = leadership;
      this.published = published;
      this.detail = detail;
      this.fenced = fenced;
      this.transitionMillis = transitionMillis;
    }
  }

  /** What fencing the previous actives took: how many stepped down when asked, how many a method fenced, how long. */
  static final class Fenced {
    static final Fenced NOTHING = new Fenced(Collections.emptySet(), 0, 0, 0, null);

    /** The NameNodes there were to fence: those the breadcrumb named, and others that answered active. */
    final Set<String> toFence;
    final int graceful;
    final int byMethod;
    /** 0 when nothing was to be fenced, never a clock's tick. */
    final long millis;
    /** The NameNode no fencing worked for (the ones after it were not tried), or null. */
    final String unfenced;

    Fenced(Set<String> toFence, int graceful, int byMethod, long millis, String unfenced) {
      this.toFence = toFence;
      this.graceful = graceful;
      this.byMethod = byMethod;
      this.millis = millis;
      this.unfenced = unfenced;
    }
  }

  private final LeaderElection election;
  private final Target target;
  private final Fencer fencer;
  private final OtherNameNodes others;
  /** Times the steps (monotonic); the record's {@code since} is wall-clock time, which clients compare with theirs. */
  private final LongSupplier clock;
  private final StepListener steps;
  private Leadership taken;
  /** How long each ZooKeeper step took (ms), for the log's account of a failover; 0 until it was done. */
  private long lockMillis;
  private long confirmMillis;
  private long publishMillis;

  Activation(LeaderElection election, Target target, Fencer fencer, OtherNameNodes others, LongSupplier clock,
      StepListener steps) {
    this.election = election;
    this.target = target;
    this.fencer = fencer;
    this.others = others;
    this.clock = clock;
    this.steps = steps;
  }

  /** The leadership this activation took, or null: what to release when {@link #run} threw. */
  Leadership taken() {
    return taken;
  }

  /** Taking the lock (with the breadcrumb): one ZooKeeper transaction, or a read and one when the cache was stale. */
  long lockMillis() {
    return lockMillis;
  }

  /** Confirming the leadership (and recording the fencing) before the transition: one round trip. */
  long confirmMillis() {
    return confirmMillis;
  }

  /** Publishing the active record clients read: one round trip. */
  long publishMillis() {
    return publishMillis;
  }

  /** Carries out the steps; an exception (ZooKeeper unreachable) leaves the caller to clean up after it. */
  Result run() throws Exception {
    long start = clock.getAsLong();
    Leadership l = election.acquire();
    lockMillis = clock.getAsLong() - start;
    if (l == null) {
      return new Result(Outcome.NOT_ELECTED, null, null, "another controller leads", Fenced.NOTHING, 0);
    }
    taken = l;
    steps.after(Step.LOCKED);
    Set<String> toFence = new TreeSet<>(l.toFence());
    toFence.addAll(others.active(l.toFence()));
    Fenced fenced = fencePrevious(toFence);
    if (fenced.unfenced != null) {
      return new Result(Outcome.FENCING_FAILED, l, null, "could not fence NameNode " + fenced.unfenced, fenced, 0);
    }
    // Recording the fencing checks the leadership too: one round trip, not two.
    long confirmStart = clock.getAsLong();
    boolean leading = l.toFence().isEmpty() ? election.stillLeading(l) : election.fenced(l);
    confirmMillis = clock.getAsLong() - confirmStart;
    if (!leading) {
      return new Result(Outcome.LOST_BEFORE_TRANSITION, l, null, "leadership lost while fencing", fenced, 0);
    }
    steps.after(Step.FENCED);
    long transitionStart = clock.getAsLong();
    try {
      target.transitionToActive();
    } catch (IOException e) {
      String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().split("\n")[0];
      return new Result(Outcome.TRANSITION_FAILED, l, null, "transitionToActive failed: " + m, fenced,
          clock.getAsLong() - transitionStart);
    }
    long transitionMillis = clock.getAsLong() - transitionStart;
    steps.after(Step.TRANSITIONED);
    long publishStart = clock.getAsLong();
    ActiveRecord record = target.activeRecord(l.epoch(), System.currentTimeMillis());
    boolean published = election.publish(l, record);
    publishMillis = clock.getAsLong() - publishStart;
    if (!published) {
      return new Result(Outcome.LOST_AFTER_TRANSITION, l, null, "leadership lost while becoming active", fenced,
          transitionMillis);
    }
    steps.after(Step.PUBLISHED);
    return new Result(Outcome.ACTIVE, l, record, "active", fenced, transitionMillis);
  }

  /** Fences, in order, every NameNode of {@code toFence}; stops at the first that cannot be. */
  private Fenced fencePrevious(Set<String> toFence) {
    if (toFence.isEmpty()) {
      return Fenced.NOTHING;
    }
    long start = clock.getAsLong();
    int graceful = 0;
    int byMethod = 0;
    for (String other : toFence) {
      PreviousActiveFencer.Outcome o = fencer.fence(other);
      if (o == PreviousActiveFencer.Outcome.FAILED) {
        return new Fenced(toFence, graceful, byMethod, clock.getAsLong() - start, other);
      }
      graceful += o == PreviousActiveFencer.Outcome.GRACEFUL ? 1 : 0;
      byMethod += o == PreviousActiveFencer.Outcome.FENCED ? 1 : 0;
    }
    return new Fenced(toFence, graceful, byMethod, clock.getAsLong() - start, null);
  }
}
