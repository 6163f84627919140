package org.bulwark.hdfs.balancer.exec;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The space a run's own lock file reserves, by storage ID. The lock file ({@code /system/balancer.id}, one per
 * namespace) is held open for the whole run, as the stock balancer holds it, and each DataNode of its write
 * pipeline reserves a full block for the replica being written and reports it as space not remaining. Counted
 * as use, it makes those DataNodes look a block fuller than they will be when the run ends: on a test cluster
 * of 1 MB blocks and 48 MB DataNodes, 2 points (2026-12-02: a run judged balanced at 7.49 points at most left a
 * DataNode 8.04 points off once its lock file was gone, threshold 8). On a production cluster it is one block
 * of a DataNode's terabytes; it is discounted there too, as it costs one RPC per namespace a run.
 */
final class LockFileReservations {
  private static final Logger LOG = LoggerFactory.getLogger(LockFileReservations.class);

  private LockFileReservations() {
  }

  /** Bytes reserved for the lock files' replicas being written, by storage ID; empty where none could be read. */
  static Map<String, Long> read(List<NameNodeConnector> connectors, Path lockFile) {
    Map<String, Long> reserved = new HashMap<>();
    for (NameNodeConnector c : connectors) {
      try {
        DistributedFileSystem fs = c.getDistributedFileSystem();
        String path = fs.makeQualified(lockFile).toUri().getPath();
        LocatedBlocks blocks = fs.getClient().getLocatedBlocks(path, 0);
        LocatedBlock last = blocks == null ? null : blocks.getLastLocatedBlock();
        if (last == null || blocks.isLastBlockComplete()) {
          continue;
        }
        long reservation = Math.max(0, fs.getFileStatus(lockFile).getBlockSize() - last.getBlockSize());
        for (String storage : last.getStorageIDs()) {
          reserved.merge(storage, reservation, Long::sum);
        }
        LOG.debug("The lock file {} of {} reserves {} bytes on storages {}: not counted as use", lockFile,
            c.getNameNodeUri(), reservation, java.util.Arrays.toString(last.getStorageIDs()));
      } catch (IOException e) {
        LOG.warn("Cannot locate the lock file {} of {} ({}): its DataNodes' reservation for it counts as use", lockFile,
            c.getNameNodeUri(), e.getMessage());
      }
    }
    return reserved.isEmpty() ? Collections.<String, Long>emptyMap() : reserved;
  }
}
