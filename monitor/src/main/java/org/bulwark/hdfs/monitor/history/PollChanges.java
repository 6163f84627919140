package org.bulwark.hdfs.monitor.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one poll changed, to be written in one transaction: replica intervals, file memberships and
 * block events opened and closed, DataNode states replaced. Empty lists when nothing changed.
 */
public final class PollChanges {
  public final int namespaceId;
  public final long time;
  /** (block, storage) pairs. */
  public final List<long[]> openedReplicas = new ArrayList<>();
  public final List<long[]> closedReplicas = new ArrayList<>();
  public final List<Membership> openedFiles = new ArrayList<>();
  public final List<Membership> closedFiles = new ArrayList<>();
  /** Block id to event kind. */
  public final Map<Long, String> openedEvents = new TreeMap<>();
  public final Map<Long, String> resolvedEvents = new TreeMap<>();
  /** DataNode store id to its new observation (the open row, if any, is closed). */
  public final Map<Integer, DataNodeObservation> dataNodeStates = new TreeMap<>();

  PollChanges(int namespaceId, long time) {
    this.namespaceId = namespaceId;
    this.time = time;
  }

  /** A block's membership of a file (by id) at a path. */
  public static final class Membership {
    public final long blockId;
    public final long fileId;
    public final String path;

    public Membership(long blockId, long fileId, String path) {
      this.blockId = blockId;
      this.fileId = fileId;
      this.path = path;
    }

    boolean same(long otherFile, String otherPath) {
      return fileId == otherFile && path.equals(otherPath);
    }
  }

  public int size() {
    return openedReplicas.size() + closedReplicas.size() + openedFiles.size() + closedFiles.size()
        + openedEvents.size() + resolvedEvents.size() + dataNodeStates.size();
  }
}
