package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.hadoop.io.IOUtils;

/**
 * Starts a {@link BulwarkMiniCluster} from its {@link BulwarkMiniCluster.Builder}: configuration,
 * ZooKeeper, MiniDFSCluster, then the first NameNode of each HA nameservice made active. Kept apart
 * from the builder so that the order of these steps, and the clean-up when one fails, read in one place.
 */
final class ClusterStarter {
  /** Numbers the clusters of this JVM, whose host names and default directories must not collide. */
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private ClusterStarter() {
  }

  static BulwarkMiniCluster start(BulwarkMiniCluster.Builder b) throws IOException {
    if (b.reuseStorage && b.baseDir == null) {
      throw new IllegalArgumentException("reuseStorage() needs baseDir(dir) naming the storage to start on");
    }
    int seq = SEQUENCE.incrementAndGet();
    File dir = b.baseDir != null ? b.baseDir
        // the process id too: test JVMs forked side by side share test.build.data and count from 1 each
        : new File(System.getProperty("test.build.data", System.getProperty("java.io.tmpdir")),
            "bulwark-cluster-" + ProcessHandle.current().pid() + "-" + seq);
    Configuration conf = configuration(b, dir);
    boolean ha = b.nameNodesPerNameservice > 1;

    TestingServer zk = null;
    MiniDFSCluster cluster = null;
    try {
      if (b.zooKeeper != null ? b.zooKeeper : ha) {
        // On a port below the ephemeral range: tests restart ZooKeeper on its port, which another JVM's bind(0) may
        // take while it is down (see FreePorts).
        zk = new TestingServer(FreePorts.pick(), true);
        conf.set("ha.zookeeper.quorum", zk.getConnectString());
      }
      List<String> nsIds = new ArrayList<>();
      MiniDFSNNTopology nnTopology = NameNodes.topology(b.nameservices, b.nameNodesPerNameservice, nsIds);
      if (ha) {
        for (String ns : nsIds) {
          conf.set("dfs.client.failover.proxy.provider." + ns, ConfiguredFailoverProxyProvider.class.getName());
        }
      }
      b.configurers.forEach(c -> c.accept(conf));

      DataNodeLayout dataNodes = new DataNodeLayout(b.topology, seq, b.defaultCapacity, b.capacityOverrides, b.storageTypes);
      MiniDFSCluster.Builder mb = new MiniDFSCluster.Builder(conf, dir)
          .nnTopology(nnTopology)
          .format(!b.reuseStorage);
      dataNodes.applyTo(mb);
      cluster = mb.build();
      cluster.waitActive();
      NameNodes nameNodes = new NameNodes(cluster, nsIds, b.nameNodesPerNameservice);
      if (ha) {
        // MiniDFSCluster leaves fs.defaultFS at the last NameNode it configured; a client of an HA
        // nameservice names it by its logical URI.
        conf.set("fs.defaultFS", "hdfs://" + nsIds.get(0));
      }
      if (ha && b.activateFirstNameNodes) {
        for (int ns = 0; ns < nsIds.size(); ns++) {
          cluster.transitionToActive(nameNodes.index(ns, 0));
        }
        // A NameNode that becomes active treats every storage as stale until its next full block
        // report (getBlocks skips them): report now rather than in dfs.blockreport.intervalMsec.
        cluster.triggerBlockReports();
      }
      return new BulwarkMiniCluster(b, conf, zk, cluster, nameNodes, dataNodes);
    } catch (Exception e) {
      // Nothing half-started is left behind.
      if (cluster != null) {
        cluster.shutdown();
      }
      IOUtils.closeStream(zk);
      if (e instanceof IOException) {
        throw (IOException) e;
      }
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      throw new IOException("cannot start the embedded cluster", e);
    }
  }

  /** The kit's settings, before the nameservices' and the caller's own. */
  private static Configuration configuration(BulwarkMiniCluster.Builder b, File dir) {
    Configuration conf = new HdfsConfiguration();
    if (b.fastSettings) {
      FastClusterSettings.apply(conf);
    }
    conf.setLong("dfs.blocksize", b.blockSize);
    conf.setInt("dfs.replication", b.replication);
    if (b.placementPolicy != null) {
      conf.set("dfs.block.replicator.classname", b.placementPolicy.getName());
    }
    return conf;
  }
}
