package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;

/**
 * {@code bulwark.hotstandby.trigger-block-reports}: a NameNode made active treats every storage as stale
 * until its next full block report (six hours by default); with the key on, its controller asks the live
 * DataNodes at once, and the NameNode trusts its replica map again within seconds. Without the key the
 * storages stay stale (measured here for as long as the key's run took, with a floor of 5 s).
 */
class HotStandbyBlockReportsIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static FSNamesystem namesystem(HotStandbyCluster ha, int nn) {
    return ha.cluster.mini().getNamesystem(nn);
  }

  /**
   * Storages whose replica list the NameNode does not trust yet, counted now (the NumStaleStorages metric
   * is refreshed only by the heartbeat check, so right after a failover it still shows the old figure).
   */
  private static int staleStorages(HotStandbyCluster ha, int nn) {
    int stale = 0;
    for (DatanodeDescriptor d : namesystem(ha, nn).getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.LIVE)) {
      for (DatanodeStorageInfo s : d.getStorageInfos()) {
        stale += s.areBlockContentsStale() ? 1 : 0;
      }
    }
    return stale;
  }

  /** Milliseconds from the NameNode becoming active until it has no stale storage, or -1 if still stale after {@code wait}. */
  private static long untilNoStaleStorage(HotStandbyCluster ha, int nn, long activeAt, Duration wait) throws Exception {
    try {
      Await.until("no stale storage at nn" + (nn + 1), wait, () -> staleStorages(ha, nn) == 0);
      return System.currentTimeMillis() - activeAt;
    } catch (java.util.concurrent.TimeoutException e) {
      return -1;
    }
  }

  private static long failoverAndMeasure(HotStandbyCluster ha, Duration wait) throws Exception {
    int first = ha.awaitActive(WAIT);
    ha.cluster.writeFile(new Path("/data/f" + System.nanoTime()), 2 << 20, WriteOrigin.offCluster());
    ha.killNameNode(first);
    int second = ha.awaitActiveOtherThan(first, WAIT);
    long activeAt = System.currentTimeMillis();
    return untilNoStaleStorage(ha, second, activeAt, wait);
  }

  @Test
  void aNewlyActiveNameNodeTrustsItsReplicaMapWithinSecondsWithTheTriggerAndNotWithout() throws Exception {
    long with;
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, c -> { },
        c -> c.setBoolean("bulwark.hotstandby.trigger-block-reports", true))) {
      ha.startControllers();
      with = failoverAndMeasure(ha, WAIT);
      assertTrue(with >= 0, "with the trigger every storage was reported within " + WAIT);
      ha.splitBrain.assertNoSplitBrain();
    }
    long window = Math.max(5_000, 2 * with);
    long without;
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.startControllers();
      without = failoverAndMeasure(ha, Duration.ofMillis(window));
    }
    System.out.printf("Stale storages after a failover: none %d ms after activation with the trigger; without it, "
        + "%s%n", with, without < 0 ? "still stale " + window + " ms after activation" : "none after " + without + " ms");
    assertTrue(without < 0, "without the trigger the storages stay stale until the DataNodes' scheduled report");
  }
}
