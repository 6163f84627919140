package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TransitionPhases} on NameNode logs shaped as Hadoop 3.4's (lines taken from a benchmark run). */
class TransitionPhasesTest {
  @TempDir
  File dir;

  private static final String[] EARLIER_ACTIVATION = {
      "15:40:01,000 INFO  namenode.FSNamesystem (IPC Server handler 1 on default port 10988) - Stopping services started for standby state",
      "15:40:01,005 INFO  namenode.FSNamesystem (IPC Server handler 1 on default port 10988) - Starting services required for active state",
      "15:40:01,100 INFO  client.QuorumJournalManager (IPC Server handler 1 on default port 10988) - Starting recovery process for unclosed journal segments...",
      "15:40:01,150 INFO  client.QuorumJournalManager (IPC Server handler 1 on default port 10988) - Successfully started new epoch 4",
      "15:40:01,200 INFO  client.QuorumJournalManager (IPC Server handler 1 on default port 10988) - Recovery prepare phase complete. Responses:",
      "15:40:01,300 INFO  namenode.FSNamesystem (IPC Server handler 1 on default port 10988) - Catching up to latest edits from old active before taking over writer role in edits logs",
      "15:40:01,320 INFO  namenode.FSEditLog (IPC Server handler 1 on default port 10988) - Starting log segment at 2494",
      "15:44:27,589 WARN  ipc.Server (IPC Server handler 5 on default port 10988) - output error",
  };

  private static final String[] LAST_ACTIVATION = {
      "15:44:29,761 INFO  namenode.FSNamesystem (IPC Server handler 1 on default port 10988) - Stopping services started for standby state",
      "15:44:29,762 WARN  ha.EditLogTailer (Edit log tailer) - Edit log tailer interrupted: sleep interrupted",
      "15:44:29,768 INFO  namenode.FSNamesystem (IPC Server handler 1 on default port 10988) - Starting services required for active state",
      "15:44:29,930 INFO  client.QuorumJournalManager (IPC Server handler 1 on default port 10988) - Starting recovery process for unclosed journal segments...",
      "15:44:29,997 INFO  client.QuorumJournalManager (IPC Server handler 1 on default port 10988) - Successfully started new epoch 5",
      "15:44:29,997 INFO  client.QuorumJournalManager (IPC Server handler 1 on default port 10988) - Beginning recovery of unclosed segment starting at txid 2494",
      "15:44:30,072 INFO  client.QuorumJournalManager (IPC Server handler 1 on default port 10988) - Recovery prepare phase complete. Responses:",
      "127.0.0.1:17232: segmentState { startTxId: 2494 endTxId: 5132 isInProgress: true } lastWriterEpoch: 4 lastCommittedTxId: 5131",
      "15:44:30,194 INFO  namenode.FSNamesystem (IPC Server handler 1 on default port 10988) - Catching up to latest edits from old active before taking over writer role in edits logs",
      "15:44:30,212 INFO  namenode.FSNamesystem (IPC Server handler 1 on default port 10988) - Reprocessing replication and invalidation queues",
      "15:44:30,222 INFO  namenode.FSEditLog (IPC Server handler 1 on default port 10988) - Starting log segment at 5133",
  };

  @Test
  void theLastTransitionIsSplitIntoItsStepsInOrder() throws Exception {
    File log = write(EARLIER_ACTIVATION, LAST_ACTIVATION);
    Map<String, Long> want = new LinkedHashMap<>();
    want.put("standby_stop", 7L);
    want.put("lock_and_journal_open", 162L);
    want.put("new_epoch", 67L);
    want.put("recovery_prepare", 75L);
    want.put("recovery_accept_finalize", 122L);
    want.put("catch_up_and_queues", 28L);
    Map<String, Long> phases = TransitionPhases.lastIn(log);
    assertEquals(want, phases);
    assertEquals(want.keySet().toString(), phases.keySet().toString(), "in the NameNode's order");
  }

  @Test
  void aTransitionThatLacksAStepOrHasNotEndedGivesNothing() throws Exception {
    // A first activation: nothing unfinished to recover, so no prepare phase.
    String[] first = Arrays.stream(LAST_ACTIVATION).filter(l -> !l.contains("Recovery prepare")).toArray(String[]::new);
    assertTrue(TransitionPhases.lastIn(write(first)).isEmpty());
    String[] unfinished = Arrays.copyOf(LAST_ACTIVATION, 5);
    assertTrue(TransitionPhases.lastIn(write(EARLIER_ACTIVATION, unfinished)).isEmpty());
    assertTrue(TransitionPhases.lastIn(new File(dir, "missing.log")).isEmpty());
  }

  private File write(String[]... parts) throws Exception {
    StringBuilder text = new StringBuilder();
    for (String[] part : parts) {
      for (String line : part) {
        text.append(line).append('\n');
      }
    }
    File f = File.createTempFile("nn0-", ".log", dir);
    Files.write(f.toPath(), text.toString().getBytes(StandardCharsets.UTF_8));
    return f;
  }
}
