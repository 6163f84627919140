package org.bulwark.hdfs.monitor.history;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The open intervals of one namespace (replicas, file memberships, events) and of the DataNodes, as
 * recorded: what the next poll is compared with. {@link #diff} turns a poll's observation into the
 * changes to record; {@link #apply} moves this state on once they are committed. Plain data, so the
 * rules of what counts as a change are tested without a cluster or a database.
 */
public final class NamespaceState {
  private static final int[] NONE = new int[0];

  final Map<Long, int[]> replicas = new HashMap<>();
  final Map<Long, PollChanges.Membership> files = new HashMap<>();
  final Map<Long, String> events = new HashMap<>();
  final Map<Integer, DataNodeObservation> dataNodes = new HashMap<>();

  /** Loads an open replica interval (at start-up, from the store). */
  public void openReplica(long blockId, int storageId) {
    int[] s = replicas.getOrDefault(blockId, NONE);
    if (Arrays.binarySearch(s, storageId) < 0) {
      int[] n = Arrays.copyOf(s, s.length + 1);
      n[s.length] = storageId;
      Arrays.sort(n);
      replicas.put(blockId, n);
    }
  }

  public void openFile(long blockId, long fileId, String path) {
    files.put(blockId, new PollChanges.Membership(blockId, fileId, path));
  }

  public void openEvent(long blockId, String kind) {
    events.put(blockId, kind);
  }

  public void openDataNodeState(int dataNodeId, DataNodeObservation o) {
    dataNodes.put(dataNodeId, o);
  }

  public int openReplicas() {
    int n = 0;
    for (int[] s : replicas.values()) {
      n += s.length;
    }
    return n;
  }

  /**
   * The changes that take the recorded state to what was observed at {@code time}.
   *
   * @param observedDataNodes every DataNode the NameNode listed (live or dead), or null when this poll took
   *     no DataNode report: DataNode states are then left as they are
   */
  public PollChanges diff(int namespaceId, long time, Map<Long, ObservedBlock> observed,
      Map<Integer, DataNodeObservation> observedDataNodes) {
    PollChanges c = new PollChanges(namespaceId, time);
    for (Map.Entry<Long, ObservedBlock> e : observed.entrySet()) {
      long block = e.getKey();
      ObservedBlock o = e.getValue();
      int[] before = replicas.getOrDefault(block, NONE);
      for (int s : o.storages) {
        if (Arrays.binarySearch(before, s) < 0) {
          c.openedReplicas.add(new long[] {block, s});
        }
      }
      for (int s : before) {
        if (Arrays.binarySearch(o.storages, s) < 0) {
          c.closedReplicas.add(new long[] {block, s});
        }
      }
      PollChanges.Membership m = files.get(block);
      if (m == null || !m.same(o.fileId, o.path)) {
        if (m != null) {
          c.closedFiles.add(m);
        }
        c.openedFiles.add(new PollChanges.Membership(block, o.fileId, o.path));
      }
      String kind = o.missing() ? BlockEvent.MISSING
          : o.corrupt ? BlockEvent.CORRUPT : null;
      String open = events.get(block);
      if (open != null && !open.equals(kind)) {
        c.resolvedEvents.put(block, open);
      }
      if (kind != null && !kind.equals(open)) {
        c.openedEvents.put(block, kind);
      }
    }
    // Blocks no longer in the namespace (file deleted): every open interval of theirs ends.
    for (Map.Entry<Long, int[]> e : replicas.entrySet()) {
      if (!observed.containsKey(e.getKey())) {
        for (int s : e.getValue()) {
          c.closedReplicas.add(new long[] {e.getKey(), s});
        }
      }
    }
    for (Map.Entry<Long, PollChanges.Membership> e : files.entrySet()) {
      if (!observed.containsKey(e.getKey())) {
        c.closedFiles.add(e.getValue());
      }
    }
    for (Map.Entry<Long, String> e : events.entrySet()) {
      if (!observed.containsKey(e.getKey())) {
        c.resolvedEvents.put(e.getKey(), e.getValue());
      }
    }
    if (observedDataNodes == null) {
      return c;
    }
    for (Map.Entry<Integer, DataNodeObservation> e : observedDataNodes.entrySet()) {
      DataNodeObservation before = dataNodes.get(e.getKey());
      if (before == null || e.getValue().differsFrom(before)) {
        c.dataNodeStates.put(e.getKey(), e.getValue());
      }
    }
    // A DataNode the NameNode lists neither live nor dead has left it: re-registered under a new identity
    // (a reimaged host), or not seen since the NameNode started. Its last state must not stay open forever.
    for (Map.Entry<Integer, DataNodeObservation> e : dataNodes.entrySet()) {
      if (!observedDataNodes.containsKey(e.getKey()) && !e.getValue().isUnregistered()) {
        c.dataNodeStates.put(e.getKey(), DataNodeObservation.UNREGISTERED);
      }
    }
    return c;
  }

  /** Moves this state on by changes that have been committed. */
  public void apply(PollChanges c) {
    for (long[] r : c.closedReplicas) {
      int[] s = replicas.get(r[0]);
      if (s != null) {
        int[] n = Arrays.stream(s).filter(x -> x != (int) r[1]).toArray();
        if (n.length == 0) {
          replicas.remove(r[0]);
        } else {
          replicas.put(r[0], n);
        }
      }
    }
    for (long[] r : c.openedReplicas) {
      openReplica(r[0], (int) r[1]);
    }
    for (PollChanges.Membership m : c.closedFiles) {
      files.remove(m.blockId);
    }
    for (PollChanges.Membership m : c.openedFiles) {
      files.put(m.blockId, m);
    }
    events.keySet().removeAll(c.resolvedEvents.keySet());
    events.putAll(c.openedEvents);
    dataNodes.putAll(c.dataNodeStates);
  }
}
