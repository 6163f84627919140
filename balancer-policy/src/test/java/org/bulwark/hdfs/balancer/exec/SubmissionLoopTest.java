package org.bulwark.hdfs.balancer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bulwark.hdfs.balancer.plan.BlockCandidate;
import org.bulwark.hdfs.balancer.plan.PlannedMove;
import org.junit.jupiter.api.Test;

/**
 * The balancer's refusal path without a cluster: a stand-in dispatcher that refuses as Hadoop's does
 * (a target with its concurrent moves in flight, a node delayed after a failed move, a move it never
 * accepts) on a clock the test moves.
 */
class SubmissionLoopTest {
  private static final long MAX_NO_MOVE = 60_000;

  /** Hadoop's dispatcher as far as refusals go; every move in flight finishes 500 ms after it began. */
  private static final class StandInDispatch implements SubmissionLoop.Dispatch {
    long now;
    final int perTarget;
    final Map<Integer, Long> delayedUntil = new HashMap<>();
    final Set<Long> neverAccepted = new HashSet<>();
    final Set<Long> dropped = new HashSet<>();
    final List<PlannedMove> inFlight = new ArrayList<>();
    final List<Long> offeredAt = new ArrayList<>();
    int offers;
    int finished;

    StandInDispatch(int perTarget) {
      this.perTarget = perTarget;
    }

    @Override
    public SubmissionLoop.Offer offer(PlannedMove m) {
      offers++;
      offeredAt.add(now);
      if (dropped.contains(m.block().blockId())) {
        return SubmissionLoop.Offer.DROPPED;
      }
      if (neverAccepted.contains(m.block().blockId()) || delayedUntil.getOrDefault(m.target(), 0L) > now) {
        return SubmissionLoop.Offer.REFUSED;
      }
      if (inFlight.stream().filter(x -> x.target() == m.target()).count() >= perTarget) {
        return SubmissionLoop.Offer.REFUSED;
      }
      inFlight.add(m);
      return SubmissionLoop.Offer.ACCEPTED;
    }

    @Override
    public void awaitProgress(long maxMillis) {
      now += Math.min(maxMillis, 500);
      finished += inFlight.size();
      inFlight.clear();
    }

    @Override
    public void awaitAll() {
      finished += inFlight.size();
      inFlight.clear();
    }
  }

  private static List<PlannedMove> moves(int count, int target) {
    List<PlannedMove> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new PlannedMove(new BlockCandidate(0, i, 1 << 20, new int[] {0, 1}), 0, target, 1));
    }
    return out;
  }

  private static SubmissionLoop loop(StandInDispatch d, long deadline) {
    return new SubmissionLoop(d, MAX_NO_MOVE, deadline, () -> d.now);
  }

  @Test
  void aBusyTargetTakesEveryMoveInTurn() throws Exception {
    StandInDispatch d = new StandInDispatch(2);
    SubmissionLoop.Outcome o = loop(d, Long.MAX_VALUE).run(moves(7, 5));
    assertEquals(7, o.accepted.size());
    assertEquals(0, o.givenUp.size());
    assertEquals(7, d.finished, "every move handed over was waited for");
    assertTrue(d.offers > 7, "refused while busy, offered again: " + d.offers);
  }

  @Test
  void aNodeDelayedAfterAFailedMoveIsWaitedFor() throws Exception {
    StandInDispatch d = new StandInDispatch(10);
    d.delayedUntil.put(5, 10_000L); // the stock delay after an error
    SubmissionLoop.Outcome o = loop(d, Long.MAX_VALUE).run(moves(3, 5));
    assertEquals(3, o.accepted.size());
    assertEquals(0, o.givenUp.size());
    assertTrue(d.now >= 10_000, "waited for the delay to end: " + d.now);
  }

  @Test
  void aMoveRefusedForTheNoMoveIntervalIsGivenUpAndTheRestGoes() throws Exception {
    StandInDispatch d = new StandInDispatch(1);
    d.neverAccepted.add(2L);
    SubmissionLoop.Outcome o = loop(d, Long.MAX_VALUE).run(moves(4, 5));
    assertEquals(3, o.accepted.size());
    assertEquals(1, o.givenUp.size());
    assertEquals(2L, o.givenUp.get(0).block().blockId());
    assertTrue(d.now > MAX_NO_MOVE && d.now <= MAX_NO_MOVE + 2 * SubmissionLoop.RETRY_WAIT_MILLIS,
        "gave up once nothing was accepted for the interval, not before nor much after: " + d.now);
  }

  /** Hadoop dropped it (no mover thread for its target) and marked its block moved: no later turn can take it. */
  @Test
  void aDroppedMoveIsGivenUpAtOnce() throws Exception {
    StandInDispatch d = new StandInDispatch(1);
    d.dropped.add(2L);
    SubmissionLoop.Outcome o = loop(d, Long.MAX_VALUE).run(moves(4, 5));
    assertEquals(3, o.accepted.size());
    assertEquals(1, o.givenUp.size());
    assertEquals(2L, o.givenUp.get(0).block().blockId());
    assertTrue(d.now < MAX_NO_MOVE, "the loop did not wait out the no-move interval for it: " + d.now);
  }

  @Test
  void nothingIsOfferedOnceTheIterationsTimeIsUp() throws Exception {
    StandInDispatch d = new StandInDispatch(1);
    SubmissionLoop.Outcome o = loop(d, 1_200).run(moves(10, 5));
    assertTrue(o.accepted.size() >= 1 && o.accepted.size() < 10, o.accepted.toString());
    assertEquals(10, o.accepted.size() + o.givenUp.size());
    assertTrue(d.offeredAt.stream().allMatch(t -> t <= 1_200), "no offer after the deadline: " + d.offeredAt);
  }

  @Test
  void recentMovesLeaveTheWindowAfterItsWidthAndGiveUpsAfterOneIteration() {
    RecentMoves recent = new RecentMoves(5_000);
    BlockCandidate moved = new BlockCandidate(0, 1, 1, new int[] {0});
    BlockCandidate refused = new BlockCandidate(0, 2, 1, new int[] {0});
    BlockCandidate other = new BlockCandidate(1, 1, 1, new int[] {0}); // same id, another pool
    recent.startIteration(0, List.of());
    recent.handedOver(moved, 100);
    recent.startIteration(3_000, List.of(refused));
    assertTrue(recent.excludes(moved));
    assertTrue(recent.excludes(refused));
    assertTrue(!recent.excludes(other));
    Map<Integer, List<BlockCandidate>> candidates = new HashMap<>(Map.of(0, List.of(moved, refused, other)));
    assertEquals(2, recent.filter(candidates));
    assertEquals(List.of(other), candidates.get(0));
    recent.startIteration(5_100, List.of());
    assertTrue(!recent.excludes(moved), "past dfs.balancer.movedWinWidth");
    assertTrue(!recent.excludes(refused), "given up one iteration ago only");
  }
}
