package org.bulwark.hdfs.balancer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.junit.jupiter.api.Test;

class SettledBalanceCheckTest {
  @Test
  void balancedAtTheFirstLookExitsAtOnce() {
    assertEquals(ExitStatus.SUCCESS, new SettledBalanceCheck().afterIteration(ExitStatus.SUCCESS, false, false));
  }

  @Test
  void balancedRightAfterMovesIsLookedAtAgainThenTaken() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.IN_PROGRESS, true, false));
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
  }

  @Test
  void aLookAgainThatFindsWorkGoesOnAndIsConfirmedAfterItsMovesToo() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    check.afterIteration(ExitStatus.IN_PROGRESS, true, false);
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
    // the settled look found a DataNode past the threshold: one more move
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.IN_PROGRESS, true, false));
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
  }

  @Test
  void anIdleIterationBeforeTheBalancedLookNeedsNoSecondLook() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    check.afterIteration(ExitStatus.IN_PROGRESS, true, false);
    // nothing could move while the sources' deletions were unreported: the pause passed with no move
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.IN_PROGRESS, false, false));
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
  }

  @Test
  void replicasAwaitingDeletionAreWaitedOutAndOneHeartbeatMore() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    // the first look already counts a replica the NameNode is deleting (a run started after a delete)
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, true));
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, true));
    // deleted now; its DataNode reports its use a heartbeat later
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false, false));
  }

  @Test
  void aClusterThatAlwaysDeletesSomethingIsTakenAsBalancedAfterTheLastLook() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    for (int look = 0; look < SettledBalanceCheck.MAX_DELETION_LOOKS; look++) {
      assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, true), "look " + look);
    }
    assertEquals(ExitStatus.SUCCESS, check.afterIteration(ExitStatus.SUCCESS, false, true));
  }

  @Test
  void movesBetweenTheLooksStartTheCountAgain() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    for (int look = 0; look < SettledBalanceCheck.MAX_DELETION_LOOKS; look++) {
      check.afterIteration(ExitStatus.SUCCESS, false, true);
    }
    // a settled look found work after all
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.IN_PROGRESS, true, true));
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, true));
    assertEquals(ExitStatus.IN_PROGRESS, check.afterIteration(ExitStatus.SUCCESS, false, true));
  }

  @Test
  void errorsPassThroughAfterMoves() {
    SettledBalanceCheck check = new SettledBalanceCheck();
    check.afterIteration(ExitStatus.IN_PROGRESS, true, true);
    assertEquals(ExitStatus.NO_MOVE_PROGRESS, check.afterIteration(ExitStatus.NO_MOVE_PROGRESS, false, true));
  }
}
