package org.bulwark.hdfs.hotstandby.warmup;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.security.UserGroupInformation;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a standby NameNode pay, while nothing waits on it, the one-time cost of the first client call its
 * RPC server takes. Why: Hadoop's RPC server sets up a protocol's per-method metrics on that protocol's
 * first call ({@code RpcDetailedMetrics.init}, which lists the methods of {@code ClientNamenodeProtocolPB}
 * and so loads every request and response class of the client protocol). A standby takes no client call
 * until the active fails; the clients' first calls then reach it just as its controller starts
 * {@code transitionToActive}, and the class loading competes with the transition for the CPU. Sampled on
 * 2026-11-27 (two cores, every daemon on one host): other RPC handlers were loading those classes
 * throughout the new active's transition, which took 130-150 ms longer than under the stock ZKFC, whose
 * fencing step leaves the loading time to finish first.
 *
 * <p>So once per NameNode process, when its controller first sees it healthy and standby, this asks it
 * {@code getHAServiceState} over the client protocol: read-only, answered by a standby, one RPC. A
 * NameNode that stops answering (restarted, say) is primed again when it is next seen standby.
 * {@link ActiveStateWarmup} makes the same call from inside the NameNode, for NameNodes whose failover
 * controller is another (the stock ZKFC).
 */
public final class ClientProtocolPrimer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ClientProtocolPrimer.class);

  private final Configuration conf;
  private final InetSocketAddress clientRpcAddress;
  private final ExecutorService caller;
  /** Touched on the health monitor's thread only. */
  private boolean primed;
  /** Written on the health monitor's thread only. */
  private volatile int callsStarted;

  public ClientProtocolPrimer(Configuration conf, InetSocketAddress clientRpcAddress, String name) {
    this.conf = conf; // callOnce copies it for each call
    this.clientRpcAddress = clientRpcAddress;
    this.caller = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "client-protocol-primer-" + name);
      t.setDaemon(true);
      return t;
    });
  }

  /** Feed of the controller's health checks of its NameNode (called on the health monitor's thread). */
  public void onHealth(HealthReport report) {
    if (report.health() == NameNodeHealth.HEALTHY && report.state() == HAServiceState.STANDBY) {
      if (!primed) {
        primed = true;
        callsStarted++; // one writer
        caller.execute(this::prime);
      }
    } else if (!report.health().answers()) {
      primed = false; // it may come back as a new process
    }
  }

  private void prime() {
    callOnce(conf, clientRpcAddress);
  }

  /**
   * Asks the NameNode at {@code clientRpcAddress} for its HA state over the client protocol, once, without
   * connection retries; logs what came of it (an answer, whatever it says, or a failure: priming is best
   * effort). The call sets up the client protocol on that RPC server however it is answered.
   */
  static void callOnce(Configuration conf, InetSocketAddress clientRpcAddress) {
    Configuration once = new Configuration(conf);
    once.setInt("ipc.client.connect.max.retries", 0);
    long start = System.nanoTime();
    ClientProtocol proxy = null;
    try {
      proxy = NameNodeProxies.createNonHAProxy(once, clientRpcAddress, ClientProtocol.class,
          UserGroupInformation.getCurrentUser(), false).getProxy();
      HAServiceState state = proxy.getHAServiceState();
      LOG.info("Primed the client RPC path of the NameNode at {} ({}) in {} ms", clientRpcAddress, state,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    } catch (IOException | RuntimeException e) {
      LOG.info("Could not prime the client RPC path of the NameNode at {}: {}", clientRpcAddress, e.toString());
    } finally {
      if (proxy != null) {
        RPC.stopProxy(proxy);
      }
    }
  }

  /** How many priming calls were started (tests). */
  int callsStarted() {
    return callsStarted;
  }

  @Override
  public void close() {
    caller.shutdownNow();
  }
}
