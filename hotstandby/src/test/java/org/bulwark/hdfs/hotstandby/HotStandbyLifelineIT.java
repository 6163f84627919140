package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import javax.management.AttributeNotFoundException;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FreePorts;
import org.junit.jupiter.api.Test;

/**
 * With {@code dfs.namenode.lifeline.rpc-address} set, the controllers check the NameNodes' health there, as the stock
 * ZKFC does (HDFS-9311): a NameNode whose client handlers are all held behind a long write lock still answers there,
 * and is not taken for hung. Counted by the NameNodes' own per-port RPC metrics: every {@code monitorHealth} call
 * arrives on the lifeline port, none on the client RPC port.
 */
class HotStandbyLifelineIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void healthChecksGoToTheLifelineAddress() throws Exception {
    int[] lifeline = FreePorts.pick(2);
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, HotStandbyCluster.lifelines(lifeline), c -> { })) {
      ha.startControllers();
      int active = ha.awaitActive(WAIT);
      for (int i = 0; i < 2; i++) {
        int nn = i;
        Await.until("nn" + (nn + 1) + " answered health checks on its lifeline port", WAIT,
            () -> monitorHealthCalls(lifeline[nn]) > 0);
        int rpcPort = ha.cluster.mini().getNameNode(nn).getNameNodeAddress().getPort();
        assertEquals(0, monitorHealthCalls(rpcPort), "nn" + (nn + 1) + "'s client RPC port was health-checked");
      }
      assertTrue(ha.controller(active).isActive());
      ha.fsIsUsable();
    }
  }

  /** {@code monitorHealth} calls the NameNode's RPC server on {@code port} has served, from its detailed metrics. */
  private static long monitorHealthCalls(int port) throws Exception {
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    try {
      Object n = jmx.getAttribute(new ObjectName("Hadoop:service=NameNode,name=RpcDetailedActivityForPort" + port),
          "MonitorHealthNumOps");
      return ((Number) n).longValue();
    } catch (InstanceNotFoundException | AttributeNotFoundException none) {
      return 0;
    }
  }
}
