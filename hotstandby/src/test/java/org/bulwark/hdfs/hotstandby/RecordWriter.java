package org.bulwark.hdfs.hotstandby;

import org.apache.curator.framework.CuratorFramework;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;

/**
 * Writes ns1's active-NameNode record as a controller would, or deletes it, for client tests that run no
 * controller: they set the record themselves, wrong ones included.
 */
final class RecordWriter {
  private static final String RECORD = "/bulwark-ha/ns1/active";

  private RecordWriter() {
  }

  /** Publishes an ACTIVE record naming {@code nameNode} at {@code rpcAddress} and {@code epoch}. */
  static void publish(CuratorFramework zk, String nameNode, String rpcAddress, long epoch) throws Exception {
    byte[] data = new ActiveRecord("ns1", nameNode, rpcAddress, epoch, System.currentTimeMillis(),
        ActiveRecord.State.ACTIVE, 0).encode();
    if (zk.checkExists().forPath(RECORD) == null) {
      zk.create().creatingParentsIfNeeded().forPath(RECORD, data);
    } else {
      zk.setData().forPath(RECORD, data);
    }
  }

  /** Removes the record, as before any controller published one. */
  static void delete(CuratorFramework zk) throws Exception {
    if (zk.checkExists().forPath(RECORD) != null) {
      zk.delete().forPath(RECORD);
    }
  }
}
