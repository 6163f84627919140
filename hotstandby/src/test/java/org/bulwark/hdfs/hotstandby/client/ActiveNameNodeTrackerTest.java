package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.zookeeper.ZooKeeperAccess;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FreePorts;
import org.junit.jupiter.api.Test;

/**
 * A client's tracker waits for ZooKeeper to name a new active NameNode only while it has a session: a
 * client that ZooKeeper refused (past {@code maxClientCnxns}) or cannot reach must fail over as the stock
 * provider does, not after {@code bulwark.hotstandby.client.failover-wait}.
 */
class ActiveNameNodeTrackerTest {
  private static final ZNodes PATHS = new ZNodes("/bulwark-ha", "ns1");

  private static Configuration quorum(String connectString) {
    Configuration conf = new Configuration(false);
    conf.set("bulwark.hotstandby.zookeeper.quorum", connectString);
    return conf;
  }

  @Test
  void withoutASessionAFailoverDoesNotWaitForOne() throws Exception {
    String nobody = "127.0.0.1:" + FreePorts.pick(1)[0];
    ActiveNameNodeTracker t = new ActiveNameNodeTracker(ZooKeeperAccess.from(quorum(nobody)), "/bulwark-ha", "ns1", 2000);
    try {
      t.start();
      // Were it to wait for a session, it would wait the whole two minutes.
      assertNull(assertTimeoutPreemptively(Duration.ofSeconds(30), () -> t.await(r -> true, 120_000)));
    } finally {
      t.close();
    }
  }

  @Test
  void withASessionItWaitsForTheRecordToNameAnActiveNameNode() throws Exception {
    try (TestingServer zk = new TestingServer(true)) {
      ActiveNameNodeTracker t = new ActiveNameNodeTracker(ZooKeeperAccess.from(quorum(zk.getConnectString())),
          "/bulwark-ha", "ns1", 2000);
      CuratorFramework writer = CuratorFrameworkFactory.newClient(zk.getConnectString(), new ExponentialBackoffRetry(100, 3));
      try {
        t.start();
        writer.start();
        Await.until("the tracker is connected", Duration.ofSeconds(30), t::usable);
        Thread publish = new Thread(() -> {
          try {
            Thread.sleep(500);
            writer.create().creatingParentsIfNeeded().forPath(PATHS.active(), new ActiveRecord("ns1", "nn2",
                "nn2.example.com:8020", "nn2.example.com:8022", "nn2.example.com:9870", 3, 1, ActiveRecord.State.ACTIVE, 0)
                .encode());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
        publish.start();
        ActiveRecord r = t.await(x -> true, 60_000);
        publish.join();
        assertNotNull(r, "the record published while the client waited");
        assertEquals("nn2", r.nameNodeId());
      } finally {
        writer.close();
        t.close();
      }
    }
  }
}
