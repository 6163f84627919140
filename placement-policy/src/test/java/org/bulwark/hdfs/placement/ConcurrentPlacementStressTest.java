package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 32 threads calling {@code chooseTarget} at once while DataNodes join, leave and start decommissioning
 * (the NameNode calls a policy from every handler thread while heartbeats and registrations change the
 * topology under it): no call fails, and every block still gets its replicas on distinct DataNodes,
 * racks and (hierarchical) datacenters, from the racks that never left.
 */
class ConcurrentPlacementStressTest {
  private static final long TB = 1L << 40;
  private static final BlockStoragePolicy HOT = BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy();
  private static final int THREADS = 32;
  private static final int CALLS_PER_THREAD = 1500;

  @ParameterizedTest
  @ValueSource(classes = {OneReplicaPerRackPlacementPolicy.class, HierarchicalPlacementPolicy.class,
      HierarchicalErasureCodedPlacementPolicy.class})
  void chooseTargetUnderChurn(Class<? extends BlockPlacementPolicyDefault> type) throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.setBoolean("dfs.namenode.redundancy.considerLoad", false);
    conf.set(PlacementKeys.RACK_FILL_REFRESH.getName(), "2ms");
    SimulatedTopology t = new SimulatedTopology(conf);
    for (int dc = 1; dc <= 3; dc++) {
      for (int r = 1; r <= 3; r++) {
        t.addRack("/dc" + dc + "/r" + r, 3, TB, TB / (r + 1));
      }
    }
    List<DatanodeDescriptor> core = new ArrayList<>(t.nodes);
    BlockPlacementPolicyDefault policy = t.policy(type, conf);
    int width = type == HierarchicalErasureCodedPlacementPolicy.class ? 5 : 3;

    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong joined = new AtomicLong();
    Thread churn = new Thread(() -> {
      Random random = new Random(11);
      List<DatanodeDescriptor> extra = new ArrayList<>();
      int n = 0;
      while (!stop.get()) {
        if (extra.size() < 6 || random.nextBoolean()) {
          n++;
          DatanodeDescriptor d = DFSTestUtil.createDatanodeStorageInfo("churn" + n, "10.9." + (n >> 8 & 255) + "." + (n & 255),
              "/dc" + (1 + random.nextInt(3)) + "/churn" + random.nextInt(2), "churn" + n).getDatanodeDescriptor();
          d.getStorageInfos()[0].setUtilizationForTesting(TB, 0, TB, 0);
          d.setCapacity(TB);
          d.setRemaining(TB);
          t.topology.add(d);
          extra.add(d);
          joined.incrementAndGet();
        } else {
          DatanodeDescriptor d = extra.remove(random.nextInt(extra.size()));
          if (random.nextBoolean()) {
            d.startDecommission();
          }
          t.topology.remove(d);
        }
        Thread.yield();
      }
    }, "churn");
    churn.start();

    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> calls = new ArrayList<>();
    for (int th = 0; th < THREADS; th++) {
      int seed = th;
      calls.add(pool.submit(() -> {
        go.await();
        Random random = new Random(seed);
        for (int i = 0; i < CALLS_PER_THREAD; i++) {
          DatanodeDescriptor writer = random.nextBoolean() ? core.get(random.nextInt(core.size())) : null;
          DatanodeStorageInfo[] targets = policy.chooseTarget("/stress/f", width, writer, new ArrayList<>(), false,
              null, 1L << 20, HOT, null);
          String problem = check(targets, width, type);
          if (problem != null) {
            problems.add(problem);
          }
        }
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : calls) {
      f.get(5, TimeUnit.MINUTES);
    }
    stop.set(true);
    churn.join();
    pool.shutdown();
    assertTrue(joined.get() > 10, "DataNodes joined and left during the run: " + joined);
    assertEquals(List.of(), new ArrayList<>(problems).subList(0, Math.min(5, problems.size())),
        problems.size() + " of " + THREADS * CALLS_PER_THREAD + " placements broke a rule");
  }

  private static String check(DatanodeStorageInfo[] targets, int width, Class<?> type) {
    if (targets.length != width) {
      return targets.length + " targets of " + width;
    }
    Set<DatanodeDescriptor> nodes = new HashSet<>();
    Set<String> racks = new HashSet<>();
    Set<String> dcs = new HashSet<>();
    for (DatanodeStorageInfo s : targets) {
      nodes.add(s.getDatanodeDescriptor());
      racks.add(s.getDatanodeDescriptor().getNetworkLocation());
      dcs.add(RackFill.datacenterOf(s.getDatanodeDescriptor().getNetworkLocation()));
    }
    if (nodes.size() != width || racks.size() != width) {
      return "nodes " + nodes.size() + ", racks " + racks + " for " + width + " replicas";
    }
    if (type != OneReplicaPerRackPlacementPolicy.class && dcs.size() < (width == 5 ? 3 : 2)) {
      return "datacenters " + dcs;
    }
    return null;
  }
}
