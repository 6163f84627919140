package org.bulwark.hdfs.monitor.collect;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.channels.ClosedByInterruptException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.bulwark.hdfs.monitor.MonitorKeys;
import org.bulwark.hdfs.monitor.advisor.ErasureCodingLayout;
import org.bulwark.hdfs.monitor.advisor.StorageCostAdvisor;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.LeaseLostException;
import org.bulwark.hdfs.monitor.store.PollSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll loop: every interval, scans each namespace and the DataNode report, diffs them against the
 * recorded open intervals and records the changes, one transaction per namespace. The recorded state
 * moves on only after a commit, so a crash mid-poll loses that poll and nothing before it; at start
 * the open intervals are read back from the store. A monitor whose store was taken over by another
 * (its writer lease lost) stops polling: it would load the NameNodes for nothing.
 */
public final class HistoryPoller implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryPoller.class);

  private final Configuration conf;
  private final List<URI> namespaces;
  private final HistoryStore store;
  private final RpcRateLimiter limiter;
  private final long intervalMillis;
  private final long retentionMillis;
  /** The health canary's directory, left out of the history: its files live milliseconds and are ours. */
  private final String canaryDir;
  private final int advisorDepth;
  private final MonitorStatus status = new MonitorStatus();
  private final Map<URI, NamespaceState> states = new HashMap<>();
  private final Map<URI, DistributedFileSystem> clients = new LinkedHashMap<>();
  /** The namespaces whose NameNode was in safe mode at their last poll (logged once per stay). */
  private final Set<URI> safeMode = new HashSet<>();
  /** The namespace whose NameNode gave the last recorded DataNode report (the first one that answers). */
  private URI dataNodeReporter;
  private final Thread thread;
  private volatile boolean running = true;
  private long lastRetention;

  /** @param skippedDir a directory every scan leaves out (the health canary's), or null */
  public HistoryPoller(Configuration conf, List<URI> namespaces, HistoryStore store, long maxRpcPerSecond,
      long intervalMillis, long retentionMillis, String skippedDir) {
    this.conf = conf;
    this.namespaces = namespaces;
    this.store = store;
    this.limiter = new RpcRateLimiter(maxRpcPerSecond);
    this.intervalMillis = intervalMillis;
    this.retentionMillis = retentionMillis;
    this.advisorDepth = MonitorKeys.ADVISOR_DEPTH.get(conf).intValue();
    this.canaryDir = skippedDir;
    this.thread = new Thread(this::loop, "blockmonitor-poller");
    this.thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  public MonitorStatus status() {
    return status;
  }

  private void loop() {
    while (running) {
      try {
        pollOnce();
      } catch (InterruptedException e) {
        return;
      } catch (LeaseLostException e) {
        LOG.error("Stopped polling, for good: {}. The web UI goes on serving the history the other monitor writes; "
            + "stop this one", e.getMessage());
        return;
      } catch (Exception e) {
        LOG.warn("Poll failed (the UI shows how stale its figures are): {}", status.lastError());
      }
      try {
        TimeUnit.MILLISECONDS.sleep(intervalMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Polls every namespace once and records what changed. */
  public synchronized void pollOnce() throws IOException, InterruptedException {
    status.pollStarted(System.currentTimeMillis());
    try {
      // Before the NameNodes are scanned: a monitor that may no longer write finds out now.
      store.renewLease();
      pollEveryNamespace();
    } catch (InterruptedException e) {
      status.pollAbandoned();
      throw e;
    } catch (IOException | RuntimeException e) {
      status.failed(firstLine(e), System.currentTimeMillis());
      throw e;
    }
  }

  /**
   * Each namespace on its own: one that cannot be polled (its NameNodes unreachable, or in safe mode) records
   * nothing, and the others are recorded as usual; the poll then fails naming the namespaces left out.
   */
  private void pollEveryNamespace() throws IOException, InterruptedException {
    StorageCostAdvisor advisor = new StorageCostAdvisor(advisorDepth, ErasureCodingLayout.BUILT_IN);
    List<String> notPolled = new ArrayList<>();
    boolean dataNodesTaken = false;
    for (URI uri : namespaces) {
      try {
        if (pollNamespace(uri, advisor, !dataNodesTaken)) {
          dataNodesTaken = true;
        }
      } catch (LeaseLostException e) {
        throw e;
      } catch (IOException | RuntimeException e) {
        if (!running || Thread.currentThread().isInterrupted() || e instanceof InterruptedIOException
            || e instanceof ClosedByInterruptException) {
          throw new InterruptedException("stopping: " + e);
        }
        notPolled.add(uri + ": " + firstLine(e));
        LOG.debug("Namespace {} not polled", uri, e);
      }
    }
    if (!notPolled.isEmpty()) {
      throw new IOException((notPolled.size() == namespaces.size() ? "" : "only partly recorded: ")
          + String.join("; ", notPolled));
    }
    status.advised(advisor);
    long now = System.currentTimeMillis();
    status.pollFinished(now);
    if (now - lastRetention > TimeUnit.HOURS.toMillis(1)) {
      long deleted = store.deleteHistoryBefore(now - retentionMillis);
      lastRetention = now;
      if (deleted > 0) {
        LOG.info("Retention: deleted {} history rows older than {} days", deleted, TimeUnit.MILLISECONDS.toDays(retentionMillis));
      }
    }
    store.compactIfGrown();
  }

  /**
   * Polls one namespace and records what changed; with {@code takeDataNodes}, the DataNode report too.
   *
   * @return whether this namespace's DataNode report was recorded
   * @throws NamespaceInSafeMode when its NameNode is in safe mode: nothing is recorded
   */
  private boolean pollNamespace(URI uri, StorageCostAdvisor advisor, boolean takeDataNodes)
      throws IOException, InterruptedException {
    DistributedFileSystem fs = client(uri);
    // A NameNode in safe mode (starting, waiting for block reports) lists blocks whose holders have not
    // reported yet with no locations: recorded, that would end every replica's interval and open a false
    // "missing" event for most blocks, only to reopen them all at the next poll.
    limiter.acquire();
    boolean inSafeMode = fs.isInSafeMode();
    if (inSafeMode != safeMode.contains(uri)) {
      if (inSafeMode) {
        safeMode.add(uri);
        LOG.info("Namespace {}: the NameNode is in safe mode; its history waits until it leaves", uri);
      } else {
        safeMode.remove(uri);
        LOG.info("Namespace {}: the NameNode left safe mode; recording its history again", uri);
      }
    }
    if (inSafeMode) {
      throw new NamespaceInSafeMode();
    }
    Map<String, long[]> rackFill = new TreeMap<>();
    Map<Integer, DataNodeObservation> dataNodes = takeDataNodes ? dataNodes(fs, advisor, rackFill) : null;
    NamespaceScan scan = new NamespaceScanner(fs.getClient(), uri.toString(), store, limiter, canaryDir, advisor).scan();
    int nsId = store.namespaceId(uri.toString());
    if (scan.blockPool != null) {
      int continued = store.claimBlockPool(nsId, uri.toString(), scan.blockPool, scan.finished);
      if (continued != nsId) {
        LOG.info("Namespace {} (block pool {}) records as namespace {}, no longer {}: it was known under another URI "
            + "(its history goes on here), or it was formatted again (its old history is closed and kept)",
            uri, scan.blockPool, continued, nsId);
        states.remove(uri);
        nsId = continued;
      }
    }
    if (takeDataNodes && dataNodeReporter != null && !dataNodeReporter.equals(uri)) {
      // The DataNode states this namespace holds in memory are as old as its last report: read the
      // recorded ones back rather than diff against them.
      states.remove(uri);
    }
    NamespaceState state = states.get(uri);
    if (state == null) {
      state = store.loadState(nsId);
      states.put(uri, state);
      LOG.info("Namespace {}: {} open replica intervals read back from the store", uri, state.openReplicas());
    }
    PollChanges changes = state.diff(nsId, scan.finished, scan.blocks, dataNodes);
    try {
      store.record(changes, new PollSummary(scan.started, scan.finished, scan.files, scan.blocks.size(),
          scan.replicas, scan.rpcs, scan.missing, scan.corrupt, byRacks(scan), rackFill));
    } catch (IOException | RuntimeException e) {
      // A connection lost at the commit leaves unknown whether it committed: the next poll reads the
      // committed state back rather than diff against a guess, so nothing is recorded twice.
      states.remove(uri);
      throw e;
    }
    state.apply(changes);
    if (takeDataNodes) {
      dataNodeReporter = uri;
    }
    status.scanned(scan);
    LOG.debug("Namespace {}: {} blocks, {} replicas in {} ms, {} RPCs, {} changes", uri, scan.blocks.size(),
        scan.replicas, scan.finished - scan.started, scan.rpcs, changes.size());
    return takeDataNodes;
  }

  private static String firstLine(Throwable e) {
    return e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0];
  }

  /** A namespace skipped because its NameNode is in safe mode: the status says so, nothing else failed. */
  static final class NamespaceInSafeMode extends IOException {
    private static final long serialVersionUID = 1L;

    NamespaceInSafeMode() {
      super("the NameNode is in safe mode (replica locations are incomplete until the DataNodes have reported): "
          + "history waits until it leaves");
    }
  }

  /** Blocks on one rack, on two, on three or more. */
  private static long[] byRacks(NamespaceScan scan) {
    long[] out = new long[3];
    scan.blocksByRackCount.forEach((racks, blocks) -> {
      if (racks > 0) {
        out[Math.min(racks, 3) - 1] += blocks;
      }
    });
    return out;
  }

  /**
   * Every DataNode's state; the live ones' count and racks also go to the advisor, and their capacity and
   * use, summed per rack, to {@code rackFill}.
   */
  private Map<Integer, DataNodeObservation> dataNodes(DistributedFileSystem fs, StorageCostAdvisor advisor,
      Map<String, long[]> rackFill) throws IOException, InterruptedException {
    Map<Integer, DataNodeObservation> out = new HashMap<>();
    limiter.acquire();
    DatanodeInfo[] live = fs.getClient().datanodeReport(DatanodeReportType.LIVE);
    Set<String> racks = new HashSet<>();
    for (DatanodeInfo d : live) {
      out.put(id(d), new DataNodeObservation(state(d), d.getCapacity(), d.getDfsUsed()));
      racks.add(d.getNetworkLocation());
      long[] fill = rackFill.computeIfAbsent(d.getNetworkLocation(), r -> new long[2]);
      fill[0] += d.getCapacity();
      fill[1] += d.getDfsUsed();
    }
    advisor.topology(live.length, racks.size());
    limiter.acquire();
    for (DatanodeInfo d : fs.getClient().datanodeReport(DatanodeReportType.DEAD)) {
      out.put(id(d), new DataNodeObservation("dead", d.getCapacity(), d.getDfsUsed()));
    }
    return out;
  }

  private int id(DatanodeInfo d) throws IOException {
    return store.dataNodeId(d.getDatanodeUuid(), d.getHostName(), d.getXferAddr(), d.getNetworkLocation());
  }

  private static String state(DatanodeInfo d) {
    if (d.isDecommissioned()) {
      return "decommissioned";
    }
    if (d.isDecommissionInProgress()) {
      return "decommissioning";
    }
    if (d.isInMaintenance()) {
      return "in-maintenance";
    }
    if (d.isEnteringMaintenance()) {
      return "entering-maintenance";
    }
    return "live";
  }

  private DistributedFileSystem client(URI uri) throws IOException {
    DistributedFileSystem fs = clients.get(uri);
    if (fs == null) {
      fs = NamespaceUris.open(uri, conf);
      clients.put(uri, fs);
    }
    return fs;
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (DistributedFileSystem fs : clients.values()) {
      try {
        fs.close();
      } catch (IOException e) {
        LOG.debug("closing {}", fs.getUri(), e);
      }
    }
  }
}
