package org.bulwark.hdfs.it.failure;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.bulwark.hdfs.it.cluster.HotStandbyNameservices;
import org.bulwark.hdfs.placement.HierarchicalPlacementPolicy;
import org.bulwark.hdfs.placement.PlacementKeys;
import org.bulwark.hdfs.placement.rescan.TopologyGrowthRescan;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.SplitBrainChecker;

/**
 * The cluster issue 7 asks for, every plugin switched on together: 12 DataNodes on 6 racks in 2
 * datacenters, two federated nameservices of 3 NameNodes each under {@code hdfs hotstandby}
 * controllers with clients on the ZooKeeper failover proxy provider, hierarchical placement, and
 * {@code hdfs blockmonitor} recording into PostgreSQL from a JVM of its own. A split-brain checker
 * samples every nameservice from the first moment to the last. DataNodes, racks and datacenters are
 * lost by killing their processes ({@link org.bulwark.hdfs.testkit.BulwarkMiniCluster#kill}).
 */
final class AllPluginsCluster implements AutoCloseable {
  static final String TOPOLOGY = "/dc1/r1:2,/dc1/r2:2,/dc1/r3:2,/dc2/r4:2,/dc2/r5:2,/dc2/r6:2";
  static final int NAMESERVICES = 2;
  static final int NAMENODES = 3;
  static final long BLOCK_SIZE = 512 * 1024;
  /** Balancer moves this slow are still under way when a test kills something. */
  static final long SLOW_BALANCING_BYTES_PER_SEC = 1L << 20;

  final BulwarkMiniCluster cluster;
  final HotStandbyNameservices ha;
  final ForkedMonitor monitor;
  final File dir;
  private final List<SplitBrainChecker> splitBrain = new ArrayList<>();

  private AllPluginsCluster(BulwarkMiniCluster cluster, HotStandbyNameservices ha, ForkedMonitor monitor, File dir) {
    this.cluster = cluster;
    this.ha = ha;
    this.monitor = monitor;
    this.dir = dir;
    for (int ns = 0; ns < NAMESERVICES; ns++) {
      int[] indexes = new int[NAMENODES];
      for (int nn = 0; nn < NAMENODES; nn++) {
        indexes[nn] = cluster.nameNodeIndex(ns, nn);
      }
      splitBrain.add(SplitBrainChecker.start(cluster.mini(), indexes));
    }
  }

  /** Starts the cluster with hierarchical placement. */
  static AllPluginsCluster start() throws IOException, InterruptedException {
    return start(HierarchicalPlacementPolicy.class);
  }

  /** Starts the cluster with {@code placement} (null: Hadoop's default). */
  static AllPluginsCluster start(Class<? extends BlockPlacementPolicy> placement) throws IOException, InterruptedException {
    File dir = Files.createTempDirectory(new File("target").toPath(), "all-plugins-").toFile();
    BulwarkMiniCluster.Builder b = BulwarkMiniCluster.builder()
        .topology(TOPOLOGY)
        .capacity(512L << 20)
        .blockSize(BLOCK_SIZE)
        .baseDir(new File(dir, "hdfs"))
        .placementPolicy(placement)
        .configure(conf -> {
          // Settings an administrator gives a cluster that must ride out rack and datacenter losses:
          // a pipeline that loses a DataNode takes a new one where it can and goes on without where it
          // cannot; a new block's pipeline is retried past every dead DataNode the NameNode does not
          // know about yet (one is excluded per attempt: a lost datacenter holds six); DataNodes silent
          // for three heartbeats are avoided for reads and writes before they are declared dead.
          conf.setBoolean("dfs.client.block.write.replace-datanode-on-failure.best-effort", true);
          conf.setInt("dfs.client.block.write.retries", 10);
          // A close (or the next block) waits for the last block's replicas to be reported; the client
          // asks again after this, doubling: 100 ms rather than 400 takes ~0.9 s off the slowest closes.
          conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 100);
          conf.setBoolean("dfs.namenode.avoid.read.stale.datanode", true);
          conf.setBoolean("dfs.namenode.avoid.write.stale.datanode", true);
          conf.setLong("dfs.namenode.stale.datanode.interval", 3000);
          conf.setLong("dfs.datanode.balance.bandwidthPerSec", SLOW_BALANCING_BYTES_PER_SEC);
          // A copy scheduled to a DataNode that is stopped before it finishes is retried elsewhere after
          // this long; Hadoop's 5 minutes would be most of every scenario's wait.
          conf.setInt("dfs.namenode.reconstruction.pending.timeout-sec", 20);
          // As the README advises: the controllers ask the DataNodes for block reports after each
          // activation, so the new active NameNode trusts its replica map (and a balancer run that
          // waits for that goes on) within seconds rather than at the next scheduled report.
          conf.setBoolean("bulwark.hotstandby.trigger-block-reports", true);
          // As the README advises for clusters that lose racks or datacenters: blocks written while one was
          // away are spread over it once it is back, without waiting for a failover. Shorter waits than the
          // defaults (30 s still, 10 min apart) so that a scenario's repairs fit its audit.
          conf.set("dfs.namenode.plugins", TopologyGrowthRescan.class.getName());
          conf.set(PlacementKeys.RESCAN_SETTLE.getName(), "2s");
          conf.set(PlacementKeys.RESCAN_MIN_INTERVAL.getName(), "10s");
        });
    HotStandbyNameservices.configure(b, NAMESERVICES, NAMENODES);
    // 6 s sessions rather than 2: scenario 4 asserts that a ZooKeeper restart fails nothing over, and on a loaded
    // 2-core host a restart's reconnection came within 0.1 s of 2 s. No scenario waits for a session to expire (a killed
    // NameNode refuses its connections; scenario 4 expires the leader's session on the server).
    b.configure(conf -> conf.set("bulwark.hotstandby.zookeeper.session-timeout", "6s"));
    BulwarkMiniCluster cluster = b.build();
    HotStandbyNameservices ha = null;
    ForkedMonitor monitor = null;
    try {
      ha = HotStandbyNameservices.start(cluster);
      monitor = ForkedMonitor.start(cluster.conf(), dir);
      return new AllPluginsCluster(cluster, ha, monitor, dir);
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (monitor != null) {
        monitor.close();
      }
      if (ha != null) {
        ha.close();
      }
      cluster.close();
      throw e;
    }
  }

  /**
   * Kills the active NameNode of nameservice {@code ns} (its process stops serving at once) and waits
   * for the controllers to make another one active; returns the killed one's number (0-based).
   */
  int killActiveNameNode(int ns) throws TimeoutException, InterruptedException {
    int active = ha.awaitActive(ns, -1);
    int index = cluster.nameNodeIndex(ns, active);
    splitBrain.get(ns).markDown(index);
    cluster.crashNameNode(index);
    ha.awaitActive(ns, active);
    return active;
  }

  boolean isNameNodeUp(int ns, int nn) {
    return cluster.mini().isNameNodeUp(cluster.nameNodeIndex(ns, nn));
  }

  /** Starts NameNode {@code nn} of {@code ns} again; it comes back standby under its controller. */
  void restartNameNode(int ns, int nn) throws IOException {
    int index = cluster.nameNodeIndex(ns, nn);
    cluster.mini().restartNameNode(index, true);
    splitBrain.get(ns).markUp(index);
  }

  /**
   * {@code hdfs dfsadmin -triggerBlockReport} on every DataNode: a NameNode that became active trusts its
   * replica map, and so moves and repairs replicas, only after a full report from each storage.
   * Every NameNode must be up (MiniDFSCluster waits for each to receive it).
   */
  void triggerBlockReports() throws IOException {
    cluster.mini().triggerBlockReports();
  }

  /** Samples, over every nameservice so far, in which two NameNodes of one nameservice were active together. */
  long splitBrainObservations() {
    return splitBrain.stream().mapToLong(SplitBrainChecker::observations).sum();
  }

  long splitBrainSamples() {
    return splitBrain.stream().mapToLong(SplitBrainChecker::samples).sum();
  }

  /**
   * Waits until every nameservice's active NameNode has checked every block's placement (the controllers
   * ask the DataNodes for the block reports that takes after a failover) and has every block fully
   * replicated, mis-replicated ones repaired included.
   */
  void awaitFullyReplicated(Duration timeout) throws TimeoutException, InterruptedException {
    for (int ns = 0; ns < NAMESERVICES; ns++) {
      cluster.awaitPlacementChecked(ns, timeout);
      cluster.awaitFullyReplicated(ns, timeout);
    }
  }

  @Override
  public void close() throws InterruptedException {
    try {
      splitBrain.forEach(SplitBrainChecker::close);
      monitor.close();
    } finally {
      try {
        ha.close();
      } finally {
        cluster.close();
      }
    }
  }
}
