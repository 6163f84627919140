package org.bulwark.hdfs.hotstandby.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.CloseableUtils;
import org.apache.hadoop.ha.ServiceFailedException;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A controller's handoff requests on a real ZooKeeper ({@link TestingServer}): the request stays while any caller
 * waits on it, goes with the last, is refused while another controller's stands, and one nobody waits on is removed
 * as a leftover.
 */
class HandoffRequestsIT {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private final ZNodes paths = new ZNodes("/bulwark-ha", "ns1");
  private final Deque<Closeable> opened = new ArrayDeque<>();
  private TestingServer server;

  @BeforeEach
  void startZooKeeper() throws Exception {
    server = new TestingServer(FreePorts.pick(), true);
  }

  @AfterEach
  void closeEverything() {
    while (!opened.isEmpty()) {
      CloseableUtils.closeQuietly(opened.pop());
    }
    CloseableUtils.closeQuietly(server);
  }

  private LeaderElection election(String nameNode) throws Exception {
    CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
        .sessionTimeoutMs(10_000).connectionTimeoutMs(10_000).retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
    opened.push(client);
    client.start();
    assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS));
    LeaderElection election = new LeaderElection(client, paths, nameNode, () -> { });
    opened.push(election);
    election.start();
    return election;
  }

  private static void awaitTarget(LeaderElection election, String expected) throws Exception {
    Await.until("the handoff names " + expected, WAIT, () -> Objects.equals(expected, election.handoffTarget()));
  }

  @Test
  void theRequestStaysWhileAnyCallerWaitsAndGoesWithTheLast() throws Exception {
    LeaderElection nn1 = election("nn1");
    HandoffRequests requests = new HandoffRequests(nn1, "nn1");
    requests.open("ns1");
    requests.open("ns1");
    awaitTarget(nn1, "nn1");
    requests.close();
    Thread.sleep(200);
    assertEquals("nn1", nn1.handoffTarget(), "one caller still waits");
    requests.close();
    awaitTarget(nn1, null);
  }

  @Test
  void anotherControllersStandingRequestIsRefusedAndLeftAlone() throws Exception {
    LeaderElection nn1 = election("nn1");
    LeaderElection nn2 = election("nn2");
    HandoffRequests first = new HandoffRequests(nn1, "nn1");
    HandoffRequests second = new HandoffRequests(nn2, "nn2");
    first.open("ns1");
    awaitTarget(nn2, "nn1");
    ServiceFailedException refused = assertThrows(ServiceFailedException.class, () -> second.open("ns1"));
    assertTrue(refused.getMessage().contains("another manual failover of ns1 is in progress"), refused.getMessage());
    second.close();
    Thread.sleep(200);
    assertEquals("nn1", nn2.handoffTarget(), "the refused controller removes no request of another's");
    second.removeLeftover();
    assertEquals("nn1", nn1.handoffTarget(), "nor as a leftover: it names another NameNode");
    first.close();
    awaitTarget(nn2, null);
  }

  @Test
  void aRequestNobodyWaitsOnIsALeftover() throws Exception {
    LeaderElection nn1 = election("nn1");
    HandoffRequests requests = new HandoffRequests(nn1, "nn1");
    // As after a caller whose removal failed: the request stands and no caller waits on it.
    assertTrue(nn1.requestHandoff());
    awaitTarget(nn1, "nn1");
    requests.open("ns1");
    requests.removeLeftover();
    assertEquals("nn1", nn1.handoffTarget(), "a caller waits on it");
    requests.close();
    awaitTarget(nn1, null);
    assertTrue(nn1.requestHandoff());
    awaitTarget(nn1, "nn1");
    requests.removeLeftover();
    awaitTarget(nn1, null);
    assertNull(nn1.handoffTarget());
  }
}
