package org.bulwark.hdfs.hotstandby.reports;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.client.BlockReportOptions;
import org.apache.hadoop.hdfs.protocol.ClientDatanodeProtocol;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks every live DataNode for a full block report to the NameNode that just became active
 * ({@code bulwark.hotstandby.trigger-block-reports}). A NameNode that becomes active treats every
 * storage's replica list as stale until that storage's next full report: until then it postpones deleting
 * excess replicas (its {@code PostponedMisreplicatedBlocks}) and its {@code getBlocks} skips those
 * DataNodes, so a balancer finds nothing to move or piles up copies whose sources are never removed;
 * by default the next report comes within {@code dfs.blockreport.intervalMsec}, six hours. This is what
 * an administrator would otherwise do by hand with {@code hdfs dfsadmin -triggerBlockReport} on every
 * DataNode. Each DataNode is asked once it has sent the new active a heartbeat (the NameNode ignores, for
 * this purpose, a report from a DataNode that has not); at most {@code per-second} DataNodes are asked each
 * second, so a large cluster's reports do not reach the NameNode all at once; a new activation, or this
 * NameNode stepping down, stops a round.
 */
public final class BlockReportTrigger implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(BlockReportTrigger.class);

  private final Configuration conf;
  private final InetSocketAddress clientRpc;
  private final InetSocketAddress dataNodesView;
  private final long pauseNanos;
  private final ExecutorService executor;
  private final AtomicLong requested = new AtomicLong();
  private Future<?> round;

  /**
   * @param clientRpc the NameNode's client RPC address (to list the live DataNodes)
   * @param dataNodesView the address DataNodes know the NameNode by (service RPC if configured, else client
   *     RPC), which names it in the report request
   */
  public BlockReportTrigger(Configuration conf, InetSocketAddress clientRpc, InetSocketAddress dataNodesView,
      double perSecond, String name) {
    this.conf = conf;
    this.clientRpc = clientRpc;
    this.dataNodesView = dataNodesView;
    this.pauseNanos = (long) (TimeUnit.SECONDS.toNanos(1) / Math.max(0.001, perSecond));
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "block-report-trigger-" + name);
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts a round for the NameNode that just became active, ending any round still under way. */
  public synchronized void activated() {
    stopped();
    round = executor.submit(this::askEveryLiveDataNode);
  }

  /** The NameNode is no longer active: an unfinished round stops. */
  public synchronized void stopped() {
    if (round != null) {
      round.cancel(true);
      round = null;
    }
  }

  /** DataNodes asked for a report since start. */
  public long requested() {
    return requested.get();
  }

  /**
   * A NameNode trusts a block report only from a DataNode that has sent it a heartbeat since it became
   * active (a report begun before the DataNode learned of the failover may be stale), so each DataNode is
   * asked once the NameNode has heard a heartbeat from it after the first listing, which comes after the
   * activation; the NameNode's own heartbeat times are compared, so clocks need not agree.
   */
  private void askEveryLiveDataNode() {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(Math.max(30_000, 10 * heartbeatMillis()));
    BlockReportOptions full = new BlockReportOptions.Factory().setIncremental(false).setNamenodeAddr(dataNodesView).build();
    Map<String, Long> lastHeartbeat = new HashMap<>();
    Set<String> asked = new HashSet<>();
    int failed = 0;
    String firstFailure = null;
    long next = System.nanoTime();
    try {
      for (DatanodeInfo dn : liveDataNodes()) {
        lastHeartbeat.put(dn.getDatanodeUuid(), dn.getLastUpdate());
      }
      int live = lastHeartbeat.size();
      while (asked.size() < live && System.nanoTime() < deadline) {  // asked counts the failed ones too
        TimeUnit.MILLISECONDS.sleep(Math.max(100, heartbeatMillis() / 4));
        DatanodeInfo[] now = liveDataNodes();
        live = now.length;
        for (DatanodeInfo dn : now) {
          Long before = lastHeartbeat.putIfAbsent(dn.getDatanodeUuid(), dn.getLastUpdate());
          if (asked.contains(dn.getDatanodeUuid()) || before == null || dn.getLastUpdate() <= before) {
            continue;
          }
          long wait = next - System.nanoTime();
          if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
          }
          next = Math.max(next, System.nanoTime()) + pauseNanos;
          try {
            ask(dn, full);
            asked.add(dn.getDatanodeUuid());
            requested.incrementAndGet();
          } catch (IOException e) {
            failed++;
            asked.add(dn.getDatanodeUuid());
            if (firstFailure == null) {
              firstFailure = dn.getXferAddr() + ": " + firstLine(e);
            }
          }
        }
      }
      LOG.info("Asked {} of {} live DataNodes for a full block report to {} in {} ms{}", asked.size() - failed, live,
          dataNodesView, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
          failed == 0 ? "" : " (" + failed + " could not be asked, first " + firstFailure + ")");
    } catch (InterruptedException e) {
      LOG.info("Block report round for {} stopped after {} DataNodes", dataNodesView, asked.size());
    } catch (IOException e) {
      LOG.warn("Cannot list the live DataNodes of {} to ask for block reports: {}", clientRpc, firstLine(e));
    }
  }

  private DatanodeInfo[] liveDataNodes() throws IOException {
    ClientProtocol nameNode = NameNodeProxies.createNonHAProxy(conf, clientRpc, ClientProtocol.class,
        UserGroupInformation.getCurrentUser(), false).getProxy();
    try {
      return nameNode.getDatanodeReport(DatanodeReportType.LIVE);
    } finally {
      RPC.stopProxy(nameNode);
    }
  }

  private void ask(DatanodeInfo dn, BlockReportOptions options) throws IOException {
    ClientDatanodeProtocol proxy = DFSUtilClient.createClientDatanodeProtocolProxy(
        NetUtils.createSocketAddr(dn.getIpcAddr(false)), UserGroupInformation.getCurrentUser(), conf,
        NetUtils.getDefaultSocketFactory(conf));
    try {
      proxy.triggerBlockReport(options);
    } finally {
      RPC.stopProxy(proxy);
    }
  }

  private long heartbeatMillis() {
    return conf.getTimeDuration(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
        TimeUnit.SECONDS, TimeUnit.MILLISECONDS);
  }

  private static String firstLine(Throwable t) {
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m.split("\n")[0];
  }

  @Override
  public void close() {
    stopped();
    executor.shutdownNow();
  }
}
