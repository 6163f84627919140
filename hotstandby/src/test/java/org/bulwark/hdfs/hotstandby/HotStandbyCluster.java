package org.bulwark.hdfs.hotstandby;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ExitUtil;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.FreePorts;
import org.bulwark.hdfs.testkit.SplitBrainChecker;

/**
 * One HA nameservice (ns1) of 2 or more NameNodes under {@link HotStandbyController}s, on an embedded
 * cluster with an in-process ZooKeeper and a split-brain checker running from the first moment. Every
 * NameNode starts standby; the controllers elect the active one.
 */
final class HotStandbyCluster implements AutoCloseable {
  final BulwarkMiniCluster cluster;
  final SplitBrainChecker splitBrain;
  private final HotStandbyController[] controllers;
  private final Consumer<Configuration> controllerSettings;

  private HotStandbyCluster(BulwarkMiniCluster cluster, int nameNodes, Consumer<Configuration> controllerSettings) {
    this.cluster = cluster;
    this.controllers = new HotStandbyController[nameNodes];
    this.controllerSettings = controllerSettings;
    int[] indexes = new int[nameNodes];
    for (int i = 0; i < nameNodes; i++) {
      indexes[i] = i;
    }
    this.splitBrain = SplitBrainChecker.start(cluster.mini(), indexes);
  }

  /** Settings every test cluster shares: the 200 ms health checks and 2 s sessions, shell(true) fencing. */
  static void fastFailover(Configuration conf) {
    conf.set("bulwark.hotstandby.health.check-interval", "200ms");
    conf.set("bulwark.hotstandby.zookeeper.session-timeout", "2s");
    conf.set("bulwark.hotstandby.health.rpc-timeout", "1s");
    conf.set("bulwark.hotstandby.election.lower-priority-delay", "300ms");
  }

  /** Cluster settings giving NameNode nn(i+1) of ns1 a lifeline RPC server on 127.0.0.1:{@code ports[i]}. */
  static Consumer<Configuration> lifelines(int[] ports) {
    return c -> {
      for (int i = 0; i < ports.length; i++) {
        c.set("dfs.namenode.lifeline.rpc-address.ns1.nn" + (i + 1), "127.0.0.1:" + ports[i]);
      }
    };
  }

  static HotStandbyCluster start(int nameNodes) throws IOException {
    return start(nameNodes, c -> { }, c -> { });
  }

  /**
   * @param clusterSettings applied to the cluster's (and so every client's) configuration before it starts
   * @param controllerSettings applied to each controller's configuration only
   */
  static HotStandbyCluster start(int nameNodes, Consumer<Configuration> clusterSettings,
      Consumer<Configuration> controllerSettings) throws IOException {
    haltsThrow();
    int[] zkfcPorts = FreePorts.pick(nameNodes);
    BulwarkMiniCluster cluster = BulwarkMiniCluster.builder()
        .topology("/r1:2,/r2:1")
        .nameNodesPerNameservice(nameNodes)
        .activateFirstNameNodes(false)
        .configure(conf -> {
          conf.setBoolean("dfs.ha.automatic-failover.enabled", true);
          conf.set("dfs.ha.fencing.methods", "shell(true)");
          for (int i = 0; i < nameNodes; i++) {
            conf.setInt("dfs.ha.zkfc.port.ns1.nn" + (i + 1), zkfcPorts[i]);
          }
          fastFailover(conf);
          clusterSettings.accept(conf);
        })
        .build();
    return new HotStandbyCluster(cluster, nameNodes, controllerSettings);
  }

  /** The configuration of the controller beside NameNode {@code nn} (0-based). */
  Configuration controllerConf(int nn) {
    Configuration conf = cluster.conf();
    conf.set("dfs.nameservice.id", "ns1");
    conf.set("dfs.ha.namenode.id", "nn" + (nn + 1));
    controllerSettings.accept(conf);
    return conf;
  }

  HotStandbyController startController(int nn) throws IOException {
    HotStandbyController c = new HotStandbyController(controllerConf(nn));
    c.start();
    controllers[nn] = c;
    return c;
  }

  void startControllers() throws IOException {
    for (int i = 0; i < controllers.length; i++) {
      startController(i);
    }
  }

  HotStandbyController controller(int nn) {
    return controllers[nn];
  }

  void stopController(int nn) {
    if (controllers[nn] != null) {
      controllers[nn].close();
      controllers[nn] = null;
    }
  }

  /** Index of the one active NameNode, or -1 when none is. */
  int activeNameNode() {
    int found = -1;
    for (int i = 0; i < controllers.length; i++) {
      NameNode nn = cluster.mini().getNameNode(i);
      if (nn != null && nn.isActiveState()) {
        found = i;
      }
    }
    return found;
  }

  /** Waits until a NameNode other than {@code not} is active (and its controller says so); returns it. */
  int awaitActiveOtherThan(int not, Duration timeout) throws TimeoutException, InterruptedException {
    int[] found = {-1};
    Await.until("a NameNode other than " + not + " is active", timeout, () -> {
      int a = activeNameNode();
      found[0] = a;
      return a >= 0 && a != not && controllers[a] != null && controllers[a].isActive();
    });
    return found[0];
  }

  int awaitActive(Duration timeout) throws TimeoutException, InterruptedException {
    return awaitActiveOtherThan(-1, timeout);
  }

  /** Stops NameNode {@code nn} as a crash would: from this instant it serves nobody. */
  void killNameNode(int nn) {
    splitBrain.markDown(nn);
    cluster.crashNameNode(nn);
  }

  void restartNameNode(int nn) throws IOException {
    cluster.mini().restartNameNode(nn, false);
    splitBrain.markUp(nn);
  }

  /** A client of ns1 can create and list a file (through whatever provider the cluster configures). */
  void fsIsUsable() throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/usable-" + System.nanoTime());
    cluster.fs().mkdirs(p);
    if (!cluster.fs().exists(p)) {
      throw new AssertionError(p + " not found after mkdirs");
    }
  }

  int nameNodes() {
    return controllers.length;
  }

  /**
   * Stops everything; fails (as every test on this fixture does) if two NameNodes were ever active at once, or if a
   * controller would have halted the JVM.
   */
  @Override
  public void close() {
    for (int i = 0; i < controllers.length; i++) {
      stopController(i);
    }
    splitBrain.close();
    cluster.close();
    assertNoHalt();
    splitBrain.assertNoSplitBrain();
  }

  /**
   * For controllers in the test's JVM: one that meets an Error halts its JVM through Hadoop's ExitUtil, which would
   * end the whole surefire fork (MiniDFSCluster disables System.exit only); now it throws, and the test fails.
   */
  static void haltsThrow() {
    ExitUtil.disableSystemHalt();
    ExitUtil.resetFirstHaltException();
  }

  /** Fails if a controller asked to halt the JVM since {@link #haltsThrow}. */
  static void assertNoHalt() {
    if (ExitUtil.haltCalled()) {
      throw new AssertionError("a controller halted its JVM", ExitUtil.getFirstHaltException());
    }
  }

  List<HotStandbyController> controllers() {
    List<HotStandbyController> out = new ArrayList<>();
    for (HotStandbyController c : controllers) {
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }
}
