package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.zookeeper.server.ServerMetrics;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * More client JVMs on one host than ZooKeeper admits connections from it ({@code maxClientCnxns}), reading
 * through {@link ZooKeeperFailoverProxyProvider} while the active NameNode is killed: every client is
 * served again after the failover; ZooKeeper refuses each client a few times at most, within its connect
 * wait (the refused ones ask the NameNodes, and do not keep reconnecting); the controllers, connected before the clients, keep their
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
        long activeAt = System.nanoTime();
        Thread.sleep(3000);
        // A client last served less than this before it stopped was served after the failover.
        long sinceActive = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - activeAt);
        List<ClientFleet.Result> results = clients.stop();
        long rejected = ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore;
        for (int i = 0; i < results.size(); i++) {
          ClientFleet.Result r = results.get(i);
          assertTrue(r.failures == 0 && r.lastServedMillisAgo >= 0 && r.lastServedMillisAgo < sinceActive,
              "client " + i + " was served after the failover: " + r);
        }
        // Within its connect wait (1 s) a client's ZooKeeper library may try again once or twice; then it stops.
        assertTrue(rejected <= 3 * CLIENTS,
            "ZooKeeper refused " + rejected + " connections: a few per refused client at most, not a stream");
        System.out.println("clients at scale: " + results + ", refused " + rejected);
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }
}
