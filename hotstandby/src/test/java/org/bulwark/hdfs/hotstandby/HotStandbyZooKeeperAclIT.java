package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.junit.jupiter.api.Test;

/**
 * The znodes that tell clients where the active NameNode is, on a ZooKeeper with digest identities:
 * only the controllers' identity can change them, anybody can read them, a controller with another
 * identity refuses to start, and znodes created open are secured when the controllers restart secured.
 */
class HotStandbyZooKeeperAclIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String CONTROLLERS = "hdfs-zkfcs:s3cret";

  private static void secured(Configuration conf) {
    try {
      conf.set("ha.zookeeper.acl", "digest:" + DigestAuthenticationProvider.generateDigest(CONTROLLERS) + ":rwcda");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    conf.set("ha.zookeeper.auth", "digest:" + CONTROLLERS);
  }

  private static CuratorFramework zooKeeperAs(HotStandbyCluster ha, String digestIdentity) throws InterruptedException {
    CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder()
        .connectString(ha.cluster.zooKeeperConnectString()).retryPolicy(new RetryOneTime(100));
    if (digestIdentity != null) {
      b.authorization("digest", digestIdentity.getBytes(StandardCharsets.UTF_8));
    }
    CuratorFramework zk = b.build();
    zk.start();
    zk.blockUntilConnected();
    return zk;
  }

  @Test
  void onlyControllersWriteTheActiveRecordAndClientsStillFindTheActiveNameNode() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, conf -> conf.set("dfs.client.failover.proxy.provider.ns1",
        ZooKeeperFailoverProxyProvider.class.getName()), HotStandbyZooKeeperAclIT::secured)) {
      ha.startControllers();
      int active = ha.awaitActive(WAIT);
      ZNodes paths = new ZNodes("/bulwark-ha", "ns1");
      try (CuratorFramework anonymous = zooKeeperAs(ha, null); CuratorFramework mallory = zooKeeperAs(ha, "mallory:guess")) {
        for (CuratorFramework intruder : List.of(anonymous, mallory)) {
          ActiveRecord record = ActiveRecord.decode(intruder.getData().forPath(paths.active()));
          assertTrue(record.isActive(), "clients may read the record");
          byte[] rogue = ActiveRecord.decode(intruder.getData().forPath(paths.active())).encode();
          assertThrows(KeeperException.NoAuthException.class, () -> intruder.setData().forPath(paths.active(), rogue));
          assertThrows(KeeperException.NoAuthException.class, () -> intruder.delete().forPath(paths.lock()));
          assertThrows(KeeperException.NoAuthException.class, () -> intruder.create().forPath(paths.base() + "/rogue"));
          assertThrows(KeeperException.NoAuthException.class, () -> intruder.setData().forPath(paths.epoch(), new byte[] {'9'}));
          assertThrows(KeeperException.NoAuthException.class,
              () -> intruder.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(paths.active()));
        }
        Set<ACL> expected = new HashSet<>(List.of(
            new ACL(ZooDefs.Perms.ALL, new Id("digest", DigestAuthenticationProvider.generateDigest(CONTROLLERS))),
            new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)));
        // (ZooKeeper shows digests only to identities with admin rights on the znode.)
        try (CuratorFramework controllers = zooKeeperAs(ha, CONTROLLERS)) {
          for (String p : List.of("/bulwark-ha", paths.base(), paths.candidates(), paths.epoch(), paths.active(), paths.lock())) {
            assertEquals(expected, new HashSet<>(controllers.getACL().forPath(p)), p);
          }
        }
      }
      // A client without any ZooKeeper identity follows a failover through the record.
      ha.fsIsUsable();
      ha.killNameNode(active);
      ha.awaitActiveOtherThan(active, WAIT);
      ha.fsIsUsable();
    }
  }

  @Test
  void aControllerZooKeeperRefusesDoesNotStartAndOpenZnodesAreSecuredOnRestart() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      // First an open cluster: the znodes are world-writable.
      ha.startControllers();
      ha.awaitActive(WAIT);
      ha.stopController(0);
      ha.stopController(1);
      ZNodes paths = new ZNodes("/bulwark-ha", "ns1");

      // The controllers restart secured; the first one brings the open znodes under the ACL.
      Configuration conf0 = ha.controllerConf(0);
      secured(conf0);
      HotStandbyController c0 = new HotStandbyController(conf0);
      c0.start();
      try (CuratorFramework anonymous = zooKeeperAs(ha, null)) {
        for (String p : List.of(paths.base(), paths.epoch(), paths.active())) {
          assertThrows(KeeperException.NoAuthException.class, () -> anonymous.setData().forPath(p, new byte[0]), p);
        }
        assertNotNull(anonymous.getData().forPath(paths.active()));
      }

      // A controller with another identity refuses to start, with one line, and leaves nothing behind.
      Configuration conf1 = ha.controllerConf(1);
      secured(conf1);
      conf1.set("ha.zookeeper.auth", "digest:mallory:guess");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new HotStandbyController(conf1).start());
      assertTrue(e.getMessage().startsWith("ZooKeeper " + ha.cluster.zooKeeperConnectString()
          + " refuses this controller (digest:mallory) write access to /bulwark-ha/ns1"), e.getMessage());
      assertTrue(!e.getMessage().contains("\n"), "one line");
      try (CuratorFramework zk = zooKeeperAs(ha, CONTROLLERS)) {
        assertEquals(List.of(), zk.getChildren().forPath(paths.candidates()).stream().filter("nn2"::equals).toList());
      }
      c0.close();
    }
  }
}
