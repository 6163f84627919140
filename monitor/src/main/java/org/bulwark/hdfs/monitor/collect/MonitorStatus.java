package org.bulwark.hdfs.monitor.collect;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.bulwark.hdfs.monitor.advisor.StorageCostAdvisor;

/**
 * What the web UI and the metrics show about the poller itself: the counts of each namespace's last
 * complete scan (and so how stale the figures are), the storage-cost advice computed once per poll, whether a poll is under way and since when, and the last error,
 * such as an unreachable NameNode.
 */
public final class MonitorStatus {
  private final Map<String, NamespaceSummary> lastScans = Collections.synchronizedMap(new LinkedHashMap<>());
  private volatile StorageCostAdvisor advisor;
  private volatile String lastError;
  private volatile long lastErrorAt;
  private volatile long lastPollFinished;
  private volatile long polls;
  private volatile long failedPolls;
  /** When the poll under way started (0: none under way). */
  private volatile long pollStarted;
  private volatile long lastPollMillis;
  /** The durations of the last {@link #RECENT_POLLS} complete polls, oldest first. */
  private final ArrayDeque<Long> recentPollMillis = new ArrayDeque<>();
  /** How many complete polls {@link #longestRecentPollMillis()} looks back on: a slow poll is remembered a while. */
  static final int RECENT_POLLS = 3;

  void pollStarted(long at) {
    pollStarted = at;
  }

  void scanned(NamespaceScan scan) {
    lastScans.put(scan.namespace, new NamespaceSummary(scan));
  }

  /** The storage-cost advice of the poll that just completed; never changed after it is handed over. */
  void advised(StorageCostAdvisor complete) {
    advisor = complete;
  }

  /** The poll under way was interrupted (the monitor is stopping): neither finished nor failed. */
  void pollAbandoned() {
    pollStarted = 0;
  }

  void pollFinished(long at) {
    lastPollMillis = at - pollStarted;
    synchronized (recentPollMillis) {
      if (recentPollMillis.size() == RECENT_POLLS) {
        recentPollMillis.removeFirst();
      }
      recentPollMillis.addLast(lastPollMillis);
    }
    lastPollFinished = at;
    polls++;
    pollStarted = 0;
  }

  void failed(String error, long at) {
    lastError = error;
    lastErrorAt = at;
    failedPolls++;
    pollStarted = 0;
  }

  /** The last complete poll's storage-cost advice, or null before the first. */
  public StorageCostAdvisor advisor() {
    return advisor;
  }

  public Map<String, NamespaceSummary> lastScans() {
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

  /** Polls that ended in an error (nothing of them recorded). */
  public long failedPolls() {
    return failedPolls;
  }

  /** Whether a poll is under way: it has started and has neither finished nor failed. */
  public boolean pollInProgress() {
    return pollStarted != 0;
  }

  /** When the poll under way started, or 0 when none is. */
  public long pollStartedAt() {
    return pollStarted;
  }

  /** How long the last completed poll took, all namespaces together (0: none yet). */
  public long lastPollMillis() {
    return lastPollMillis;
  }

  /** The longest of the last {@link #RECENT_POLLS} complete polls (0: none yet): how long a poll may take before it is late. */
  public long longestRecentPollMillis() {
    synchronized (recentPollMillis) {
      long longest = 0;
      for (long millis : recentPollMillis) {
        longest = Math.max(longest, millis);
      }
      return longest;
    }
  }
}
