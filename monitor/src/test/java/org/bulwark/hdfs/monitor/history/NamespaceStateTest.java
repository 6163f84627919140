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

  @Test
  void erasureCodedGroupWithFewerInternalBlocksThanItsDataBlocksIsMissing() {
    NamespaceState s = new NamespaceState();
    // RS-3-2, a full stripe: 3 data blocks needed; 5 internal blocks on storages 1-5.
    s.apply(s.diff(1, 100, group(new int[] {1, 2, 3, 4, 5}, 5, 3), Map.of()));
    PollChanges twoLeft = s.diff(1, 200, group(new int[] {4, 5}, 2, 3), Map.of());
    assertEquals(BlockEvent.MISSING, twoLeft.openedEvents.get(1L), "2 of 3 needed: unreadable although it has locations");
    assertEquals(3, twoLeft.closedReplicas.size());
    s.apply(twoLeft);
    PollChanges duplicated = s.diff(1, 300, group(new int[] {4, 5, 6}, 2, 3), Map.of());
    assertTrue(duplicated.resolvedEvents.isEmpty(), "a second copy of an internal block found does not make it readable");
    PollChanges rebuilt = s.diff(1, 400, group(new int[] {4, 5, 7}, 3, 3), Map.of());
    assertEquals(BlockEvent.MISSING, rebuilt.resolvedEvents.get(1L));
    NamespaceState small = new NamespaceState();
    assertTrue(small.diff(1, 100, group(new int[] {4}, 1, 1), Map.of()).openedEvents.isEmpty(),
        "a group smaller than a cell needs its one data block only");
  }

  private static Map<Long, ObservedBlock> group(int[] storages, int distinctInternalBlocks, int dataBlocks) {
    Map<Long, ObservedBlock> m = new HashMap<>();
    m.put(1L, new ObservedBlock(10L, "/ec/f", storages, distinctInternalBlocks, dataBlocks, false, false));
    return m;
  }

  @Test
  void aDataNodeTheNameNodeNoLongerListsEndsAsUnregistered() {
    NamespaceState s = new NamespaceState();
    DataNodeObservation live = new DataNodeObservation("live", 1000, 10);
    s.apply(s.diff(1, 100, Map.of(), Map.of(7, live, 8, live)));
    // 8 re-registered under a new identity (9), as a reimaged host does.
    PollChanges c = s.diff(1, 200, Map.of(), Map.of(7, live, 9, live));
    assertEquals(DataNodeObservation.UNREGISTERED_STATE, c.dataNodeStates.get(8).state);
    assertEquals(2, c.dataNodeStates.size(), "8 ends, 9 begins; 7 unchanged");
    s.apply(c);
    assertEquals(0, s.diff(1, 300, Map.of(), Map.of(7, live, 9, live)).size(), "recorded once");
    assertEquals(0, s.diff(1, 300, Map.of(), null).size(), "a poll without a DataNode report changes no DataNode");
    PollChanges back = s.diff(1, 400, Map.of(), Map.of(7, live, 8, live, 9, live));
    assertEquals("live", back.dataNodeStates.get(8).state, "registered again");
  }
}
