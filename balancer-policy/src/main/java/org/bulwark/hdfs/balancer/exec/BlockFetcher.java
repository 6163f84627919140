package org.bulwark.hdfs.balancer.exec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.StripedBlockWithLocations;
import org.bulwark.hdfs.balancer.plan.BlockCandidate;

/**
 * Fetches a source's blocks, with their locations, through {@code getBlocks}: the same call, of
 * the same size ({@code dfs.balancer.getBlocks.size}), as the stock balancer, until twice what the
 * source is to give is known (the stock dispatcher's limit too), spread over the block pools. Erasure-coded block groups
 * are left to the stock balancer.
 */
final class BlockFetcher {
  /** The stock dispatcher fetches up to twice a source's scheduled bytes. */
  static final int FETCH_FACTOR = 2;
  private static final int MAX_CALLS_PER_POOL = 5;

  private final List<NameNodeConnector> pools;
  private final long getBlocksSize;
  private final long minBlockSize;
  private final long hotBlockTimeInterval;

  BlockFetcher(List<NameNodeConnector> pools, long getBlocksSize, long minBlockSize,
      long hotBlockTimeInterval) {
    this.pools = pools;
    this.getBlocksSize = getBlocksSize;
    this.minBlockSize = minBlockSize;
    this.hotBlockTimeInterval = hotBlockTimeInterval;
  }

  /** Fetches blocks of one source until {@code FETCH_FACTOR x bytesToGive} are known. */
  void fetch(NodeTable table, int source, StorageType type, long bytesToGive, FetchedBlocks into)
      throws IOException {
    long wantPerPool = Math.max(1, FETCH_FACTOR * bytesToGive / pools.size());
    for (int pool = 0; pool < pools.size(); pool++) {
      long got = 0;
      for (int call = 0; call < MAX_CALLS_PER_POOL && got < wantPerPool; call++) {
        // calls of the stock size: as many calls as the stock balancer makes, and more to choose from
        BlocksWithLocations blocks = ConnectorCalls.getBlocks(pools.get(pool), table.datanode(source),
            Math.max(getBlocksSize, minBlockSize), minBlockSize, hotBlockTimeInterval, type);
        into.countRpc();
        long fresh = 0;
        for (BlockWithLocations b : blocks.getBlocks()) {
          if (b instanceof StripedBlockWithLocations || b.getBlock().getNumBytes() < minBlockSize
              || !onType(table, source, b, type)) {
            continue;
          }
          BlockCandidate c = new BlockCandidate(pool, b.getBlock().getBlockId(),
              b.getBlock().getNumBytes(), holders(table, b));
          if (c.isHeldBy(source) && into.add(source, c, b)) {
            fresh += c.size();
          }
        }
        got += fresh;
        if (fresh == 0) {
          break; // the NameNode has nothing more to offer from this pool
        }
      }
    }
  }

  /** Whether the source's replica is on {@code type}: Hadoop 3.3's getBlocks returns every type's. */
  private static boolean onType(NodeTable table, int source, BlockWithLocations b, StorageType type) {
    if (ConnectorCalls.getBlocksFiltersByStorageType()) {
      return true;
    }
    String uuid = table.datanode(source).getDatanodeUuid();
    String[] uuids = b.getDatanodeUuids();
    StorageType[] types = b.getStorageTypes();
    for (int i = 0; i < uuids.length; i++) {
      if (uuid.equals(uuids[i]) && types[i] == type) {
        return true;
      }
    }
    return false;
  }

  private static int[] holders(NodeTable table, BlockWithLocations b) {
    List<Integer> nodes = new ArrayList<>();
    for (String uuid : b.getDatanodeUuids()) {
      int i = table.indexOf(uuid);
      if (i >= 0 && !nodes.contains(i)) {
        nodes.add(i);
      }
    }
    int[] out = new int[nodes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = nodes.get(i);
    }
    return out;
  }
}
