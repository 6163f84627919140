package org.bulwark.hdfs.hotstandby;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.ha.AbstractNNFailoverProxyProvider;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.bulwark.hdfs.hotstandby.client.ActiveNameNodeTrackerHandle;
import org.bulwark.hdfs.hotstandby.client.ActiveNameNodeTrackerHandle.RelayedRecordWait;
import org.bulwark.hdfs.hotstandby.client.CompleteReasking;
import org.bulwark.hdfs.hotstandby.client.HaStateProbes;
import org.bulwark.hdfs.hotstandby.client.ProbePacing;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client failover proxy provider that learns from ZooKeeper which NameNode became active, instead of
 * walking the configured list with back-off sleeps. Set {@code dfs.client.failover.proxy.provider.<ns>} to
 * this class. When a call fails, the provider first asks the other NameNodes for their HA state (one cheap
 * RPC each, in parallel and never waited on long: a standby answered, or the failover is already over); if
 * none is active yet, it waits up to
 * {@code bulwark.hotstandby.client.failover-wait} for the record {@link HotStandbyController} publishes to
 * name another active NameNode (or the one that failed, made active since), through a ZooKeeper session opened for the wait and closed once idle
 * (one per nameservice and JVM; a JVM of a host whose other JVMs hold the sessions allowed
 * ({@code bulwark.hotstandby.client.zookeeper.sessions-per-host}) reads the record as they relay it in a
 * host-local file), and goes straight to it. During that wait it asks the NameNodes again, after
 * {@code bulwark.hotstandby.client.probe-interval} and then ever less often ({@link ProbePacing}, up to
 * {@code bulwark.hotstandby.client.probe-max-interval}): that is how a client whose session ZooKeeper refused
 * (past {@code maxClientCnxns}) or cannot reach finds the new active NameNode, and a NameNode answers as soon
 * as its transition is over; from the second question on, the NameNode whose call failed is asked too.
 *
 * <p>For 10 s after a failover, a {@code complete} (closing a file) that the new active NameNode answers "not
 * yet" is asked again for up to {@code bulwark.hotstandby.client.complete-reask} ({@link CompleteReasking})
 * rather than left to the stock client's 400 ms sleep.
 *
 * <p>When the wait ends with no NameNode found active it behaves as Hadoop's
 * {@code ConfiguredFailoverProxyProvider}: the configured NameNodes in turn, so it is never worse.
 */
public class ZooKeeperFailoverProxyProvider<T> extends AbstractNNFailoverProxyProvider<T> {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperFailoverProxyProvider.class);
  private static final long COMPLETE_REASK_STEP_MILLIS = 20;
  private static final long COMPLETE_REASK_WINDOW_MILLIS = 10_000;

  private final List<NNProxyInfo<T>> proxies;
  private final String nameservice;
  private final ActiveNameNodeTrackerHandle tracker;
  private final long failoverWaitMillis;
  private final long probeIntervalMillis;
  private final long probeMaxIntervalMillis;
  private final long completeReaskMillis;
  /** What {@link #getProxy} hands out for each NameNode: its proxy, behind {@link CompleteReasking}. */
  private final List<ProxyInfo<T>> handedOut;
  private volatile long lastFailoverNanos = CompleteReasking.NEVER;
  private int currentIndex;
  /**
   * What {@link #getProxy} last chose and for which record: every call while ZooKeeper names no other
   * NameNode (the tracker hands out the same record object) returns it with a volatile read, no lock and
   * no address parsed. A new record or a failover replaces it.
   */
  private volatile Choice<T> choice;
  /**
   * A record {@link #performFailover} found out of date (the NameNodes named another active before the new
   * leader published): {@link #getProxy} must not send calls back to the NameNode it names. Records are
   * replaced, never changed, so the next one published is another object and is followed again.
   */
  private ActiveRecord outdated;
  /** The NameNodes' answers while failing over; null where they cannot be asked (not {@code ClientProtocol}). */
  private final HaStateProbes probes;
  private volatile boolean warnedUnconfigured;

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
    this.probeIntervalMillis = HotStandbyKeys.CLIENT_PROBE_INTERVAL.get(conf);
    this.probeMaxIntervalMillis = HotStandbyKeys.CLIENT_PROBE_MAX_INTERVAL.get(conf);
    this.completeReaskMillis = HotStandbyKeys.CLIENT_COMPLETE_REASK.get(conf);
    this.handedOut = new ArrayList<>(Collections.nCopies(proxies.size(), null));
    this.tracker = ActiveNameNodeTrackerHandle.open(conf, nameservice);
    this.probes = ClientProtocol.class.isAssignableFrom(xface)
        ? new HaStateProbes(proxies.size(), this::nameNode, i -> String.valueOf(proxies.get(i).getAddress())) : null;
  }

  @Override
  public ProxyInfo<T> getProxy() {
    ActiveRecord r = tracker.usableRecord();
    Choice<T> c = choice;
    if (c != null && c.record == r) {
      return c.proxy;
    }
    synchronized (this) {
      if (r != null && r.isActive() && r != outdated) {
        int i = indexOf(r);
        if (i >= 0 && i != currentIndex) {
          if (c != null) {
            lastFailoverNanos = System.nanoTime(); // ZooKeeper moved this client before any call failed
          }
          currentIndex = i;
        }
      }
      ProxyInfo<T> proxy = handOut(currentIndex);
      choice = new Choice<>(r, proxy);
      return proxy;
    }
  }

  /** NameNode {@code i}'s proxy as calls see it; created once. Callers hold the lock. */
  private ProxyInfo<T> handOut(int i) {
    ProxyInfo<T> given = handedOut.get(i);
    if (given == null) {
      NNProxyInfo<T> created = createProxyIfNeeded(proxies.get(i));
      T proxy = completeReaskMillis > 0 && ClientProtocol.class.isAssignableFrom(xface)
          ? CompleteReasking.wrap(created.proxy, completeReaskMillis, COMPLETE_REASK_STEP_MILLIS,
              COMPLETE_REASK_WINDOW_MILLIS, () -> lastFailoverNanos)
          : created.proxy;
      given = new ProxyInfo<>(proxy, created.proxyInfo);
      handedOut.set(i, given);
    }
    return given;
  }

  @Override
  public void performFailover(T failedProxy) {
    int failed;
    synchronized (this) {
      failed = currentIndex;
      for (int i = 0; i < proxies.size(); i++) {
        ProxyInfo<T> given = handedOut.get(i);
        if (proxies.get(i).proxy == failedProxy || given != null && given.proxy == failedProxy) {
          failed = i;
        }
      }
    }
    long waitStartMillis = System.currentTimeMillis();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(failoverWaitMillis);
    Predicate<ActiveRecord> wanted = wantedAfter(failed, tracker.usableRecord());
    int active = -1;
    if (probes != null) {
      probes.newWait();
    }
    ProbePacing pacing = new ProbePacing(probeIntervalMillis, probeMaxIntervalMillis, ThreadLocalRandom.current());
    try (RelayedRecordWait relayed = tracker.startRelayedWait(wanted, waitStartMillis)) {
      // Until the wait is over, in slices of the probes' pauses: the NameNodes' own answer, which serves where
      // ZooKeeper cannot (refused, unreachable, not configured) and at once when a standby was asked or the
      // failover is over; then ZooKeeper's record; then what the host's JVMs with a session relay.
      for (int round = 0; System.nanoTime() - deadline < 0; round++) {
        long pause = TimeUnit.MILLISECONDS.toNanos(pacing.nextPauseMillis());
        long sliceEnd = Math.min(deadline, System.nanoTime() + pause);
        // From the second round the NameNode that failed is asked too: it may be the one taking over (the call
        // went to a standby being made active), or an active whose call failed on the way (a timeout).
        int first = round == 0 ? failed : -1;
        active = askNameNodes(i -> i != first, Math.min(probeIntervalMillis, millisUntil(sliceEnd)));
        if (active >= 0) {
          break;
        }
        ActiveRecord next = tracker.awaitActive(wanted, millisUntil(sliceEnd));
        if (next != null && (active = indexOf(next)) >= 0) {
          LOG.debug("{}: failing over to {} as ZooKeeper names it active", nameservice, next);
          break;
        }
        // ZooKeeper answered before the slice ended (no session here): until it ends, what the host's JVMs
        // with a session relay.
        next = relayed.await(millisUntil(sliceEnd));
        if (next != null && (active = indexOf(next)) >= 0) {
          LOG.debug("{}: failing over to {} as this host's ZooKeeper sessions relay it active", nameservice, next);
          break;
        }
      }
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      currentIndex = active >= 0 ? active : (failed + 1) % proxies.size();
      ActiveRecord seen = tracker.usableRecord();
      outdated = seen != null && indexOf(seen) != currentIndex ? seen : null;
      choice = null;
      lastFailoverNanos = System.nanoTime();
    }
  }

  /**
   * Which records end a wait after NameNode {@code failed}'s call failed, {@code known} being the record then (null
   * without a session): one naming a configured NameNode, and naming the failed one only at a later epoch than
   * {@code known}'s: that NameNode may have been made active since. (Not by the record's time: that is the
   * controller host's clock. Without a record to compare with, the NameNodes' own answers find it.)
   */
  private Predicate<ActiveRecord> wantedAfter(int failed, ActiveRecord known) {
    return r -> {
      int i = indexOf(r);
      if (i < 0) {
        warnUnconfigured(r);
        return false;
      }
      return i != failed || known != null && r.epoch() > known.epoch();
    };
  }

  /** Once per provider: a record naming no configured NameNode is followed by no client of this configuration. */
  private void warnUnconfigured(ActiveRecord r) {
    if (!warnedUnconfigured) {
      warnedUnconfigured = true;
      LOG.warn("{}: ZooKeeper names {} (at {}) active, which is none of this client's NameNodes ({}); the client "
          + "finds the active NameNode by asking its own list", nameservice, r.nameNodeId(), r.rpcAddress(),
          proxyAddresses());
    }
  }

  private String proxyAddresses() {
    List<String> addresses = new ArrayList<>();
    for (NNProxyInfo<T> p : proxies) {
      addresses.add(String.valueOf(p.getAddress()));
    }
    return String.join(", ", addresses);
  }

  private static long millisUntil(long nanoTime) {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(nanoTime - System.nanoTime()));
  }

  /**
   * The index of a NameNode {@code include} accepts that says it is active within {@code waitMillis}, or -1
   * ({@link HaStateProbes}). A NameNode that cannot be reached counts as not active; the proxies do not retry
   * connecting ({@code dfs.client.failover.connection.retries}), so a dead one costs little.
   */
  private int askNameNodes(IntPredicate include, long waitMillis) throws InterruptedIOException {
    if (probes == null) {
      return -1;
    }
    try {
      return probes.findActive(include, waitMillis);
    } catch (InterruptedException e) {
      throw new InterruptedIOException("interrupted while asking the NameNodes for their HA state");
    }
  }

  /** NameNode {@code i}'s proxy for {@link HaStateProbes}: {@code ClientProtocol} there. */
  private ClientProtocol nameNode(int i) {
    synchronized (this) {
      return (ClientProtocol) createProxyIfNeeded(proxies.get(i)).proxy;
    }
  }

  private int indexOf(ActiveRecord r) {
    InetSocketAddress published;
    try {
      published = NetUtils.createSocketAddr(r.rpcAddress());
    } catch (IllegalArgumentException e) {
      return -1;
    }
    for (int i = 0; i < proxies.size(); i++) {
      if (ActiveNameNodeTrackerHandle.sameAddress(proxies.get(i).getAddress(), published)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public void close() throws IOException {
    // Outside this provider's lock: a question being asked takes it to make its proxy.
    if (probes != null) {
      probes.close();
    }
    synchronized (this) {
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
  }

  @Override
  public boolean useLogicalURI() {
    return true;
  }
}
