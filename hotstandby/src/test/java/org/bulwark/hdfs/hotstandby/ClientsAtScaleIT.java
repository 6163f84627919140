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
 *
 * <p>Slow because it starts 16 client JVMs beside a cluster whose NameNodes and controllers are processes of their
 * own, twice, to see ZooKeeper's per-host limit bite.
 */
class ClientsAtScaleIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final int MAX_CLIENT_CNXNS = 8;
  private static final int CLIENTS = 16;

  @Test
  void moreClientJvmsThanZooKeeperAdmitsRideThroughAFailover() throws Exception {
    File dir = new File("target/clients-at-scale-" + System.currentTimeMillis());
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, MAX_CLIENT_CNXNS,
        ProcessHaCluster::sessionsOutlastingPauses)) {
      ha.startBulwarkControllers();
      Configuration client = ha.zooKeeperProviderConf();
      long rejectedBefore = ServerMetrics.getMetrics().CONNECTION_REJECTED.get();
      try (ClientFleet clients = ClientFleet.start(dir, client, CLIENTS, WAIT)) {
        assertEquals(0, ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore,
            "between failovers the clients hold no ZooKeeper session");
        List<ClientFleet.Result> results = killActiveAndStop(ha, clients, ha.active());
        long rejected = ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore;
        // Within its connect wait (1 s) a client's ZooKeeper library may try again once or twice; then it stops.
        assertTrue(rejected <= 3 * CLIENTS,
            "ZooKeeper refused " + rejected + " connections: a few per refused client at most, not a stream");
        System.out.println("clients at scale: " + results + ", refused " + rejected);
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /**
   * Task JVMs as YARN starts them, each with its container's own {@code java.io.tmpdir}: they still share the
   * host's session slots ({@code bulwark.hotstandby.client.host-dir}), so with 4 slots and ZooKeeper admitting 8
   * connections from the host (the controllers' 2 included) nothing is refused; the JVMs without a session are
   * served again after the failover too, and the record those with one relayed names the new active NameNode.
   */
  @Test
  void containersWithTheirOwnTmpDirsShareTheHostsSessionSlots() throws Exception {
    File dir = new File("target/clients-at-scale-containers-" + System.currentTimeMillis());
    File hostDir = new File(dir, "host");
    assertTrue(hostDir.mkdirs() || hostDir.isDirectory());
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, MAX_CLIENT_CNXNS,
        ProcessHaCluster::sessionsOutlastingPauses)) {
      ha.startBulwarkControllers();
      Configuration client = ha.zooKeeperProviderConf();
      client.set("bulwark.hotstandby.client.host-dir", hostDir.getAbsolutePath());
      client.setInt("bulwark.hotstandby.client.zookeeper.sessions-per-host", 4);
      long rejectedBefore = ServerMetrics.getMetrics().CONNECTION_REJECTED.get();
      File containers = new File(dir, "containers");
      for (int i = 0; i < CLIENTS; i++) {
        assertTrue(new File(containers, "container-" + i + "/tmp").mkdirs());
      }
      try (ClientFleet clients = ClientFleet.start(dir, client, CLIENTS, WAIT,
          List.of("-Djava.io.tmpdir=" + containers.getAbsolutePath() + "/container-{i}/tmp"))) {
        int first = ha.active();
        killActiveAndStop(ha, clients, first);
        assertEquals(0, ServerMetrics.getMetrics().CONNECTION_REJECTED.get() - rejectedBefore,
            "at most 4 client sessions from the host, whatever each JVM's java.io.tmpdir");
        File[] relayed = hostDir.listFiles(
            (d, name) -> name.startsWith("bulwark-active-namenode-") && !name.endsWith(".tmp"));
        assertEquals(1, relayed == null ? 0 : relayed.length, "one relayed record in the host directory");
        String record = new String(java.nio.file.Files.readAllBytes(relayed[0].toPath()),
            java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(record.contains("namenode=" + ProcessHaCluster.id(1 - first) + "\n"),
            "relays the new active NameNode: " + record);
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  /**
   * Kills NameNode {@code active}, waits for the other to be active and 3 s more, stops the clients and asserts
   * that each was served after the failover; returns what they reported.
   */
  private static List<ClientFleet.Result> killActiveAndStop(ProcessHaCluster ha, ClientFleet clients, int active)
      throws Exception {
    ha.killNameNode(active);
    Await.until("the other NameNode is active", WAIT, () -> ha.active() == 1 - active);
    long activeAt = System.nanoTime();
    Thread.sleep(3000);
    // A client last served less than this before it stopped was served after the failover.
    long sinceActive = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - activeAt);
    List<ClientFleet.Result> results = clients.stop();
    for (int i = 0; i < results.size(); i++) {
      ClientFleet.Result r = results.get(i);
      assertTrue(r.failures == 0 && r.lastServedMillisAgo >= 0 && r.lastServedMillisAgo < sinceActive,
          "client " + i + " was served after the failover: " + r);
    }
    return results;
  }
}
