package org.bulwark.hdfs.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/** The kit's own checks, each on a real embedded cluster. */
class BulwarkMiniClusterIT {
  private static final String FOUR_RACKS = "/dc1/r1:3,/dc1/r2:3,/dc2/r3:2,/dc2/r4:2";
  private static final long MB = 1 << 20;
  private static final Duration WAIT = Duration.ofSeconds(90);

  @Test
  void fourRacksTenDataNodesWithWriterLocalAndOffClusterWrites() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology(FOUR_RACKS).capacity(256 * MB).capacity(9, 512 * MB).build()) {
      DistributedFileSystem fs = c.fs();
      DatanodeInfo[] live = fs.getDataNodeStats(DatanodeReportType.LIVE);
      assertEquals(10, live.length);
      Map<String, String> rackByHost = new HashMap<>();
      for (DatanodeInfo dn : live) {
        rackByHost.put(dn.getHostName(), dn.getNetworkLocation());
      }
      for (DataNodeHandle h : c.dataNodes()) {
        assertEquals(h.rack(), rackByHost.get(h.hostName()), "NameNode's rack for " + h);
      }

      // Every DataNode writes two 3-block files; two more files come from off-cluster.
      Map<Path, DataNodeHandle> writers = new HashMap<>();
      for (DataNodeHandle h : c.dataNodes()) {
        for (int k = 0; k < 2; k++) {
          Path p = new Path("/local/" + h.index() + "-" + k);
          c.writeFile(p, 3 * MB - 7, WriteOrigin.fromDataNode(h));
          writers.put(p, h);
        }
      }
      c.writeFile(new Path("/remote/a"), 2 * MB, WriteOrigin.offCluster());
      c.writeFile(new Path("/remote/b"), 2 * MB, WriteOrigin.offCluster());
      c.awaitReplication(0, new Path("/"), WAIT);

      for (Map.Entry<Path, DataNodeHandle> e : writers.entrySet()) {
        assertEquals(3 * MB - 7, c.verifyFile(e.getKey(), 3 * MB - 7));
        String writerAddr = c.running(e.getValue()).getDatanodeId().getXferAddr();
        for (BlockLocation b : fs.getFileBlockLocations(e.getKey(), 0, Long.MAX_VALUE)) {
          assertEquals(3, b.getNames().length);
          assertTrue(List.of(b.getNames()).contains(writerAddr), "writer " + e.getValue() + " holds a replica of " + e.getKey());
        }
      }
      assertEquals(2 * MB, c.verifyFile(new Path("/remote/a"), 2 * MB));

      // Hadoop's default policy: writer's node, then two nodes of one other rack: always 2 racks.
      BlockSpread local = c.blockSpread(0, new Path("/local"));
      assertEquals(60, local.blocks());
      assertEquals(60, local.blocksOnRacks(2), local.summary());
      BlockSpread all = c.blockSpread(0, new Path("/"));
      assertEquals(64, all.blocks());
      assertEquals(192, all.replicasByRack().values().stream().mapToLong(Long::longValue).sum());

      Utilisation u = c.utilisation();
      assertEquals(10, u.dataNodes().size());
      assertEquals(4, u.racks().size());
      Utilisation.Entry r1 = u.racks().get(0);
      assertEquals("/dc1/r1", r1.name());
      assertEquals(3 * 256 * MB, r1.capacity());
      assertEquals(256 * MB + 512 * MB, u.racks().get(3).capacity(), "DataNode 9 has its own capacity");
      assertTrue(u.dataNodes().stream().allMatch(e -> e.used() > 0), u.table());
      assertTrue(u.dataNodeStdDev() >= 0 && u.table().contains("std-dev of rack utilisation"));
    }
  }

  @Test
  void federationWithTwoNameservices() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2").nameservices(2).build()) {
      assertEquals(List.of("ns1", "ns2"), c.nameservices());
      assertFalse(c.fs(0).getUri().equals(c.fs(1).getUri()));
      c.writeFile(0, new Path("/only-in-ns1"), MB, WriteOrigin.offCluster());
      c.writeFile(1, new Path("/only-in-ns2"), 2 * MB, WriteOrigin.fromDataNode(c.dataNodes().get(3)));
      assertEquals(MB, c.verifyFile(0, new Path("/only-in-ns1"), MB));
      assertEquals(2 * MB, c.verifyFile(1, new Path("/only-in-ns2"), 2 * MB));
      assertFalse(c.fs(0).exists(new Path("/only-in-ns2")));
      assertFalse(c.fs(1).exists(new Path("/only-in-ns1")));
      for (int ns = 0; ns < 2; ns++) {
        assertEquals(4, c.liveDataNodes(ns), "every DataNode serves both block pools");
      }
      DataNode dn = c.running(c.dataNodes().get(0));
      String bp1 = c.mini().getNamesystem(0).getBlockPoolId();
      String bp2 = c.mini().getNamesystem(1).getBlockPoolId();
      assertFalse(bp1.equals(bp2));
      assertTrue(dn.isBPServiceAlive(bp1) && dn.isBPServiceAlive(bp2));
    }
  }

  @Test
  void haWithThreeNameNodesAndZooKeeper() throws Exception {
    Configuration conf;
    FileSystem cached;
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2").nameNodesPerNameservice(3).build()) {
      assertNotNull(c.zooKeeper());
      try (CuratorFramework zk = CuratorFrameworkFactory.newClient(c.zooKeeperConnectString(), new RetryOneTime(100))) {
        zk.start();
        zk.create().forPath("/kit-check", new byte[] {1});
        assertEquals(1, zk.getData().forPath("/kit-check")[0]);
      }
      assertEquals(c.zooKeeperConnectString(), c.conf().get("ha.zookeeper.quorum"));
      assertEquals("hdfs://ns1", c.uri(0).toString());
      assertTrue(c.nameNode(0, 0).isActiveState());
      assertTrue(c.nameNode(0, 1).isStandbyState());
      assertTrue(c.nameNode(0, 2).isStandbyState());

      c.writeFile(new Path("/before-failover"), 2 * MB, WriteOrigin.offCluster());
      c.mini().shutdownNameNode(c.nameNodeIndex(0, 0));
      c.mini().transitionToActive(c.nameNodeIndex(0, 2));
      // The same client, through the logical URI, fails over to the third NameNode.
      assertEquals(2 * MB, c.verifyFile(new Path("/before-failover"), 2 * MB));
      c.writeFile(new Path("/after-failover"), MB, WriteOrigin.offCluster());
      assertEquals(MB, c.verifyFile(new Path("/after-failover"), MB));
      assertTrue(c.activeNamesystem(0) == c.mini().getNamesystem(c.nameNodeIndex(0, 2)));
      conf = c.conf();
      cached = FileSystem.get(c.uri(0), conf);
    }
    // The next cluster of this JVM is hdfs://ns1 too: it must not be handed this one's cached client.
    try (FileSystem next = FileSystem.get(URI.create("hdfs://ns1"), conf)) {
      assertNotSame(cached, next);
    }
  }

  @Test
  void stopAndRestartARackThenADatacenter() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology(FOUR_RACKS).build()) {
      List<Path> files = new ArrayList<>();
      for (DataNodeHandle h : c.dataNodes()) {
        Path p = new Path("/data/" + h.index());
        c.writeFile(p, 2 * MB, WriteOrigin.fromDataNode(h));
        files.add(p);
      }

      StoppedDataNodes rack = c.stopRack("/dc1/r1");
      assertEquals(3, rack.size());
      assertTrue(rack.handles().stream().allMatch(h -> c.running(h) == null));
      c.declareDead(rack);
      Await.until("the NameNode counts 7 live DataNodes", WAIT, () -> c.liveDataNodes(0) == 7);
      // No block has more than two replicas in one rack, so every file is still readable...
      for (Path p : files) {
        c.verifyFile(p, 2 * MB);
      }
      // ...and the NameNode restores three replicas on the remaining racks.
      c.awaitFullyReplicated(0, WAIT);
      assertEquals(0, c.blockSpread(0, new Path("/")).blocksByRackCount().getOrDefault(0, 0L));

      c.restart(rack);
      Await.until("the NameNode counts 10 live DataNodes", WAIT, () -> c.liveDataNodes(0) == 10);
      assertTrue(rack.handles().stream().allMatch(h -> c.running(h) != null));

      StoppedDataNodes dc = c.stopDatacenter("/dc2");
      assertEquals(4, dc.size());
      c.declareDead(dc);
      Await.until("the NameNode counts 6 live DataNodes", WAIT, () -> c.liveDataNodes(0) == 6);
      c.restart(dc);
      Await.until("the NameNode counts 10 live DataNodes", WAIT, () -> c.liveDataNodes(0) == 10);
      c.awaitFullyReplicated(0, WAIT);
      for (Path p : files) {
        assertEquals(2 * MB, c.verifyFile(p, 2 * MB));
      }
      assertEquals(20, c.blockSpread(0, new Path("/data")).blocks());
    }
  }
}
