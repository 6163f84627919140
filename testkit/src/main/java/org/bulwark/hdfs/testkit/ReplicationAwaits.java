package org.bulwark.hdfs.testkit;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;

/**
 * Waits until a {@link BulwarkMiniCluster}'s blocks have their replicas. Exists because replicas reach
 * the NameNode asynchronously, after writes and failures, and a test that checks too early is flaky.
 */
final class ReplicationAwaits {
  private final ClientCache clients;
  private final NameNodes nameNodes;

  ReplicationAwaits(ClientCache clients, NameNodes nameNodes) {
    this.clients = clients;
    this.nameNodes = nameNodes;
  }

  /**
   * Waits until every block of every file under {@code dir} of nameservice {@code ns} has as many
   * replicas reported to the NameNode as its file's replication factor. A closed file's last replicas
   * reach the NameNode in incremental block reports, a moment after the writer is done.
   */
  void awaitReplication(int ns, Path dir, Duration timeout) throws TimeoutException, InterruptedException {
    Await.until("every block under " + dir + " has all its replicas", timeout, () -> {
      RemoteIterator<LocatedFileStatus> files = clients.client(ns, null).listFiles(dir, true);
      while (files.hasNext()) {
        LocatedFileStatus f = files.next();
        for (BlockLocation b : f.getBlockLocations()) {
          if (b.getHosts().length < f.getReplication()) {
            return false;
          }
        }
      }
      return true;
    });
  }

  /**
   * Waits until the active NameNode of nameservice {@code ns} has checked every block's placement: no
   * block is postponed. After a failover the new active NameNode postpones the blocks with a replica on a
   * DataNode that has not sent it a full block report; they are in no reconstruction queue, yet {@code fsck}
   * counts those the placement policy rejects as mis-replicated. Only once they are checked can
   * {@link #awaitFullyReplicated} vouch for their placement. (The start-up scan's progress is no help: it
   * stays below 1 when blocks are deleted during the scan.)
   */
  void awaitPlacementChecked(int ns, Duration timeout) throws TimeoutException, InterruptedException {
    awaitOnActiveNameNode(ns, "has checked every block's placement", timeout,
        fsn -> fsn.getPostponedMisreplicatedBlocks() == 0, fsn -> "postponed " + fsn.getPostponedMisreplicatedBlocks());
  }

  /**
   * Waits until the active NameNode of nameservice {@code ns} has no missing, under-replicated (or badly
   * distributed) or pending-reconstruction block. The NameNode's low-redundancy and pending counts are
   * snapshots its redundancy monitor takes once a round; each check takes a fresh one first, or a block
   * queued since the last round would pass unseen. The timeout's message gives the three counts.
   */
  void awaitFullyReplicated(int ns, Duration timeout) throws TimeoutException, InterruptedException {
    awaitOnActiveNameNode(ns, "has every block fully replicated", timeout,
        fsn -> {
          BlockManagerTestUtil.updateState(fsn.getBlockManager());
          return fsn.getMissingBlocksCount() == 0 && fsn.getLowRedundancyBlocks() == 0
              && fsn.getPendingReconstructionBlocks() == 0;
        },
        fsn -> "missing " + fsn.getMissingBlocksCount() + ", low redundancy " + fsn.getLowRedundancyBlocks()
            + ", pending reconstruction " + fsn.getPendingReconstructionBlocks());
  }

  /** Waits until {@code done} holds for the active NameNode of {@code ns}; a timeout's message ends with {@code counts}. */
  private void awaitOnActiveNameNode(int ns, String what, Duration timeout, Predicate<FSNamesystem> done,
      Function<FSNamesystem, String> counts) throws TimeoutException, InterruptedException {
    try {
      Await.until("nameservice " + ns + " " + what, timeout, () -> done.test(nameNodes.active(ns)));
    } catch (TimeoutException e) {
      String now;
      try {
        now = counts.apply(nameNodes.active(ns));
      } catch (IllegalStateException noActive) {
        now = noActive.getMessage();
      }
      TimeoutException t = new TimeoutException(e.getMessage() + " (" + now + ")");
      t.initCause(e.getCause());
      throw t;
    }
  }
}
