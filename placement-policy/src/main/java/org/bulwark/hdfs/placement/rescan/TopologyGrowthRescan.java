package org.bulwark.hdfs.placement.rescan;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.Namesystem;
import org.apache.hadoop.util.ServicePlugin;
import org.apache.hadoop.util.Time;
import org.bulwark.hdfs.placement.PlacementKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NameNode plugin ({@code dfs.namenode.plugins}) that has the active NameNode judge every block's placement
 * again once racks or datacenters that were away are back, so blocks written without them are spread over them
 * without waiting for a failover or a restart. {@link RescanTrigger} decides when; the scan is the NameNode's
 * own ({@code BlockManager.processMisReplicatedBlocks}, the one it runs on becoming active and when a
 * single-rack cluster gains a second rack): it walks the blocks in batches under the namesystem lock and
 * queues the mis-placed ones for reconstruction.
 */
public final class TopologyGrowthRescan implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyGrowthRescan.class);

  private ScheduledExecutorService checker;
  /** Rescans run since the NameNode started (only the checking thread writes it; for the log). */
  private int rescans;

  @Override
  public synchronized void start(Object service) {
    if (!(service instanceof NameNode)) {
      throw new IllegalArgumentException(getClass().getName() + " is a NameNode plugin (dfs.namenode.plugins), not one for "
          + (service == null ? "null" : service.getClass().getSimpleName()));
    }
    if (checker != null) {
      return;
    }
    NameNode nameNode = (NameNode) service;
    Configuration conf = nameNode.getConf();
    long interval = PlacementKeys.RESCAN_CHECK_INTERVAL.get(conf);
    RescanTrigger trigger = new RescanTrigger(PlacementKeys.RESCAN_SETTLE.get(conf),
        PlacementKeys.RESCAN_MIN_INTERVAL.get(conf));
    checker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "bulwark-topology-growth-rescan");
      t.setDaemon(true);
      return t;
    });
    checker.scheduleWithFixedDelay(() -> check(nameNode, trigger), interval, interval, TimeUnit.MILLISECONDS);
    LOG.info("Topology growth rescan started: checks every {} ms", interval);
  }

  private void check(NameNode nameNode, RescanTrigger trigger) {
    try {
      FSNamesystem fsn = nameNode.getNamesystem();
      if (fsn == null) {
        return;
      }
      BlockManager bm = fsn.getBlockManager();
      TopologyShape baseline = trigger.baseline();
      TopologyShape shape = TopologyShape.of(bm.getDatanodeManager().getNetworkTopology());
      if (trigger.due(bm.isPopulatingReplQueues(), shape, Time.monotonicNow()) && rescan(fsn, bm)) {
        rescans++;
        LOG.info("The topology grew from {} to {}: re-checking every block's placement (rescan {})", baseline, shape,
            rescans);
      }
    } catch (RuntimeException e) {
      LOG.warn("Topology growth check failed; the next one retries", e);
    }
  }

  /** The NameNode's own scan for mis-placed blocks, under its lock, if it still populates its queues. */
  private static boolean rescan(Namesystem lock, BlockManager bm) {
    lock.writeLock();
    try {
      if (!bm.isPopulatingReplQueues()) {
        return false;
      }
      bm.processMisReplicatedBlocks();
      return true;
    } finally {
      lock.writeUnlock();
    }
  }

  @Override
  public synchronized void stop() {
    if (checker != null) {
      checker.shutdownNow();
      checker = null;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
