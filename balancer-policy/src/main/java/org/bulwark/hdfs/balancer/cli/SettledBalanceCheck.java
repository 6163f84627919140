package org.bulwark.hdfs.balancer.cli;

import org.apache.hadoop.hdfs.server.balancer.ExitStatus;

/**
 * Takes a "balanced" verdict only from a look at the cluster that no move of this run's went before
 * unreported: after an iteration that moved blocks, the next look that finds the cluster balanced is
 * looked at again, one iteration pause later, before the run exits.
 *
 * <p>Why: the NameNode deletes a moved block's excess replica a redundancy round or two after the move,
 * and the DataNodes report their use a heartbeat after that. A look
 * taken one pause after the moves can still count those replicas, and so judge balanced a cluster that,
 * once they are gone, has a DataNode past the threshold (seen on a slow 2-core VM, 2026-11-30: balanced
 * on 7.51 points at most, 8.63 once settled, threshold 8). The stock balancer exits on that first look;
 * the second costs one pause at the end of a run that moved blocks.
 */
final class SettledBalanceCheck {
  private boolean movedSinceLastLook;

  /**
   * The status the run goes on with after an iteration: its own, except a balanced one that followed an
   * iteration with moves, which becomes {@link ExitStatus#IN_PROGRESS} (look again after the pause).
   *
   * @param moved whether this iteration moved (or began moving) any block
   */
  ExitStatus afterIteration(ExitStatus status, boolean moved) {
    boolean lookAgain = status == ExitStatus.SUCCESS && movedSinceLastLook;
    movedSinceLastLook = moved;
    return lookAgain ? ExitStatus.IN_PROGRESS : status;
  }
}
