package org.bulwark.hdfs.balancer.exec;

import java.util.SortedMap;

/** Totals of one balancer run, for the summary table and the JSON report. */
public final class RunRecord {
  int iterationsWithMoves;
  long moves;
  long movesAddingRack;
  long movesAddingRackPossible;
  long bytesMoved;
  long bytesFailed;
  long bytesRefused;
  long bytesMinToMove = -1;
  long bytesLeast;
  UtilisationFigures before;
  UtilisationFigures after;
  SortedMap<Integer, Long> blocksByRacksBefore;
  SortedMap<Integer, Long> blocksByRacksAfter;

  public int iterationsWithMoves() {
    return iterationsWithMoves;
  }

  public long moves() {
    return moves;
  }

  public long movesAddingRack() {
    return movesAddingRack;
  }

  /**
   * Of the moves handed over, those into a target some rack-adding move could have reached (see
   * {@code Plan#movesAddingRackPossible}): the best the rack-adding share could have been.
   */
  public long movesAddingRackPossible() {
    return movesAddingRackPossible;
  }

  public long movesKeepingRack() {
    return moves - movesAddingRack;
  }

  public long bytesMoved() {
    return bytesMoved;
  }

  /** Bytes of moves handed to the DataNodes that did not complete (failed, or past the block-move timeout). */
  public long bytesFailed() {
    return bytesFailed;
  }

  /** Bytes of planned moves the dispatcher kept refusing, given up (the next iteration planned around them). */
  public long bytesRefused() {
    return bytesRefused;
  }

  /**
   * Per iteration, the least bytes that balance as the optimiser found them (or, where it did not plan or could not
   * balance, the iteration's bytes left outside the threshold), summed.
   */
  public long bytesLeast() {
    return bytesLeast;
  }

  /** Bytes that had to move before the first iteration (the classification's bytes left). */
  public long bytesMinToMove() {
    return Math.max(0, bytesMinToMove);
  }

  public UtilisationFigures before() {
    return before;
  }

  public UtilisationFigures after() {
    return after;
  }

  /** Null unless {@code -report} asked for the namespace listing. */
  public SortedMap<Integer, Long> blocksByRacksBefore() {
    return blocksByRacksBefore;
  }

  public SortedMap<Integer, Long> blocksByRacksAfter() {
    return blocksByRacksAfter;
  }
}
