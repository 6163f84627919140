package org.bulwark.hdfs.hotstandby.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.bulwark.hdfs.hotstandby.health.HealthReport;
import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

class ClientProtocolPrimerIT {
  private static final HealthReport STANDBY = new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.STANDBY, null);

  @Test
  void primesOncePerNameNodeProcessWhenSeenStandby() throws Exception {
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(new HdfsConfiguration())
        .nnTopology(MiniDFSNNTopology.simpleHATopology()).numDataNodes(0).build();
        ClientProtocolPrimer primer = new ClientProtocolPrimer(cluster.getConfiguration(0),
            cluster.getNameNode(0).getNameNodeAddress(), "test")) {
      int port = cluster.getNameNode(0).getNameNodeAddress().getPort();
      primer.onHealth(new HealthReport(NameNodeHealth.HEALTHY, HAServiceState.ACTIVE, null));
      primer.onHealth(STANDBY);
      Await.until("the first call", Duration.ofSeconds(30), () -> calls(port) == 1);
      assertEquals(1, primer.callsStarted(), "an active NameNode is not primed");
      primer.onHealth(STANDBY);
      primer.onHealth(new HealthReport(NameNodeHealth.UNRESPONSIVE, null, "timed out"));
      primer.onHealth(STANDBY);
      primer.onHealth(new HealthReport(NameNodeHealth.GONE, null, "refused"));
      primer.onHealth(STANDBY);
      Await.until("a call after each time the NameNode stopped answering", Duration.ofSeconds(30),
          () -> calls(port) == 3);
      primer.onHealth(STANDBY);
      assertEquals(3, primer.callsStarted(), "a NameNode seen standby again, never unanswering between, is not called again");
    }
  }

  /**
   * How many getHAServiceState calls the NameNode's client RPC server took: its RPC metrics, read from the source
   * itself (over JMX they are a copy Hadoop refreshes every 10 s, which the test would wait for).
   */
  static long calls(int port) {
    MetricsSource source = DefaultMetricsSystem.instance().getSource("RpcDetailedActivityForPort" + port);
    if (source == null) {
      return 0;
    }
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    source.getMetrics(collector, true);
    for (MetricsRecord record : collector.getRecords()) {
      for (AbstractMetric metric : record.metrics()) {
        if (metric.name().equals("GetHAServiceStateNumOps")) {
          return metric.value().longValue();
        }
      }
    }
    return 0;
  }
}
