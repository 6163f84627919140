package org.bulwark.hdfs.it.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The failure suite's scenarios 1, 2 and 6: a DataNode, a rack, a datacenter and the block monitor lost
 * under the workload.
 *
 * <p>Slow because each scenario waits for a workload to carry on under a fault and for the audit after it, on
 * a federated HA cluster of 12 DataNodes.
 */
class DataFailuresIT extends FailureSuite {
  @Test
  @Order(1)
  void dataNodeKilledDuringWritesAndReads() throws Exception {
    scenarios.run("1 DataNode killed during writes and reads", () -> {
      Faults.StoppedNodes killed = faults.dataNodeKilled();
      long at = System.nanoTime();
      scenarios.inject(killed);
      scenarios.carriesOn("the workload carries on without the DataNode");
      // The NameNodes would declare it dead after its heartbeats expire; now, so that its replicas are re-made.
      c.cluster.declareDead(killed.stopped());
      c.awaitFullyReplicated(WAIT);
      killed.heal();
      return at;
    });
  }

  @Test
  @Order(2)
  void rackThenDatacenterStoppedAndBack() throws Exception {
    ScenarioReport r = scenarios.run("2 a rack, then a datacenter, stopped and back", () -> {
      Fault rack = scenarios.inject(faults.rackStopped());
      scenarios.carriesOn("the workload carries on without " + rack.name());
      rack.heal();
      Fault dc = scenarios.inject(faults.datacenterStopped());
      scenarios.carriesOn("the workload carries on without " + dc.name());
      dc.heal();
      // Blocks written while the datacenter was away sit in the other one. No failover: the outage is
      // shorter than dead-node detection, so they were judged against a topology that still held the
      // datacenter and queued at once (a longer one is TopologyGrowthRescan's case).
      return System.nanoTime();
    });
    assertEquals(0, r.misReplicatedBlocks(), "blocks written without the datacenter were spread over it once it was back");
  }

  @Test
  @Order(6)
  void monitorKilledMidPollAndRestarted() throws Exception {
    scenarios.run("6 block monitor killed mid-poll, restarted", () -> {
      Fault killed = scenarios.inject(faults.monitorKilledMidPoll());
      scenarios.carriesOn("the workload carries on while the monitor is down");
      killed.heal();
      return System.nanoTime();
    });
  }
}
