package org.bulwark.hdfs.hotstandby.client;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.zookeeper.ZooKeeperAccess;

/**
 * One {@link ActiveNameNodeTracker} (at most one ZooKeeper session) per quorum, parent znode, nameservice and
 * identity in a JVM, shared by every proxy provider of that nameservice: a process with many DFSClients (a
 * MapReduce task, a Spark executor) opens one session and one watch at a failover, not one per client.
 */
final class ActiveNameNodeTrackers {
  private static final Map<String, Entry> TRACKERS = new HashMap<>();

  private static final class Entry {
    final ActiveNameNodeTracker tracker;
    int users;

    Entry(ActiveNameNodeTracker tracker) {
      this.tracker = tracker;
    }
  }

  private ActiveNameNodeTrackers() {
  }

  static synchronized ActiveNameNodeTracker acquire(ZooKeeperAccess access, String parent, String nameservice,
      int sessionTimeoutMillis, long idleCloseMillis, long connectWaitMillis, long refusalBackoffMillis,
      int sessionsPerHost, File hostDir, boolean relay) {
    String key = access.quorum() + parent + "/" + nameservice + " as " + access.identity();
    Entry e = TRACKERS.get(key);
    if (e == null) {
      e = new Entry(new ActiveNameNodeTracker(access, parent, nameservice, sessionTimeoutMillis, idleCloseMillis,
          connectWaitMillis, refusalBackoffMillis,
          HostSessionSlots.forQuorum(hostDir, access.quorum(), sessionsPerHost),
          relay ? HostRecordRelay.forRecord(hostDir, access.quorum(), new ZNodes(parent, nameservice).active())
              : HostRecordRelay.none()));
      TRACKERS.put(key, e);
    }
    e.users++;
    return e.tracker;
  }

  static synchronized void release(ActiveNameNodeTracker tracker) {
    for (Map.Entry<String, Entry> me : TRACKERS.entrySet()) {
      Entry e = me.getValue();
      if (e.tracker == tracker) {
        if (--e.users == 0) {
          TRACKERS.remove(me.getKey());
          tracker.close();
        }
        return;
      }
    }
  }
}
