package org.bulwark.hdfs.it.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.bulwark.hdfs.placement.HierarchicalPlacementPolicy;
import org.bulwark.hdfs.testkit.BlockSpread;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Test;

/**
 * Issue 7's scenario 7: a cluster written under Hadoop's default placement is switched to hierarchical
 * placement the way an administrator would, by a rolling restart of the NameNodes under the workload
 * (standbys first, then the active, which the controllers fail over). The NameNode that becomes active
 * finds the blocks the new policy calls mis-replicated, fsck reports them, and the NameNode repairs
 * them: afterwards every block has replicas in both datacenters.
 *
 * <p>Slow because it restarts every NameNode of two HA nameservices in turn under the workload and waits for the
 * repair of every mis-replicated block.
 */
class PlacementSwitchIT {
  @Test
  void defaultToHierarchicalByRollingRestart() throws Exception {
    try (AllPluginsCluster c = AllPluginsCluster.start(null); ScenarioRunner scenarios = new ScenarioRunner(c)) {
      // Tasks on dc1 DataNodes write under the default policy: the second and third replicas share a
      // remote rack, often in dc1 too.
      for (DataNodeHandle dn : c.cluster.dataNodesInDatacenter("/dc1")) {
        for (int i = 0; i < 4; i++) {
          c.cluster.writeFile(i % AllPluginsCluster.NAMESERVICES, new Path("/before/" + dn.hostName() + "/f" + i),
              AllPluginsCluster.BLOCK_SIZE, WriteOrigin.fromDataNode(dn));
        }
      }
      long oneDatacenter = blocksInOneDatacenter(c);
      assertTrue(oneDatacenter > 0, "the default policy left blocks in one datacenter");

      long[] reported = new long[1];
      ScenarioReport r = scenarios.run("7 placement switched by rolling restart", () -> {
        for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
          reported[0] += switchNameservice(c, scenarios, ns);
        }
        return System.nanoTime();
      });
      System.out.printf("Placement switch: %d blocks in one datacenter before; fsck on the new active NameNodes "
          + "reported %d mis-replicated; %d left after repair%n", oneDatacenter, reported[0], r.misReplicatedBlocks());
      assertTrue(reported[0] > 0, "fsck reported the blocks the new policy calls mis-replicated");
      assertEquals(0, r.misReplicatedBlocks(), "every mis-replicated block was repaired");
      assertEquals(0, blocksInOneDatacenter(c), "every block has replicas in both datacenters");
    }
  }

  /**
   * Standby NameNodes restarted with the new policy first, then the active one killed so that one of
   * them takes over, as in a rolling upgrade; returns the mis-replicated blocks fsck reports at once
   * on the new active NameNode. As an administrator would, the restart goes on until every NameNode runs the new
   * policy: a failover in between (a NameNode slow to answer its health check under the restarts' load) can leave
   * one that was never restarted active, and then it is the next to go.
   */
  private static long switchNameservice(AllPluginsCluster c, ScenarioRunner scenarios, int ns) throws Exception {
    for (int nn = 0; nn < AllPluginsCluster.NAMENODES; nn++) {
      c.cluster.mini().getConfiguration(c.cluster.nameNodeIndex(ns, nn))
          .set("dfs.block.replicator.classname", HierarchicalPlacementPolicy.class.getName());
    }
    long reported = -1;
    for (int round = 0; round < AllPluginsCluster.NAMENODES && !allSwitched(c, ns); round++) {
      int active = c.ha.awaitActive(ns, -1);
      for (int nn = 0; nn < AllPluginsCluster.NAMENODES; nn++) {
        if (nn != active && !switched(c, ns, nn)) {
          c.restartNameNode(ns, nn);
          scenarios.carriesOn("the workload carries on while ns" + (ns + 1) + ".nn" + (nn + 1) + " restarts");
        }
      }
      active = c.ha.awaitActive(ns, -1);
      if (switched(c, ns, active)) {
        continue;
      }
      Fault old = scenarios.inject(new Faults(c, new Random(ns)).activeNameNodeKilled(ns));
      reported = scenarios.audit().fsck(ns).misReplicated();
      scenarios.carriesOn("the workload carries on after " + old.name());
      old.heal();
    }
    assertTrue(allSwitched(c, ns), "every NameNode of ns" + (ns + 1) + " runs the hierarchical policy");
    return reported >= 0 ? reported : scenarios.audit().fsck(ns).misReplicated();
  }

  private static boolean allSwitched(AllPluginsCluster c, int ns) {
    for (int nn = 0; nn < AllPluginsCluster.NAMENODES; nn++) {
      if (!switched(c, ns, nn)) {
        return false;
      }
    }
    return true;
  }

  /** Whether the NameNode runs (up, with) the hierarchical policy. */
  private static boolean switched(AllPluginsCluster c, int ns, int nn) {
    NameNode node = c.cluster.mini().getNameNode(c.cluster.nameNodeIndex(ns, nn));
    return node != null && node.getNamesystem() != null
        && node.getNamesystem().getBlockManager().getBlockPlacementPolicy() instanceof HierarchicalPlacementPolicy;
  }

  private static long blocksInOneDatacenter(AllPluginsCluster c) throws Exception {
    long n = 0;
    for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
      BlockSpread spread = c.cluster.blockSpread(ns, new Path("/"));
      n += spread.blocksByDatacenterCount().getOrDefault(1, 0L);
    }
    return n;
  }
}
