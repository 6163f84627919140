package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a NameNode's own {@code transitionToActive} went, read from the lines the NameNode logs on the way (HA state,
 * quorum journal recovery, edit log): the part of a failover no controller can shorten, split so that a run shows
 * which step grew. The same lines are logged whichever controller asked for the transition, so the split compares
 * the NameNode under both.
 */
final class TransitionPhases {
  /** Each phase ends where the NameNode logs this; the first line only starts the first phase. */
  private static final String[][] MARKS = {
      {"", "Stopping services started for standby state"},
      {"standby_stop", "Starting services required for active state"},
      // FSNamesystem's write lock taken, the quorum journal client built for writing
      {"lock_and_journal_open", "Starting recovery process for unclosed journal segments"},
      {"new_epoch", "Successfully started new epoch"},
      {"recovery_prepare", "Recovery prepare phase complete"},
      // the recovery accepted and the unfinished segment finalized at the JournalNodes
      {"recovery_accept_finalize", "Catching up to latest edits"},
      // the last edits read, the DataNodes' queued messages and the replication queues processed
      {"catch_up_and_queues", "Starting log segment at"},
  };

  private TransitionPhases() {
  }

  /**
   * The phases of the last transition to active in {@code log}, in order, in ms; empty when it lacks a step (a first
   * activation has no unfinished segment to recover) or the log has none.
   */
  static Map<String, Long> lastIn(File log) {
    List<String> lines = DaemonLog.lines(log);
    int from = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(MARKS[0][1])) {
        from = i;
      }
    }
    if (from < 0) {
      return Collections.emptyMap();
    }
    Map<String, Long> phases = new LinkedHashMap<>();
    long previous = DaemonLog.millisOfDay(lines.get(from));
    int line = from;
    for (int m = 1; m < MARKS.length; m++) {
      while (line < lines.size() && !lines.get(line).contains(MARKS[m][1])) {
        line++;
      }
      if (line == lines.size()) {
        return Collections.emptyMap();
      }
      long at = DaemonLog.millisOfDay(lines.get(line));
      phases.put(MARKS[m][0], at - previous);
      previous = at;
    }
    return phases;
  }
}
