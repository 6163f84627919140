package org.bulwark.hdfs.it.failure;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;

/**
 * What each NameNode of a nameservice knows of the blocks fsck still calls mis-replicated after the audit
 * waited for their repair: its HA state and placement policy, whether its redundancy queues are populated
 * and their counts, and per block its state, live replicas, racks and whether it is queued for
 * reconstruction. A block fsck flags that the active NameNode never queued is one no scan reached; the
 * printout tells that apart from a repair that was tried and failed.
 */
final class RepairDiagnosis {
  private static final Pattern BLOCK = Pattern.compile("blk_(\\d+)_(\\d+)");
  private static final int BLOCKS_SHOWN = 8;

  private RepairDiagnosis() {
  }

  static String of(AllPluginsCluster c, int ns, String fsckViolations) {
    Set<Block> blocks = new LinkedHashSet<>();
    Matcher m = BLOCK.matcher(fsckViolations);
    while (m.find() && blocks.size() < BLOCKS_SHOWN) {
      blocks.add(new Block(Long.parseLong(m.group(1)), 0, Long.parseLong(m.group(2))));
    }
    StringBuilder out = new StringBuilder();
    for (int nn = 0; nn < AllPluginsCluster.NAMENODES; nn++) {
      NameNode node = c.cluster.mini().getNameNode(c.cluster.nameNodeIndex(ns, nn));
      out.append("  ns").append(ns + 1).append(".nn").append(nn + 1).append(": ");
      if (node == null || node.getNamesystem() == null) {
        out.append("down\n");
        continue;
      }
      FSNamesystem fsn = node.getNamesystem();
      BlockManager bm = fsn.getBlockManager();
      out.append(node.getState()).append(", policy ")
          .append(bm.getBlockPlacementPolicy().getClass().getSimpleName())
          .append(", queues populated ").append(bm.isPopulatingReplQueues())
          .append(", queue initialisation ").append(String.format("%.2f", bm.getReconstructionQueuesInitProgress()))
          .append(", low redundancy ").append(bm.getLowRedundancyBlocksCount())
          .append(", pending ").append(bm.getPendingReconstructionBlocksCount())
          .append(", postponed ").append(bm.getPostponedMisreplicatedBlocksCount()).append('\n');
      for (Block b : blocks) {
        out.append("    ").append(b).append(": ").append(blockState(fsn, bm, b)).append('\n');
      }
    }
    return out.toString();
  }

  private static String blockState(FSNamesystem fsn, BlockManager bm, Block b) {
    BlockInfo stored = bm.getStoredBlock(b);
    if (stored == null) {
      return "unknown";
    }
    // racks, live replicas, queued for reconstruction (1/0), decommissioning or maintenance replicas
    int[] info = BlockManagerTestUtil.getReplicaInfo(fsn, b);
    return stored.getBlockUCState() + ", " + info[1] + " live on " + info[0] + " racks, expected "
        + stored.getReplication() + ", queued " + (info[2] == 1);
  }
}
