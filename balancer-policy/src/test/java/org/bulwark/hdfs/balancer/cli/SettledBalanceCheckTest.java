package org.bulwark.hdfs.balancer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.junit.jupiter.api.Test;

class SettledBalanceCheckTest {
  @Test
  void balancedAtTheFirstLookExitsAtOnce() {
    assertEquals(ExitStatus.SUCCESS, new SettledBalanceCheck().afterIteration(ExitStatus.SUCCESS, false));
  }

  @Test
  void balancedRightAfterMovesIsLookedAtAgainThenTaken() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.IN_PROGRESS, true));
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false));
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false));
  }

  @Test
  void aLookAgainThatFindsWorkGoesOnAndIsConfirmedAfterItsMovesToo() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    check.afterIteration(ExitStatus.IN_PROGRESS, true);
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false));
    // the settled look found a DataNode past the threshold: one more move
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.IN_PROGRESS, true));
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false));
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false));
  }

  @Test
  void anIdleIterationBeforeTheBalancedLookNeedsNoSecondLook() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    check.afterIteration(ExitStatus.IN_PROGRESS, true);
    // nothing could move while the sources' deletions were unreported: the pause passed with no move
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.IN_PROGRESS, false));
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false));
  }

  @Test
  void errorsPassThroughAfterMoves() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    check.afterIteration(ExitStatus.IN_PROGRESS, true);
    assertEquals(ExitStatus.NO_MOVE_PROGRESS, check.afterIteration(ExitStatus.NO_MOVE_PROGRESS, false));
  }
}
