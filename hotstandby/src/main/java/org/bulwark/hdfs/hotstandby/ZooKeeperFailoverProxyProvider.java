package org.bulwark.hdfs.hotstandby;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.ha.AbstractNNFailoverProxyProvider;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.bulwark.hdfs.hotstandby.client.ActiveNameNodeTrackerHandle;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client failover proxy provider that asks ZooKeeper which NameNode is active, instead of walking
 * the configured list with back-off sleeps. Set {@code dfs.client.failover.proxy.provider.<ns>} to this
 * class. The active-NameNode record published by {@link HotStandbyController} is read once and kept
 * current by a watch (one ZooKeeper session per nameservice and JVM); when a call fails, the provider
 * waits up to {@code bulwark.hotstandby.client.failover-wait} for the record to name another active
 * NameNode and goes straight to it.
 *
 * <p>Without ZooKeeper (not configured, unreachable, or no record) it behaves exactly as Hadoop's
 * {@code ConfiguredFailoverProxyProvider}: the configured NameNodes in turn, so it is never worse.
 */
public class ZooKeeperFailoverProxyProvider<T> extends AbstractNNFailoverProxyProvider<T> {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperFailoverProxyProvider.class);

  private final List<NNProxyInfo<T>> proxies;
  private final String nameservice;
  private final ActiveNameNodeTrackerHandle tracker;
  private final long failoverWaitMillis;
  private int currentIndex;
  /**
   * What {@link #getProxy} last chose and for which record: every call while ZooKeeper names no other
   * NameNode (the tracker hands out the same record object) returns it with a volatile read, no lock and
   * no address parsed. A new record or a failover replaces it.
   */
  private volatile Choice<T> choice;

  private static final class Choice<T> {
    final ActiveRecord record;
    final ProxyInfo<T> proxy;

    Choice(ActiveRecord record, ProxyInfo<T> proxy) {
      this.record = record;
      this.proxy = proxy;
    }
  }

  public ZooKeeperFailoverProxyProvider(Configuration conf, URI uri, Class<T> xface, HAProxyFactory<T> factory) {
    this(conf, uri, xface, factory, HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY);
  }

  public ZooKeeperFailoverProxyProvider(Configuration conf, URI uri, Class<T> xface, HAProxyFactory<T> factory,
      String addressKey) {
    super(conf, uri, xface, factory);
    this.proxies = getProxyAddresses(uri, addressKey);
    this.nameservice = uri.getHost();
    this.failoverWaitMillis = HotStandbyKeys.CLIENT_FAILOVER_WAIT.get(conf);
    this.tracker = ActiveNameNodeTrackerHandle.open(conf, nameservice);
  }

  @Override
  public ProxyInfo<T> getProxy() {
    ActiveRecord r = tracker.usableRecord();
    Choice<T> c = choice;
    if (c != null && c.record == r) {
      return c.proxy;
    }
    synchronized (this) {
      if (r != null && r.isActive()) {
        int i = indexOf(r);
        if (i >= 0) {
          currentIndex = i;
        }
      }
      ProxyInfo<T> proxy = createProxyIfNeeded(proxies.get(currentIndex));
      choice = new Choice<>(r, proxy);
      return proxy;
    }
  }

  @Override
  public void performFailover(T failedProxy) {
    int failed;
    synchronized (this) {
      failed = currentIndex;
      for (int i = 0; i < proxies.size(); i++) {
        if (proxies.get(i).proxy == failedProxy) {
          failed = i;
        }
      }
    }
    InetSocketAddress failedAddress = proxies.get(failed).getAddress();
    ActiveRecord next;
    try {
      next = tracker.awaitActiveOtherThan(failedAddress, failoverWaitMillis);
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
      next = null;
    }
    synchronized (this) {
      int i = next == null ? -1 : indexOf(next);
      if (i >= 0) {
        LOG.debug("{}: failing over to {} as ZooKeeper names it active", nameservice, next);
        currentIndex = i;
      } else {
        currentIndex = (failed + 1) % proxies.size();
      }
      choice = null;
    }
  }

  /** Whether this provider knows from ZooKeeper which NameNode is active (tests wait for it). */
  boolean tracksActiveNameNode() {
    ActiveRecord r = tracker.usableRecord();
    return r != null && r.isActive();
  }

  private int indexOf(ActiveRecord r) {
    InetSocketAddress published = NetUtils.createSocketAddr(r.rpcAddress());
    for (int i = 0; i < proxies.size(); i++) {
      if (ActiveNameNodeTrackerHandle.sameAddress(proxies.get(i).getAddress(), published)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public synchronized void close() throws IOException {
    for (NNProxyInfo<T> p : proxies) {
      if (p.proxy != null) {
        if (p.proxy instanceof Closeable) {
          ((Closeable) p.proxy).close();
        } else {
          RPC.stopProxy(p.proxy);
        }
      }
    }
    tracker.close();
  }

  @Override
  public boolean useLogicalURI() {
    return true;
  }
}
