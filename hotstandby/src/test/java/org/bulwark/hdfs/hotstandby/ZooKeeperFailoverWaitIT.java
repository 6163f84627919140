package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.namenode.ha.NameNodeHAProxyFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider's wait through a failover, against two embedded NameNodes and a ZooKeeper record the test writes
 * itself (no controllers): it follows the NameNode whose call failed once that one is made active, a record
 * naming no configured NameNode does not make it ask the NameNodes in a loop, and a NameNode that accepts and
 * never answers does not hold it past its wait. Each was found by a review; "quickly" is checked against a wait
 * many times longer, so a loaded host cannot fail them.
 */
@Tag("compat")
class ZooKeeperFailoverWaitIT {
  @TempDir
  static Path hostDir;
  private static HotStandbyCluster ha;
  private static CuratorFramework writer;

  @BeforeAll
  static void start() throws Exception {
    ha = HotStandbyCluster.start(2);
    writer = CuratorFrameworkFactory.newClient(ha.cluster.zooKeeperConnectString(), new ExponentialBackoffRetry(100, 3));
    writer.start();
  }

  @AfterAll
  static void stop() {
    writer.close();
    ha.close();
  }

  private static Configuration clientConf(String failoverWait) {
    Configuration conf = new Configuration(ha.cluster.conf());
    conf.set("bulwark.hotstandby.client.failover-wait", failoverWait);
    conf.set("bulwark.hotstandby.client.host-dir", hostDir.toString());
    conf.setBoolean("dfs.client.failover.random.order", false);
    return conf;
  }

  /**
   * The client's call went to nn1 while it was standby; nn1 is made active 300 ms into the wait and ZooKeeper names
   * it. The provider used to accept only a record naming another NameNode and ask only the others, so it waited
   * out its whole wait and then went to nn2, a standby.
   */
  @Test
  void theNameNodeWhoseCallFailedIsFollowedOnceItIsMadeActive() throws Exception {
    ha.cluster.mini().transitionToStandby(0);
    ha.cluster.mini().transitionToStandby(1);
    Configuration conf = clientConf("20s");
    ZooKeeperFailoverProxyProvider<ClientProtocol> p = new ZooKeeperFailoverProxyProvider<>(
        conf, URI.create("hdfs://ns1"), ClientProtocol.class, new NameNodeHAProxyFactory<>());
    try {
      assertTrue(p.getProxy().proxyInfo.endsWith(":" + port(0)), p.getProxy().proxyInfo);
      long tookMillis = failOverWhile(p, p.getProxy().proxy, () -> {
        ha.cluster.mini().transitionToActive(0);
        publish("nn1", conf.getTrimmed("dfs.namenode.rpc-address.ns1.nn1"));
      });
      assertTrue(tookMillis < 10_000, "the wait ended when nn1 was active, not after 20 s: " + tookMillis + " ms");
      assertTrue(p.getProxy().proxyInfo.endsWith(":" + port(0)), "on nn1: " + p.getProxy().proxyInfo);
    } finally {
      p.close();
    }
  }

  /**
   * The same learned from ZooKeeper alone (the NameNodes answer no question): the client's session knows the record
   * naming nn2 when nn2's call fails, and a record of a later epoch naming nn2 again ends the wait.
   */
  @Test
  void aLaterEpochNamingTheNameNodeWhoseCallFailedEndsTheWait() throws Exception {
    ha.cluster.mini().transitionToStandby(0);
    ha.cluster.mini().transitionToActive(1);
    Configuration conf = clientConf("20s");
    String nn2 = conf.getTrimmed("dfs.namenode.rpc-address.ns1.nn2");
    publish("nn2", nn2, 7);
    ZooKeeperFailoverProxyProvider<ClientProtocol> p = new ZooKeeperFailoverProxyProvider<>(
        conf, URI.create("hdfs://ns1"), ClientProtocol.class, HaStateCounting.unanswered());
    try {
      p.performFailover(p.getProxy().proxy); // from nn1: the record names nn2, and the session stays open
      assertTrue(p.getProxy().proxyInfo.endsWith(":" + port(1)), "on nn2: " + p.getProxy().proxyInfo);
      long tookMillis = failOverWhile(p, p.getProxy().proxy, () -> publish("nn2", nn2, 8));
      assertTrue(tookMillis < 10_000, "the wait ended at the later epoch, not after 20 s: " + tookMillis + " ms");
      assertTrue(p.getProxy().proxyInfo.endsWith(":" + port(1)), "on nn2: " + p.getProxy().proxyInfo);
    } finally {
      p.close();
    }
  }

  /**
   * ZooKeeper names an active NameNode at an address this client's configuration lacks (clients naming the
   * NameNodes by other host names, a stale job configuration). The record and the relay answered at once, so the
   * provider asked the NameNodes as fast as they answered: tens of thousands of questions in 3 s.
   */
  @Test
  void aRecordNamingNoConfiguredNameNodeLeavesTheQuestionsPaced() throws Exception {
    ha.cluster.mini().transitionToStandby(0);
    ha.cluster.mini().transitionToStandby(1);
    publish("nn9", "10.255.255.1:8020");
    HaStateCounting factory = new HaStateCounting();
    ZooKeeperFailoverProxyProvider<ClientProtocol> p = new ZooKeeperFailoverProxyProvider<>(
        clientConf("3s"), URI.create("hdfs://ns1"), ClientProtocol.class, factory);
    try {
      p.performFailover(p.getProxy().proxy);
    } finally {
      p.close();
    }
    // Paced: pauses from 50 ms doubling to 1 s, two NameNodes: about a dozen in 3 s.
    assertTrue(factory.questions.get() <= 40, factory.questions.get() + " questions in one 3 s wait");
  }

  /**
   * A third NameNode, listed first, accepts and never answers (hung, or a host whose connects hang). The client's
   * call fails on nn2, made standby, while nn1 is active. The provider asked the NameNodes one by one in list
   * order, so it waited for the silent one's RPC timeout (60 s here, 2 minutes by default) first, far past its own
   * wait, with every thread of its client held meanwhile.
   */
  @Test
  void aSilentNameNodeDoesNotHoldTheWait() throws Exception {
    ha.cluster.mini().transitionToStandby(0);
    ha.cluster.mini().transitionToActive(1);
    try (SilentPort silent = new SilentPort()) {
      Configuration conf = clientConf("1s");
      publish("nn2", conf.getTrimmed("dfs.namenode.rpc-address.ns1.nn2"));
      conf.set("dfs.ha.namenodes.ns1", "nn3,nn1,nn2");
      conf.set("dfs.namenode.rpc-address.ns1.nn3", "127.0.0.1:" + silent.address().getPort());
      conf.set("ipc.client.rpc-timeout.ms", "60000");
      ZooKeeperFailoverProxyProvider<ClientProtocol> p = new ZooKeeperFailoverProxyProvider<>(
          conf, URI.create("hdfs://ns1"), ClientProtocol.class, new NameNodeHAProxyFactory<>());
      try {
        p.performFailover(p.getProxy().proxy); // a new client starts on nn3, the first listed
        assertTrue(p.getProxy().proxyInfo.endsWith(":" + port(1)), "on nn2: " + p.getProxy().proxyInfo);

        ha.cluster.mini().transitionToStandby(1);
        ha.cluster.mini().transitionToActive(0);
        publish("nn1", conf.getTrimmed("dfs.namenode.rpc-address.ns1.nn1"));
        long start = System.nanoTime();
        p.performFailover(p.getProxy().proxy);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMillis < 20_000, "not held by the silent NameNode's 60 s RPC timeout: " + tookMillis + " ms");
        assertTrue(p.getProxy().proxyInfo.endsWith(":" + port(0)), "on nn1: " + p.getProxy().proxyInfo);
      } finally {
        p.close();
      }
    }
  }

  /** Something the test does 300 ms into a failover wait. */
  private interface DuringTheWait {
    void run() throws Exception;
  }

  /** How long {@code p} took to fail over from {@code failed}, {@code during} done 300 ms into its wait. */
  private static long failOverWhile(ZooKeeperFailoverProxyProvider<ClientProtocol> p, ClientProtocol failed,
      DuringTheWait during) throws Exception {
    Thread failover = new Thread(() -> p.performFailover(failed));
    long start = System.nanoTime();
    failover.start();
    Thread.sleep(300);
    during.run();
    failover.join(30_000);
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  private static void publish(String nameNode, String rpcAddress) throws Exception {
    publish(nameNode, rpcAddress, 7);
  }

  private static void publish(String nameNode, String rpcAddress, long epoch) throws Exception {
    RecordWriter.publish(writer, nameNode, rpcAddress, epoch);
  }

  private static int port(int nameNode) {
    return ha.cluster.mini().getNameNode(nameNode).getNameNodeAddress().getPort();
  }
}
