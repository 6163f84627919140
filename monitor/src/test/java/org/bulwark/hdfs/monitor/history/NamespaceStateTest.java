package org.bulwark.hdfs.monitor.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** What counts as a change between two polls. */
class NamespaceStateTest {
  private static Map<Long, ObservedBlock> blocks(Object... idFilePathStorages) {
    Map<Long, ObservedBlock> m = new HashMap<>();
    for (int i = 0; i < idFilePathStorages.length; i += 4) {
      m.put((Long) idFilePathStorages[i], new ObservedBlock((Long) idFilePathStorages[i + 1],
          (String) idFilePathStorages[i + 2], (int[]) idFilePathStorages[i + 3], false, false));
    }
    return m;
  }

  @Test
  void firstPollOpensEverythingAndAnUnchangedPollChangesNothing() {
    NamespaceState s = new NamespaceState();
    Map<Long, ObservedBlock> seen = blocks(1L, 10L, "/a", new int[] {3, 1, 2});
    PollChanges c = s.diff(1, 100, seen, Map.of(7, new DataNodeObservation("live", 1000, 10)));
    assertEquals(3, c.openedReplicas.size());
    assertEquals(1, c.openedFiles.size());
    assertEquals(1, c.dataNodeStates.size());
    s.apply(c);
    PollChanges again = s.diff(1, 200, seen, Map.of(7, new DataNodeObservation("live", 1000, 15)));
    assertEquals(0, again.size(), "use moved by less than 1 % of capacity: no new row");
  }

  @Test
  void movedReplicaClosesOneIntervalAndOpensAnother() {
    NamespaceState s = new NamespaceState();
    s.apply(s.diff(1, 100, blocks(1L, 10L, "/a", new int[] {1, 2, 3}), Map.of()));
    PollChanges c = s.diff(1, 200, blocks(1L, 10L, "/a", new int[] {1, 2, 4}), Map.of());
    assertEquals(1, c.closedReplicas.size());
    assertEquals(3, c.closedReplicas.get(0)[1]);
    assertEquals(4, c.openedReplicas.get(0)[1]);
    assertEquals(0, c.openedFiles.size());
  }

  @Test
  void renameMovesMembershipAndDeleteClosesAll() {
    NamespaceState s = new NamespaceState();
    s.apply(s.diff(1, 100, blocks(1L, 10L, "/a", new int[] {1, 2}), Map.of()));
    PollChanges rename = s.diff(1, 200, blocks(1L, 10L, "/b", new int[] {1, 2}), Map.of());
    assertEquals("/a", rename.closedFiles.get(0).path);
    assertEquals("/b", rename.openedFiles.get(0).path);
    s.apply(rename);
    PollChanges delete = s.diff(1, 300, Map.of(), Map.of());
    assertEquals(2, delete.closedReplicas.size());
    assertEquals(1, delete.closedFiles.size());
    s.apply(delete);
    assertEquals(0, s.openReplicas());
  }

  @Test
  void blockWithoutReplicasIsMissingUnlessBeingWrittenAndResolvesWhenBack() {
    NamespaceState s = new NamespaceState();
    s.apply(s.diff(1, 100, blocks(1L, 10L, "/a", new int[] {1}), Map.of()));
    PollChanges lost = s.diff(1, 200, blocks(1L, 10L, "/a", new int[0]), Map.of());
    assertEquals(BlockEvent.MISSING, lost.openedEvents.get(1L));
    s.apply(lost);
    assertEquals(0, s.diff(1, 250, blocks(1L, 10L, "/a", new int[0]), Map.of()).openedEvents.size(), "still missing: no new event");
    PollChanges back = s.diff(1, 300, blocks(1L, 10L, "/a", new int[] {5}), Map.of());
    assertEquals(BlockEvent.MISSING, back.resolvedEvents.get(1L));
    Map<Long, ObservedBlock> writing = new HashMap<>();
    writing.put(2L, new ObservedBlock(11L, "/b", new int[0], false, true));
    assertTrue(new NamespaceState().diff(1, 100, writing, Map.of()).openedEvents.isEmpty(),
        "the last block of a file being written has no replica yet: not missing");
  }
}
