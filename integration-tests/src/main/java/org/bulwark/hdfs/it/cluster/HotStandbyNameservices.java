package org.bulwark.hdfs.it.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ExitUtil;
import org.bulwark.hdfs.hotstandby.HotStandbyController;
import org.bulwark.hdfs.hotstandby.ZooKeeperFailoverProxyProvider;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.FreePorts;

/**
 * Every NameNode of every HA nameservice of an embedded cluster under its own {@code hdfs hotstandby}
 * controller, and clients on {@link ZooKeeperFailoverProxyProvider}: how an administrator runs the
 * hot standby, one controller beside each NameNode. Controllers can be stopped and started again one
 * by one, as their hosts would be.
 */
public final class HotStandbyNameservices implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final BulwarkMiniCluster cluster;
  /** Indexed by MiniDFSCluster NameNode index; null while stopped. */
  private final HotStandbyController[] controllers;

  private HotStandbyNameservices(BulwarkMiniCluster cluster) {
    this.cluster = cluster;
    this.controllers = new HotStandbyController[cluster.nameservices().size() * cluster.nameNodesPerNameservice()];
  }

  /**
   * Makes every nameservice of {@code builder} HA with {@code nameNodes} NameNodes left standby for the
   * controllers to elect one: automatic failover, ZooKeeper client failover, fixed controller ports,
   * 200 ms health checks and 2 s ZooKeeper sessions, fencing left to the controllers' graceful step.
   */
  public static void configure(BulwarkMiniCluster.Builder builder, int nameservices, int nameNodes) throws IOException {
    int[] zkfcPorts = FreePorts.pick(nameservices * nameNodes);
    builder.nameservices(nameservices).nameNodesPerNameservice(nameNodes).activateFirstNameNodes(false).configure(conf -> {
      conf.setBoolean("dfs.ha.automatic-failover.enabled", true);
      conf.set("dfs.ha.fencing.methods", "shell(true)");
      conf.set("bulwark.hotstandby.health.check-interval", "200ms");
      conf.set("bulwark.hotstandby.health.rpc-timeout", "1s");
      conf.set("bulwark.hotstandby.zookeeper.session-timeout", "2s");
      for (int s = 1; s <= nameservices; s++) {
        conf.set("dfs.client.failover.proxy.provider.ns" + s, ZooKeeperFailoverProxyProvider.class.getName());
        for (int n = 1; n <= nameNodes; n++) {
          conf.setInt("dfs.ha.zkfc.port.ns" + s + ".nn" + n, zkfcPorts[(s - 1) * nameNodes + n - 1]);
        }
      }
    });
  }

  /**
   * Starts one controller per NameNode and waits until every nameservice has elected an active one. A controller that
   * meets an Error halts its JVM through Hadoop's ExitUtil: here that throws instead (MiniDFSCluster disables
   * System.exit only), so the test fails at {@link #close} rather than the whole surefire fork ending.
   */
  public static HotStandbyNameservices start(BulwarkMiniCluster cluster) throws IOException, InterruptedException {
    ExitUtil.disableSystemHalt();
    ExitUtil.resetFirstHaltException();
    HotStandbyNameservices ha = new HotStandbyNameservices(cluster);
    try {
      for (int ns = 0; ns < cluster.nameservices().size(); ns++) {
        for (int nn = 0; nn < cluster.nameNodesPerNameservice(); nn++) {
          ha.startController(ns, nn);
        }
      }
      for (int ns = 0; ns < cluster.nameservices().size(); ns++) {
        ha.awaitActive(ns, -1);
      }
      // A NameNode that becomes active waits for full block reports before it trusts its replica map.
      cluster.mini().triggerBlockReports();
      return ha;
    } catch (IOException | InterruptedException | RuntimeException e) {
      ha.close();
      throw e;
    } catch (TimeoutException e) {
      ha.close();
      throw new IOException("no NameNode became active", e);
    }
  }

  /** Starts the controller beside NameNode {@code nn} of nameservice {@code ns} (both 0-based). */
  public synchronized void startController(int ns, int nn) throws IOException {
    int i = cluster.nameNodeIndex(ns, nn);
    if (controllers[i] != null) {
      throw new IllegalStateException("the controller of " + name(ns, nn) + " is running");
    }
    Configuration conf = cluster.conf();
    conf.set("dfs.nameservice.id", cluster.nameservices().get(ns));
    conf.set("dfs.ha.namenode.id", "nn" + (nn + 1));
    HotStandbyController c = new HotStandbyController(conf);
    c.start();
    controllers[i] = c;
  }

  /** Stops the controller beside NameNode {@code nn} of nameservice {@code ns}, as its host going down would. */
  public synchronized void stopController(int ns, int nn) {
    int i = cluster.nameNodeIndex(ns, nn);
    if (controllers[i] != null) {
      controllers[i].close();
      controllers[i] = null;
    }
  }

  /** The running controller beside NameNode {@code nn} of nameservice {@code ns}, or null. */
  public synchronized HotStandbyController controller(int ns, int nn) {
    return controllers[cluster.nameNodeIndex(ns, nn)];
  }

  /**
   * Waits until a NameNode of nameservice {@code ns} other than {@code notNn} (-1: any) is active and
   * its controller says so; returns its number within the nameservice (0-based).
   */
  public int awaitActive(int ns, int notNn) throws TimeoutException, InterruptedException {
    int[] found = {-1};
    String what = "a NameNode of " + cluster.nameservices().get(ns) + (notNn < 0 ? "" : " other than nn" + (notNn + 1))
        + " is active";
    try {
      Await.until(what, WAIT, () -> {
        found[0] = active(ns);
        return found[0] >= 0 && found[0] != notNn;
      });
    } catch (TimeoutException e) {
      TimeoutException t = new TimeoutException(e.getMessage() + ": " + describe(ns));
      t.initCause(e.getCause());
      throw t;
    }
    return found[0];
  }

  /** Each NameNode of {@code ns}: up, active, and what its controller says; for a failure's message. */
  private String describe(int ns) {
    StringBuilder b = new StringBuilder();
    for (int nn = 0; nn < cluster.nameNodesPerNameservice(); nn++) {
      int i = cluster.nameNodeIndex(ns, nn);
      NameNode node = cluster.mini().getNameNode(i);
      HotStandbyController c = controller(ns, nn);
      b.append(nn == 0 ? "" : "; ").append("nn").append(nn + 1).append(node == null ? " stopped"
          : (cluster.mini().isNameNodeUp(i) ? " up" : " not up (safe mode or no capacity)")
            + (node.isActiveState() ? " active" : " not active"))
          .append(", controller ").append(c == null ? "stopped" : c.state());
    }
    return b.toString();
  }

  /** The NameNode of nameservice {@code ns} (0-based within it) that is active under its controller, or -1. */
  public int active(int ns) {
    for (int nn = 0; nn < cluster.nameNodesPerNameservice(); nn++) {
      int i = cluster.nameNodeIndex(ns, nn);
      HotStandbyController c = controller(ns, nn);
      // Not MiniDFSCluster.isNameNodeUp: that also wants the NameNode out of safe mode with capacity reported.
      NameNode node = cluster.mini().getNameNode(i);
      if (c != null && node != null && node.isActiveState() && c.isActive()) {
        return nn;
      }
    }
    return -1;
  }

  /** The active NameNode of nameservice {@code ns}, waiting for one if a failover is under way. */
  public NameNode activeNameNode(int ns) throws TimeoutException, InterruptedException {
    return cluster.nameNode(ns, awaitActive(ns, -1));
  }

  private String name(int ns, int nn) {
    return cluster.nameservices().get(ns) + ".nn" + (nn + 1);
  }

  /**
   * Stops every controller, those of standby NameNodes first: stopping an active one first would only fail over. Fails if
   * a controller would have halted the JVM.
   */
  @Override
  public synchronized void close() {
    List<RuntimeException> errors = new ArrayList<>();
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < controllers.length; i++) {
      order.add(controllers[i] != null && controllers[i].isActive() ? order.size() : 0, i);
    }
    for (int i : order) {
      if (controllers[i] != null) {
        try {
          controllers[i].close();
        } catch (RuntimeException e) {
          errors.add(e);
        }
        controllers[i] = null;
      }
    }
    if (ExitUtil.haltCalled()) {
      throw new AssertionError("a controller halted its JVM", ExitUtil.getFirstHaltException());
    }
    if (!errors.isEmpty()) {
      throw errors.get(0);
    }
  }
}
