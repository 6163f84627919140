package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.zookeeper.server.ServerMetrics;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * More client JVMs on one host than ZooKeeper admits connections from it ({@code maxClientCnxns}), reading
 * through {@link ZooKeeperFailoverProxyProvider} while the active NameNode is killed: every client is
 * served again after the failover; ZooKeeper refuses each client at most once (the refused ones ask the
 * NameNodes, and do not keep reconnecting); the controllers, connected before the clients, keep their
 * sessions and the failover happens as usual. The clients hold no session before the failover, so none is
 * refused until then.
 */
class ClientsAtScaleTest {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final int MAX_CLIENT_CNXNS = 8;
  private static final int CLIENTS = 16;

  @Test
  void moreClientJvmsThanZooKeeperAdmitsRideThroughAFailover() throws Exception {
    File dir = new File("target/clients-at-scale-" + System.currentTimeMillis());
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, MAX_CLIENT_CNXNS, c -> { })) {
      ha.startBulwarkControllers();
      Configuration client = ha.zooKeeperProviderConf();
      long rejectedBefore = ServerMetrics.getMetrics().CONNECTION_REJECTED.get();
      try (ClientFleet clients = ClientFleet.start(dir, client, CLIENTS, WAIT)) {
        assertEquals(0, ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore,
            "between failovers the clients hold no ZooKeeper session");
        int first = ha.active();
        ha.killNameNode(first);
        Await.until("the other NameNode is active", WAIT, () -> ha.active() == 1 - first);
        Thread.sleep(3000);
        List<ClientFleet.Result> results = clients.stop();
        long rejected = ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore;
        for (int i = 0; i < results.size(); i++) {
          ClientFleet.Result r = results.get(i);
          assertTrue(r.failures == 0 && r.lastServedMillisAgo >= 0 && r.lastServedMillisAgo < 1000,
              "client " + i + " was served after the failover: " + r);
        }
        assertTrue(rejected <= CLIENTS,
            "ZooKeeper refused " + rejected + " connections: some clients once each, none again");
        System.out.println("clients at scale: " + results + ", refused " + rejected);
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }
}
