package org.bulwark.hdfs.monitor.health;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.bulwark.hdfs.monitor.collect.NamespaceUris;

/**
 * Asks one namespace what the health checks judge: the canary file, the NameNode's missing and corrupt
 * block counts, its DataNode report, and each NameNode's HA state. Each NameNode is asked directly
 * (no failover, no retries, a short RPC timeout), so a dead or hung one is told apart from a standby.
 * Every method blocks; the checker bounds them.
 */
final class NamespaceProbe implements Closeable {
  private static final int CANARY_BYTES = 1024;

  private final URI uri;
  private final Configuration conf;
  private final Path canaryDir;
  private final long staleMillis;
  private final Map<String, InetSocketAddress> nameNodes;
  /** Whether the namespace is an HA nameservice; a lone NameNode is active whenever it answers. */
  private final boolean highlyAvailable;
  private final Map<String, ClientProtocol> proxies = new LinkedHashMap<>();
  private final Random random = new Random();
  private DistributedFileSystem fs;

  NamespaceProbe(Configuration conf, URI uri, String canaryDir, long timeoutMillis) {
    this.uri = uri;
    this.conf = new Configuration(conf);
    int timeout = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    this.conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    this.conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY, 0);
    this.conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY, Math.min(timeout, 5_000));
    this.conf.setInt(CommonConfigurationKeys.IPC_CLIENT_RPC_TIMEOUT_KEY, timeout);
    this.canaryDir = canaryDir == null ? null : new Path(canaryDir);
    this.staleMillis = conf.getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
    this.highlyAvailable = HAUtilClient.isLogicalUri(conf, uri);
    this.nameNodes = nameNodes(conf, uri);
  }

  /** Each NameNode of the namespace by its id (an HA nameservice) or its address. */
  private static Map<String, InetSocketAddress> nameNodes(Configuration conf, URI uri) {
    Map<String, InetSocketAddress> out = new LinkedHashMap<>();
    if (HAUtilClient.isLogicalUri(conf, uri)) {
      Map<String, InetSocketAddress> byId = DFSUtil.getRpcAddressesForNameserviceId(conf, uri.getHost(), null);
      if (byId != null) {
        out.putAll(byId);
      }
    } else {
      out.put(uri.getAuthority(), NetUtils.createSocketAddr(uri.getAuthority(), 8020));
    }
    return out;
  }

  boolean canaryEnabled() {
    return canaryDir != null;
  }

  /** Creates, writes, reads back and deletes a small file; returns how long that took (ms). */
  long canary() throws IOException {
    DistributedFileSystem client = client();
    byte[] written = new byte[CANARY_BYTES];
    random.nextBytes(written);
    Path file = new Path(canaryDir, String.format(Locale.ROOT, "canary-%s-%x", host(), random.nextLong()));
    long start = System.nanoTime();
    String step = "mkdirs " + canaryDir;
    try {
      client.mkdirs(canaryDir);
      step = "create " + file;
      try (FSDataOutputStream out = client.create(file, true)) {
        step = "write " + file;
        out.write(written);
      }
      step = "read " + file;
      byte[] read = new byte[CANARY_BYTES];
      try (FSDataInputStream in = client.open(file)) {
        in.readFully(0, read);
      }
      if (!Arrays.equals(written, read)) {
        throw new IOException("read " + file + ": the bytes read back differ from those written");
      }
      step = "delete " + file;
      if (!client.delete(file, false)) {
        throw new IOException("delete " + file + ": the file was not there");
      }
      return (System.nanoTime() - start) / 1_000_000;
    } catch (IOException e) {
      removeQuietly(client, file);
      if (e.getMessage() != null && e.getMessage().startsWith(step)) {
        throw e;
      }
      throw new IOException(step + ": " + firstLine(e), e);
    }
  }

  /** A failed canary leaves no file behind where it can help it (a failed write, a short read). */
  private static void removeQuietly(DistributedFileSystem client, Path file) {
    try {
      client.delete(file, false);
    } catch (IOException | RuntimeException e) {
      // The namespace may be what failed; the next canary writes another name.
    }
  }

  /** Missing and corrupt blocks as the NameNode counts them right now: one {@code getStats} call for both. */
  long[] blockCounts() throws IOException {
    long[] stats = client().getClient().getNamenode().getStats();
    return new long[] {stats[ClientProtocol.GET_STATS_MISSING_BLOCKS_IDX], stats[ClientProtocol.GET_STATS_CORRUPT_BLOCKS_IDX]};
  }

  /** Live, dead and stale DataNodes, stale meaning no heartbeat for {@code dfs.namenode.stale.datanode.interval}. */
  int[] dataNodes() throws IOException {
    DistributedFileSystem client = client();
    DatanodeInfo[] live = client.getDataNodeStats(DatanodeReportType.LIVE);
    DatanodeInfo[] dead = client.getDataNodeStats(DatanodeReportType.DEAD);
    long now = System.currentTimeMillis();
    int stale = 0;
    for (DatanodeInfo d : live) {
      // The NameNode's wall clock against ours: skew between the two hosts shifts this by as much.
      if (now - d.getLastUpdate() > staleMillis) {
        stale++;
      }
    }
    return new int[] {live.length, dead.length, stale};
  }

  /** Each NameNode's HA state in lower case ("active", "standby", "observer"), or why it did not say. */
  Map<String, String> nameNodeStates() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, InetSocketAddress> nn : nameNodes.entrySet()) {
      try {
        ClientProtocol p = proxy(nn.getKey(), nn.getValue());
        if (highlyAvailable) {
          out.put(nn.getKey(), p.getHAServiceState().name().toLowerCase(Locale.ROOT));
        } else {
          // Without HA the NameNode refuses getHAServiceState; any answer means it is up and so active.
          p.getStats();
          out.put(nn.getKey(), "active");
        }
      } catch (IOException | RuntimeException e) {
        out.put(nn.getKey(), "unreachable (" + firstLine(e) + ")");
      }
    }
    return out;
  }

  private synchronized ClientProtocol proxy(String id, InetSocketAddress address) throws IOException {
    ClientProtocol p = proxies.get(id);
    if (p == null) {
      p = NameNodeProxies.createNonHAProxy(conf, address, ClientProtocol.class, UserGroupInformation.getCurrentUser(), false)
          .getProxy();
      proxies.put(id, p);
    }
    return p;
  }

  private synchronized DistributedFileSystem client() throws IOException {
    if (fs == null) {
      fs = NamespaceUris.open(uri, conf);
    }
    return fs;
  }

  private static String host() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "monitor";
    }
  }

  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  @Override
  public synchronized void close() throws IOException {
    for (ClientProtocol p : proxies.values()) {
      RPC.stopProxy(p);
    }
    proxies.clear();
    if (fs != null) {
      fs.close();
      fs = null;
    }
  }
}
