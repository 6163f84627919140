package org.bulwark.hdfs.monitor.collect;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the web UI shows about the poller itself: the last complete scan of each namespace (and so how
 * stale the figures are), and the last error, such as an unreachable NameNode.
 */
public final class MonitorStatus {
  private final Map<String, NamespaceScan> lastScans = Collections.synchronizedMap(new LinkedHashMap<>());
  private volatile String lastError;
  private volatile long lastErrorAt;
  private volatile long lastPollFinished;
  private volatile long polls;

  void scanned(NamespaceScan scan) {
    lastScans.put(scan.namespace, scan);
  }

  void pollFinished(long at) {
    lastPollFinished = at;
    polls++;
  }

  void failed(String error, long at) {
    lastError = error;
    lastErrorAt = at;
  }

  public Map<String, NamespaceScan> lastScans() {
    synchronized (lastScans) {
      return new LinkedHashMap<>(lastScans);
    }
  }

  public String lastError() {
    return lastError;
  }

  public long lastErrorAt() {
    return lastErrorAt;
  }

  /** When the last poll of every namespace finished (0: none yet). */
  public long lastPollFinished() {
    return lastPollFinished;
  }

  public long polls() {
    return polls;
  }
}
