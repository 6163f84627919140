package org.bulwark.hdfs.testkit;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
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
   * Waits until the active NameNode of nameservice {@code ns} has no missing, under-replicated or
   * pending-reconstruction block. The timeout's message gives the three counts.
   */
  void awaitFullyReplicated(int ns, Duration timeout) throws TimeoutException, InterruptedException {
    try {
      Await.until("nameservice " + ns + " has every block fully replicated", timeout, () -> {
        FSNamesystem fsn = nameNodes.active(ns);
        return fsn.getMissingBlocksCount() == 0 && fsn.getLowRedundancyBlocks() == 0
            && fsn.getPendingReconstructionBlocks() == 0;
      });
    } catch (TimeoutException e) {
      String counts;
      try {
        FSNamesystem fsn = nameNodes.active(ns);
        counts = "missing " + fsn.getMissingBlocksCount() + ", low redundancy " + fsn.getLowRedundancyBlocks()
            + ", pending reconstruction " + fsn.getPendingReconstructionBlocks();
      } catch (IllegalStateException noActive) {
        counts = noActive.getMessage();
      }
      TimeoutException t = new TimeoutException(e.getMessage() + " (" + counts + ")");
      t.initCause(e.getCause());
      throw t;
    }
  }
}
