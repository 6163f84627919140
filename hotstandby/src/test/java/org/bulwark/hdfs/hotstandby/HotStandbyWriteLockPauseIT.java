package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.bulwark.hdfs.testkit.FreePorts;
import org.junit.jupiter.api.Test;

/**
 * A NameNode whose namesystem write lock is held (a long {@code rollEditLog}, an FSImage transfer) with every client
 * handler waiting behind it is not failed over, the false failover administrators meet most: with
 * {@code dfs.namenode.lifeline.rpc-address} set its health checks are answered there through a pause three times the
 * health timeout; without it, a pause of half the timeout queues the checks behind the busy handlers, and they are
 * answered in time once the lock is released. Each pause is shown to be real: a client call made during it waits it
 * out. (The three-timeout pause without a lifeline is a failover, as under the stock ZKFC: tried when this was
 * written, not kept, as it leaves the paused NameNode active beside the new one under the test clusters' shell(true)
 * fencing.)
 */
class HotStandbyWriteLockPauseIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** The test clusters' {@code bulwark.hotstandby.health.rpc-timeout}. */
  private static final long HEALTH_TIMEOUT_MS = 1000;
  /** More client calls than the NameNode has handlers ({@code dfs.namenode.handler.count}, 10), all held by the lock. */
  private static final int CLIENTS = 24;

  @Test
  void withALifelineAPauseOfThreeHealthTimeoutsIsNoFailover() throws Exception {
    int[] lifeline = FreePorts.pick(2);
    try (HotStandbyCluster ha = HotStandbyCluster.start(2, HotStandbyCluster.lifelines(lifeline), c -> { })) {
      pauseKeepsTheActive(ha, 3 * HEALTH_TIMEOUT_MS);
    }
  }

  @Test
  void withoutALifelineAPauseOfHalfTheHealthTimeoutIsNoFailover() throws Exception {
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      pauseKeepsTheActive(ha, HEALTH_TIMEOUT_MS / 2);
    }
  }

  private static void pauseKeepsTheActive(HotStandbyCluster ha, long pauseMillis) throws Exception {
    ha.startControllers();
    int active = ha.awaitActive(WAIT);
    ha.fsIsUsable();
    long failoversBefore = failovers(ha);
    long blockedMillis = holdWriteLock(ha, active, pauseMillis);
    assertTrue(blockedMillis >= pauseMillis * 9 / 10,
        "a client call made during the pause waited " + blockedMillis + " ms of its " + pauseMillis + " ms");
    // Long enough for a controller that took the pause for a hang to have acted: several health rounds past it.
    Thread.sleep(5 * HEALTH_TIMEOUT_MS);
    assertEquals(active, ha.activeNameNode(), "the paused NameNode stayed active");
    assertTrue(ha.controller(active).isActive(), "and its controller still leads");
    assertEquals(failoversBefore, failovers(ha), "no failover");
    ha.fsIsUsable();
  }

  /**
   * Holds NameNode {@code nn}'s write lock for {@code millis} while more client calls than it has handlers wait
   * behind it; returns how long one client call made during the pause took.
   */
  private static long holdWriteLock(HotStandbyCluster ha, int nn, long millis) throws Exception {
    FSNamesystem namesystem = ha.cluster.mini().getNamesystem(nn);
    FileSystem fs = ha.cluster.fs();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS + 1);
    List<Future<?>> calls = new ArrayList<>();
    Future<Long> probe;
    namesystem.writeLock();
    try {
      for (int i = 0; i < CLIENTS; i++) {
        Path dir = new Path("/paused/" + i);
        calls.add(clients.submit(() -> fs.mkdirs(dir)));
      }
      probe = clients.submit(() -> {
        long start = System.nanoTime();
        fs.getFileStatus(new Path("/"));
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      });
      Thread.sleep(millis);
    } finally {
      namesystem.writeUnlock();
    }
    for (Future<?> call : calls) {
      call.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
    long blocked = probe.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    clients.shutdown();
    return blocked;
  }

  private static long failovers(HotStandbyCluster ha) {
    long sum = 0;
    for (int i = 0; i < ha.nameNodes(); i++) {
      sum += ha.controller(i).metrics().failovers();
    }
    return sum;
  }
}
