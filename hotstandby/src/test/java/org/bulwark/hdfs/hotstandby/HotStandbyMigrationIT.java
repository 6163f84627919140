package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.hotstandby.ProcessHaCluster.ControllerKind;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * What an administrator does with {@code hdfs hotstandby} on a nameservice the stock ZKFC runs, every NameNode and
 * controller a JVM of its own: both ZKFCs stopped, ours started host by host, the standby's first; the active's
 * controller killed with kill -9 and started again, then stopped and started again; every controller restarted one at
 * a time (an upgrade of Bulwark); back to the stock ZKFC, the active's host first, as the guide says; and ours once
 * more, the active's host first this time, on a znode tree ours never wrote. Throughout,
 * the NameNode the stock ZKFC left active stays active (sampled every 10 ms: the other never answers active, it never
 * answers standby), the split-brain checker never sees two active NameNodes, and two clients on the stock provider,
 * reading and writing every 20 ms throughout, see no call fail.
 *
 * <p>Slow because every NameNode and controller is a JVM of its own and each of the eight steps waits for a controller
 * to start.
 */
class HotStandbyMigrationIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String STOCK_LOCK = "/hadoop-ha/" + ProcessHaCluster.NS + "/ActiveStandbyElectorLock";

  @Test
  void theStockZkfcsActiveStaysActiveThroughMigrationRestartsAndRollback() throws Exception {
    File dir = new File("target/migration-" + System.currentTimeMillis());
    // The stock ZKFC as an administrator runs it (its defaults: with a 1 s health check it gave up a NameNode whose first
    // transition had just ended, seen here). Our sessions outlast a controller's restart: a new JVM connected 2-3 s
    // after the old one ended on an idle host, 9 s on one busy with the other test JVM, past a 10 s session.
    try (ProcessHaCluster ha = ProcessHaCluster.start(dir, 2, 1, c -> {
      c.set(HotStandbyKeys.ZK_SESSION_TIMEOUT.getName(), "30s");
      c.setInt("ha.zookeeper.session-timeout.ms", 10_000);
      c.setInt("dfs.ha.zkfc.nn.http.timeout.ms", 0);
    }); CuratorFramework zk = CuratorFrameworkFactory.newClient(ha.conf().get("ha.zookeeper.quorum"),
        new RetryOneTime(100))) {
      zk.start();
      StockZkfc.formatZooKeeper(ha.controllerConf(0));
      ha.startController(0, ControllerKind.STOCK, ha.controllerConf(0));
      ha.startController(1, ControllerKind.STOCK, ha.controllerConf(1));
      Await.until("the stock ZKFC made a NameNode active", WAIT, () -> ha.active() >= 0);
      int active = ha.active();
      int standby = 1 - active;
      Await.until("the other stock ZKFC stands by", WAIT,
          () -> !DaemonLog.matching(ha.controller(standby).log(), "to standby state").isEmpty());
      for (int i = 0; i < 20; i++) { // settled: the same NameNode active for 2 s
        Thread.sleep(100);
        assertEquals(active, ha.active(), "the stock ZKFC failed over on its own");
      }

      ha.controller(standby).stop();
      ha.controller(active).stop();
      Await.until("the stock ZKFC's lock is gone", WAIT, () -> zk.checkExists().forPath(STOCK_LOCK) == null);
      assertEquals(active, ha.active(), "stopping the stock ZKFC leaves its NameNode active");

      long start = System.nanoTime();
      try (ActiveStateWatch watch = new ActiveStateWatch(ha::state, 2, active);
          ClientLoop reads = new ClientLoop("migration", ClientLoop.Operation.READ, ha.conf(), 20_000);
          ClientLoop writes = new ClientLoop("migration", ClientLoop.Operation.WRITE, ha.conf(), 20_000)) {
        // Ours, host by host, the standby's first: it leaves the leadership to the active's controller.
        ha.startController(standby, ControllerKind.BULWARK, ha.controllerConf(standby));
        awaitLog(ha, standby, "is active but no controller of ours made it so");
        ha.startController(active, ControllerKind.BULWARK, ha.controllerConf(active));
        String first = awaitLog(ha, active, " is active, epoch ");
        assertTrue(first.contains("this NameNode is active") && first.contains("(nothing to fence)"), first);

        // The active's controller killed, then started again within the session timeout: it takes its lock over.
        ha.controller(active).kill();
        ha.startController(active, ControllerKind.BULWARK, ha.controllerConf(active));
        assertTrue(awaitLog(ha, active, " is active, epoch ").contains("taking over from its controller's previous run"));

        // Stopped (hdfs --daemon stop hotstandby), then started again: its lock outlives the stop.
        ha.controller(active).stop();
        assertTrue(!DaemonLog.matching(ha.controller(active).log(), "its lock lasts until its ZooKeeper session expires")
            .isEmpty(), "a stopped leader keeps its lock");
        ha.startController(active, ControllerKind.BULWARK, ha.controllerConf(active));
        assertTrue(awaitLog(ha, active, " is active, epoch ").contains("taking over from its controller's previous run"));

        // An upgrade: every controller stopped and started again, one at a time.
        ha.controller(standby).stop();
        ha.startController(standby, ControllerKind.BULWARK, ha.controllerConf(standby));
        awaitLog(ha, standby, "started (ZooKeeper");
        ha.controller(active).stop();
        ha.startController(active, ControllerKind.BULWARK, ha.controllerConf(active));
        awaitLog(ha, active, " is active, epoch ");
        assertEquals(List.of(), DaemonLog.matching(ha.controller(standby).log(), " is active, epoch "),
            "the standby's controller never took over");

        // Back to the stock ZKFC: ours stopped, the active's host's ZKFC started first, then the other.
        ha.controller(standby).stop();
        ha.controller(active).stop();
        ha.startController(active, ControllerKind.STOCK, ha.controllerConf(active));
        Await.until("the stock ZKFC leads", WAIT, () -> zk.checkExists().forPath(STOCK_LOCK) != null);
        ha.startController(standby, ControllerKind.STOCK, ha.controllerConf(standby));
        Await.until("the other stock ZKFC stands by", WAIT,
            () -> !DaemonLog.matching(ha.controller(standby).log(), "to standby state").isEmpty());
        assertEquals(active, ha.active());

        // Ours again, host by host, the active's host first this time, on a tree no controller of ours ever wrote (as
        // a first migration meets it): the active's controller takes the free leadership at once and fences nothing.
        ha.controller(standby).stop();
        ha.controller(active).stop();
        Await.until("the stock ZKFC's lock is gone", WAIT, () -> zk.checkExists().forPath(STOCK_LOCK) == null);
        ha.startController(active, ControllerKind.BULWARK, freshTree(ha.controllerConf(active)));
        String again = awaitLog(ha, active, " is active, epoch ");
        assertTrue(again.contains("this NameNode is active") && again.contains("(nothing to fence)"), again);
        ha.startController(standby, ControllerKind.BULWARK, freshTree(ha.controllerConf(standby)));
        awaitLog(ha, standby, "started (ZooKeeper");
        assertEquals(List.of(), DaemonLog.matching(ha.controller(standby).log(), " is active, epoch "),
            "the standby's controller never took over");
        assertEquals(active, ha.active());
        System.out.printf("HotStandbyMigrationIT: %d samples of the NameNodes' states, %d with the other NameNode "
            + "active, %d with %s not active%n", watch.samples.get(), watch.otherActive.get(), watch.notActive.get(),
            ProcessHaCluster.id(active));
        for (ClientLoop client : List.of(reads, writes)) {
          System.out.printf("HotStandbyMigrationIT: %s client (configured provider): %d calls failed, longest outage "
              + "%.0f ms%n", client.operation().label(), client.failures(), client.longestGapMillisAfter(start));
          assertEquals(0, client.failures(), client.operation().label() + " calls failed");
        }
        assertEquals(0, watch.otherActive.get(), "the other NameNode was active in some samples: a failover");
        assertEquals(0, watch.notActive.get(), ProcessHaCluster.id(active) + " answered standby in some samples");
      }
      ha.splitBrain.assertNoSplitBrain();
    }
  }

  private static Configuration freshTree(Configuration conf) {
    conf.set(HotStandbyKeys.PARENT_ZNODE.getName(), "/bulwark-ha-first-run");
    return conf;
  }

  /** The last line of the controller's current log containing {@code needle}, once there is one. */
  private static String awaitLog(ProcessHaCluster ha, int nn, String needle) throws Exception {
    String[] line = new String[1];
    ha.controller(nn).awaitWhileAlive(ProcessHaCluster.id(nn) + "'s controller logged '" + needle + "'", WAIT, () -> {
      List<String> lines = DaemonLog.matching(ha.controller(nn).log(), needle);
      line[0] = lines.isEmpty() ? null : lines.get(lines.size() - 1);
      return line[0] != null;
    });
    return line[0];
  }
}
