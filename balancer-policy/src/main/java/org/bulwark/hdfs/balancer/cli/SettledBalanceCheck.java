package org.bulwark.hdfs.balancer.cli;

import org.apache.hadoop.hdfs.server.balancer.ExitStatus;

/**
 * Takes a "balanced" verdict only from a look at the cluster that no replica the NameNode is deleting went
 * before unreported: a balanced look is looked at again, one iteration pause later, when the iteration
 * before it moved blocks, or when the NameNode held replicas awaiting deletion at this look or the one
 * before (up to {@link #MAX_DELETION_LOOKS} looks in a row: a busy cluster always deletes something).
 *
 * <p>Why: the NameNode deletes a moved block's excess replica a redundancy round or two after the move,
 * and the DataNodes report their use a heartbeat after that. Until then the reports count those replicas,
 * which raises the average and hides a DataNode past the threshold (2-core VMs, 2026-11-30: balanced on
 * 7.51 points at most, 8.63 once settled, threshold 8; 2026-12-02: 7.49, then 8.04 of 8 on a DataNode no
 * move had touched, three replicas still counted). The stock balancer exits on the first balanced look.
 */
final class SettledBalanceCheck {
  static final int MAX_DELETION_LOOKS = 5;
  private boolean movedSinceLastLook;
  private boolean deletionsAtLastLook;
  private int deletionLooks;

  /**
   * The status the run goes on with after an iteration: its own, except a balanced one taken too early,
   * which becomes {@link ExitStatus#IN_PROGRESS} (look again after the pause).
   *
   * @param moved whether this iteration moved (or began moving) any block
   * @param awaitingDeletion whether a NameNode held replicas to delete when this iteration looked
   */
  ExitStatus afterIteration(ExitStatus status, boolean moved, boolean awaitingDeletion) {
    boolean deletions = (awaitingDeletion || deletionsAtLastLook) && deletionLooks < MAX_DELETION_LOOKS;
    boolean lookAgain = status == ExitStatus.SUCCESS && (movedSinceLastLook || deletions);
    deletionLooks = lookAgain && !movedSinceLastLook ? deletionLooks + 1 : 0;
    movedSinceLastLook = moved;
    deletionsAtLastLook = awaitingDeletion;
    return lookAgain ? ExitStatus.IN_PROGRESS : status;
  }
}
