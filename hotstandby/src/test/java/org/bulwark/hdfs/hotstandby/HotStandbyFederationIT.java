package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.FreePorts;
import org.bulwark.hdfs.testkit.SplitBrainChecker;
import org.junit.jupiter.api.Test;

/** One controller per NameNode of every nameservice of a federated cluster; each nameservice fails over on its own. */
class HotStandbyFederationIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void eachNameserviceElectsAndFailsOverOnItsOwn() throws Exception {
    int[] ports = FreePorts.pick(4);
    HotStandbyCluster.haltsThrow();
    try (BulwarkMiniCluster cluster = BulwarkMiniCluster.builder().topology("/r1:2,/r2:1")
        .nameservices(2).nameNodesPerNameservice(2).activateFirstNameNodes(false)
        .configure(conf -> {
          conf.setBoolean("dfs.ha.automatic-failover.enabled", true);
          conf.set("dfs.ha.fencing.methods", "shell(true)");
          HotStandbyCluster.fastFailover(conf);
          // Four controllers, and ns1 must see no failover while ns2 has one: 6 s sessions, so that a loaded 2-core
          // host holding up the in-process ZooKeeper for 2 s (seen once) ends none (a killed NameNode refuses at once).
          conf.set("bulwark.hotstandby.zookeeper.session-timeout", "6s");
          int p = 0;
          for (String ns : List.of("ns1", "ns2")) {
            conf.set("dfs.client.failover.proxy.provider." + ns, ZooKeeperFailoverProxyProvider.class.getName());
            for (String nn : List.of("nn1", "nn2")) {
              conf.setInt("dfs.ha.zkfc.port." + ns + "." + nn, ports[p++]);
            }
          }
        }).build();
        // By each nameservice's own NameNodes: MiniDFSCluster may list ns2's first.
        SplitBrainChecker ns1 = SplitBrainChecker.start(cluster.mini(), cluster.nameNodeIndex(0, 0), cluster.nameNodeIndex(0, 1));
        SplitBrainChecker ns2 = SplitBrainChecker.start(cluster.mini(), cluster.nameNodeIndex(1, 0), cluster.nameNodeIndex(1, 1))) {
      List<HotStandbyController> controllers = new ArrayList<>();
      try {
        for (int ns = 0; ns < 2; ns++) {
          for (int nn = 0; nn < 2; nn++) {
            Configuration conf = cluster.conf();
            conf.set("dfs.nameservice.id", "ns" + (ns + 1));
            conf.set("dfs.ha.namenode.id", "nn" + (nn + 1));
            HotStandbyController c = new HotStandbyController(conf);
            c.start();
            controllers.add(c);
          }
        }
        Await.until("one active NameNode in each nameservice", WAIT,
            () -> active(cluster, 0) >= 0 && active(cluster, 1) >= 0);
        int ns1Active = active(cluster, 0);
        int ns2Active = active(cluster, 1);
        // What an operator watches: one metrics2 source (JMX bean) per controller. (Checked before a
        // NameNode is stopped: in one JVM, stopping a NameNode shuts the shared metrics system down.)
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> beans = jmx.queryNames(new ObjectName("Hadoop:service=*,name=HotStandbyController-ns2-nn"
            + (ns2Active + 1)), null);
        assertEquals(1, beans.size(), "the active's controller publishes its metrics");
        ObjectName bean = beans.iterator().next();
        // JMX serves metrics2 snapshots that may be a few seconds old (Hadoop's JMX cache).
        Await.until("JMX shows the election", WAIT, () -> ((Number) jmx.getAttribute(bean, "Failovers")).longValue() == 1
            && "ACTIVE".equals(jmx.getAttribute(bean, "tag.State")) && ((Number) jmx.getAttribute(bean, "Active")).longValue() == 1);
        ns2.markDown(cluster.nameNodeIndex(1, ns2Active));
        cluster.mini().shutdownNameNode(cluster.nameNodeIndex(1, ns2Active));
        Await.until("ns2 fails over", WAIT, () -> active(cluster, 1) == 1 - ns2Active);
        assertEquals(ns1Active, active(cluster, 0), "ns1 is not touched by ns2's failover");
        assertTrue(cluster.fs(0).mkdirs(new Path("/ns1-still-served")));
        assertTrue(cluster.fs(1).mkdirs(new Path("/ns2-served-by-the-new-active")));

        ns1.assertNoSplitBrain();
        ns2.assertNoSplitBrain();
      } finally {
        controllers.forEach(HotStandbyController::close);
      }
      HotStandbyCluster.assertNoHalt();
    }
  }

  /** The active NameNode (0-based within the nameservice) of nameservice {@code ns}, or -1. */
  private static int active(BulwarkMiniCluster cluster, int ns) {
    for (int nn = 0; nn < 2; nn++) {
      var n = cluster.mini().getNameNode(cluster.nameNodeIndex(ns, nn));
      if (n != null && n.isActiveState()) {
        return nn;
      }
    }
    return -1;
  }
}
