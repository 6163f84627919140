package org.bulwark.hdfs.monitor.collect;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.bulwark.hdfs.monitor.advisor.ErasureCodingLayout;
import org.bulwark.hdfs.monitor.advisor.StorageCostAdvisor;
import org.bulwark.hdfs.monitor.history.ObservedBlock;
import org.bulwark.hdfs.monitor.store.HistoryStore;

/**
 * Walks a namespace with batched listings that carry block locations ({@code getListing} with
 * {@code needLocation}: one RPC returns up to {@code dfs.ls.limit} entries with every block's replicas),
 * never one {@code getBlockLocations} per file and never fsck. Every RPC goes through the rate limiter.
 */
public final class NamespaceScanner {
  private final DFSClient client;
  private final String namespace;
  private final HistoryStore store;
  private final RpcRateLimiter limiter;
  private final String skippedDir;
  private final StorageCostAdvisor advisor;

  /**
   * @param skippedDir a directory left out of the scan (the health canary's), or null
   * @param advisor what every file is also handed to
   */
  public NamespaceScanner(DFSClient client, String namespace, HistoryStore store, RpcRateLimiter limiter, String skippedDir,
      StorageCostAdvisor advisor) {
    this.client = client;
    this.namespace = namespace;
    this.store = store;
    this.limiter = limiter;
    this.skippedDir = skippedDir;
    this.advisor = advisor;
  }

  public NamespaceScan scan() throws IOException, InterruptedException {
    NamespaceScan scan = new NamespaceScan(namespace);
    scan.started = System.currentTimeMillis();
    long rpcsBefore = limiter.calls();
    Deque<String> dirs = new ArrayDeque<>();
    dirs.add("/");
    while (!dirs.isEmpty()) {
      String dir = dirs.poll();
      byte[] after = HdfsFileStatus.EMPTY_NAME;
      while (true) {
        limiter.acquire();
        DirectoryListing listing = client.listPaths(dir, after, true);
        if (listing == null) {
          break; // deleted while we walked
        }
        for (HdfsFileStatus st : listing.getPartialListing()) {
          String path = st.getFullName(dir);
          if (st.isDirectory()) {
            if (!path.equals(skippedDir)) {
              dirs.add(path);
            }
          } else if (st instanceof HdfsLocatedFileStatus) {
            addFile(scan, path, (HdfsLocatedFileStatus) st);
          }
        }
        if (!listing.hasMore()) {
          break;
        }
        after = listing.getLastName();
      }
    }
    scan.rpcs = limiter.calls() - rpcsBefore;
    scan.finished = System.currentTimeMillis();
    return scan;
  }

  private void addFile(NamespaceScan scan, String path, HdfsLocatedFileStatus st) throws IOException {
    LocatedBlocks blocks = st.getLocatedBlocks();
    ErasureCodingPolicy ec = st.getErasureCodingPolicy();
    // Striped: data plus the parity of every stripe, the last one's as large as its first data cell.
    long raw = ec == null ? st.getLen() * Math.max(1, st.getReplication())
        : new ErasureCodingLayout(ec.getName(), ec.getNumDataUnits(), ec.getNumParityUnits(), ec.getCellSize())
            .rawBytes(st.getLen());
    boolean uc = blocks != null && blocks.isUnderConstruction();
    if (blocks != null) {
      int n = blocks.getLocatedBlocks().size();
      for (int i = 0; i < n; i++) {
        LocatedBlock b = blocks.getLocatedBlocks().get(i);
        if (scan.blockPool == null) {
          scan.blockPool = b.getBlock().getBlockPoolId();
        }
        DatanodeInfoWithStorage[] locations = b.getLocations();
        int[] storages = new int[locations.length];
        Set<String> racks = new HashSet<>();
        for (int j = 0; j < locations.length; j++) {
          DatanodeInfoWithStorage d = locations[j];
          int dn = store.dataNodeId(d.getDatanodeUuid(), d.getHostName(), d.getXferAddr(), d.getNetworkLocation());
          StorageType type = d.getStorageType();
          storages[j] = store.storageId(dn, d.getStorageID(), type == null ? "DISK" : type.name());
          racks.add(d.getNetworkLocation());
          scan.byDataNode.computeIfAbsent(d.getDatanodeUuid(),
              u -> new DataNodeReplicas(u, d.getHostName(), d.getNetworkLocation())).replicas++;
        }
        boolean lastOfOpenFile = uc && i == n - 1;
        ObservedBlock observed = !(b instanceof LocatedStripedBlock) || ec == null
            ? new ObservedBlock(st.getFileId(), path, storages, b.isCorrupt(), lastOfOpenFile)
            : new ObservedBlock(st.getFileId(), path, storages, distinctInternalBlocks((LocatedStripedBlock) b),
                dataBlocks(ec, b.getBlockSize()), b.isCorrupt(), lastOfOpenFile);
        scan.blocks.put(b.getBlock().getBlockId(), observed);
        scan.replicas += locations.length;
        scan.blocksByRackCount.merge(racks.size(), 1L, Long::sum);
        if (observed.missing()) {
          scan.missing++;
        } else if (b.isCorrupt()) {
          scan.corrupt++;
        }
      }
    }
    scan.files++;
    advisor.addFile(path, st.getLen(), raw);
  }

  private static int distinctInternalBlocks(LocatedStripedBlock group) {
    Set<Byte> indices = new HashSet<>();
    for (byte index : group.getBlockIndices()) {
      indices.add(index);
    }
    return indices.size();
  }

  /**
   * The data blocks of a group of {@code groupBytes}: one per cell of its first stripe, at most the policy's
   * data units (a group smaller than a stripe has fewer; the NameNode counts the same).
   */
  static int dataBlocks(ErasureCodingPolicy ec, long groupBytes) {
    return (int) Math.min(ec.getNumDataUnits(), Math.max(0, groupBytes - 1) / ec.getCellSize() + 1);
  }
}
