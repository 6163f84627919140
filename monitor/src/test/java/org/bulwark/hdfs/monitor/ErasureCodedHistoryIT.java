package org.bulwark.hdfs.monitor;

import static org.bulwark.hdfs.monitor.BlockMonitorClusterIT.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.bulwark.hdfs.monitor.advisor.DirectoryCost;
import org.bulwark.hdfs.monitor.advisor.ErasureCodingLayout;
import org.bulwark.hdfs.monitor.advisor.StorageCostAdvisor;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.MissingBlock;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Erasure-coded files under the monitor: a block group's history holds one replica per internal block
 * (data and parity, each on its own DataNode), and the advisor counts their raw bytes exactly (parity of
 * every stripe, the last partial stripe's parity as large as its first cell) and advises a policy only where
 * the cluster can hold it.
 */
class ErasureCodedHistoryIT {
  private static final String POLICY = "RS-3-2-1024k";
  /** Three full cells and half of a fourth: a partial last stripe (and, with 1 MiB blocks, a second block group). */
  private static final long EC_FILE = 3L * 1024 * 1024 + 512 * 1024;
  private static final long REPLICATED_FILE = 2L * 1024 * 1024;

  @TempDir
  File dir;

  @Test
  void blockGroupsKeepEveryInternalBlockAndTheAdvisorCountsParity() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:1,/r3:1,/r4:1,/r5:1").replication(3).build()) {
      DistributedFileSystem fs = withErasureCodedDirectory(c);
      c.writeFile(new Path("/ec/f"), EC_FILE, WriteOrigin.offCluster());
      c.writeFile(new Path("/rep/f"), REPLICATED_FILE, WriteOrigin.offCluster());
      c.awaitReplication(0, new Path("/rep"), Duration.ofSeconds(60));
      assertEquals(EC_FILE, c.verifyFile(new Path("/ec/f"), EC_FILE));

      try (BlockMonitor monitor = new BlockMonitor(TestMonitors.conf(c.conf(), dir))) {
        monitor.start();
        monitor.pollNow();

        // 1 MiB blocks: a group holds 3 MiB of data, so the file's first group is one full stripe (3 data and
        // 2 parity internal blocks) and its second the half cell left (1 data, 2 parity).
        List<BlockHistory> ec = monitor.store().fileHistory("/ec/f");
        ec.sort(java.util.Comparator.comparingLong(h -> h.blockId));
        assertEquals(2, ec.size(), "two block groups");
        assertEquals(List.of(5, 3), ec.stream().map(h -> h.replicas.size()).collect(Collectors.toList()),
            "one replica per internal block");
        for (BlockHistory group : ec) {
          List<ReplicaSpan> internal = group.replicas;
          assertTrue(internal.stream().allMatch(ReplicaSpan::isOpen));
          assertEquals(internal.size(), internal.stream().map(r -> r.dataNode).collect(Collectors.toSet()).size(),
              "each internal block on its own DataNode: " + internal);
        }

        StorageCostAdvisor advisor = monitor.status().advisor();
        DirectoryCost ecDir = directory(advisor, "/ec");
        assertEquals(EC_FILE + 2 * (1024 * 1024 + 512 * 1024), ecDir.rawBytesToday(),
            "data, plus two parity cells per stripe, the last stripe's as large as its half cell");
        assertEquals(ErasureCodingLayout.RS_3_2.rawBytes(EC_FILE), ecDir.rawBytesToday());
        assertEquals(0, ecDir.savedBytes(POLICY), "already under that policy");
        DirectoryCost rep = directory(advisor, "/rep");
        assertEquals(3 * REPLICATED_FILE, rep.rawBytesToday());
        assertEquals(POLICY, advisor.recommended(rep).name(), "5 DataNodes on 5 racks hold RS-3-2, not RS-6-3");
        assertEquals("needs 9 DataNodes, the cluster has 5", advisor.whyNot(ErasureCodingLayout.RS_6_3));
        assertNull(advisor.recommended(ecDir));

        String api = get("http://127.0.0.1:" + monitor.httpAddress().getPort() + "/api/advisor", 200);
        assertTrue(api.contains("\"recommended\" : \"" + POLICY + "\""), api);
        assertTrue(api.contains("\"whyNot\" : \"needs 14 DataNodes, the cluster has 5\""), api);
      }
    }
  }

  @Test
  void aBlockGroupLeftWithFewerInternalBlocksThanItsDataBlocksIsReportedMissing() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:1,/r2:1,/r3:1,/r4:1,/r5:1").replication(3).build()) {
      DistributedFileSystem fs = withErasureCodedDirectory(c);
      long stripe = 3L * 1024 * 1024;
      c.writeFile(new Path("/ec/g"), stripe, WriteOrigin.offCluster());
      try (BlockMonitor monitor = new BlockMonitor(TestMonitors.conf(c.conf(), dir))) {
        monitor.start();
        monitor.pollNow();
        assertTrue(monitor.store().forensics(10).isEmpty());

        // 3 of the group's 5 internal blocks gone: 2 left, its 3 data blocks needed to read it.
        LocatedBlock group = fs.getClient().getLocatedBlocks("/ec/g", 0).get(0);
        assertEquals(5, group.getLocations().length);
        List<DataNodeHandle> holders = new ArrayList<>();
        for (DatanodeInfo d : List.of(group.getLocations()).subList(0, 3)) {
          holders.add(c.dataNodes().stream().filter(h -> c.running(h) != null
              && c.running(h).getDatanodeUuid().equals(d.getDatanodeUuid())).findFirst().orElseThrow());
        }
        c.declareDead(c.stop(holders));
        monitor.pollNow();

        List<MissingBlock> missing = monitor.store().forensics(10);
        assertEquals(1, missing.size(), "the unreadable group, although it still has 2 locations");
        assertEquals("/ec/g", missing.get(0).path);
        assertEquals(group.getBlock().getBlockId(), missing.get(0).event.blockId);
        assertEquals(5, missing.get(0).lastHolders.size(), "every internal block's holder, the 2 left open");
        assertEquals(1, monitor.status().lastScans().values().iterator().next().missing);
      }
    }
  }

  /** The cluster's client, with {@code /ec} under {@link #POLICY}. */
  private static DistributedFileSystem withErasureCodedDirectory(BulwarkMiniCluster c) throws java.io.IOException {
    DistributedFileSystem fs = c.fs();
    fs.enableErasureCodingPolicy(POLICY);
    fs.mkdirs(new Path("/ec"));
    fs.setErasureCodingPolicy(new Path("/ec"), POLICY);
    return fs;
  }

  private static DirectoryCost directory(StorageCostAdvisor advisor, String path) {
    return advisor.byPath().stream().filter(d -> d.path().equals(path)).findFirst()
        .orElseThrow(() -> new AssertionError(path + " not advised"));
  }
}
