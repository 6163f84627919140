package org.bulwark.hdfs.balancer.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongSupplier;
import org.bulwark.hdfs.balancer.plan.PlannedMove;

/**
 * Offers one iteration's planned moves to the dispatchers until each is accepted or given up. A node
 * that has its concurrent moves in flight, or is delayed after a failed move, refuses a move for now;
 * the stock dispatcher waits for such nodes, and so does this loop: what was refused is offered again
 * each time a move finishes. A move the dispatcher dropped is given up at once. Moves still refused
 * when no move was accepted for {@code dfs.balancer.max-no-move-interval}, or once the iteration's time
 * ({@code dfs.balancer.max-iteration-time}) is up, are given up and reported, so that the next
 * iteration plans around them instead of stalling on them.
 */
final class SubmissionLoop {
  /** Longest wait for a move to finish before refused moves are offered again. */
  static final long RETRY_WAIT_MILLIS = 1000;

  /** What became of one offer. */
  enum Offer {
    /** Handed over: it runs. */
    ACCEPTED,
    /** Refused for now (a node busy or delayed): offered again as moves finish. */
    REFUSED,
    /** Refused for this iteration whatever finishes (Hadoop dropped it: no mover thread left for its target). */
    DROPPED
  }

  /** Where moves go: Hadoop's dispatchers, or a test's stand-in. */
  interface Dispatch {
    /** Hands a move over, or says why not. */
    Offer offer(PlannedMove move);

    /** Returns once any move handed over finished, or after {@code maxMillis}. */
    void awaitProgress(long maxMillis) throws InterruptedException;

    /** Returns once every move handed over finished or failed. */
    void awaitAll();
  }

  /** What became of an iteration's moves. */
  static final class Outcome {
    final List<PlannedMove> accepted;
    final List<PlannedMove> givenUp;

    Outcome(List<PlannedMove> accepted, List<PlannedMove> givenUp) {
      this.accepted = Collections.unmodifiableList(accepted);
      this.givenUp = Collections.unmodifiableList(givenUp);
    }
  }

  private final Dispatch dispatch;
  private final long maxNoMoveMillis;
  private final long deadline;
  private final LongSupplier clock;

  /**
   * @param deadline clock time after which nothing more is offered ({@code Long.MAX_VALUE}: none)
   * @param clock milliseconds, monotonic
   */
  SubmissionLoop(Dispatch dispatch, long maxNoMoveMillis, long deadline, LongSupplier clock) {
    this.dispatch = dispatch;
    this.maxNoMoveMillis = maxNoMoveMillis;
    this.deadline = deadline;
    this.clock = clock;
  }

  /** Offers {@code moves} in order, waits for them, and says which were accepted and which given up. */
  Outcome run(List<PlannedMove> moves) throws InterruptedException {
    List<PlannedMove> accepted = new ArrayList<>();
    List<PlannedMove> givenUp = new ArrayList<>();
    List<PlannedMove> waiting = moves;
    long lastAcceptance = clock.getAsLong();
    while (!waiting.isEmpty()) {
      List<PlannedMove> refused = new ArrayList<>();
      for (PlannedMove m : waiting) {
        Offer offer = clock.getAsLong() > deadline ? Offer.REFUSED : dispatch.offer(m);
        if (offer == Offer.ACCEPTED) {
          accepted.add(m);
          lastAcceptance = clock.getAsLong();
        } else if (offer == Offer.DROPPED) {
          givenUp.add(m);
        } else {
          refused.add(m);
        }
      }
      long now = clock.getAsLong();
      if (refused.isEmpty()) {
        break;
      }
      if (now > deadline || now - lastAcceptance > maxNoMoveMillis) {
        givenUp.addAll(refused);
        break;
      }
      dispatch.awaitProgress(RETRY_WAIT_MILLIS);
      waiting = refused;
    }
    dispatch.awaitAll();
    return new Outcome(accepted, givenUp);
  }
}
