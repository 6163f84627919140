package org.bulwark.hdfs.balancer.plan;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The planner at production scale, without a cluster: 2,000 DataNodes on 100 racks of 20 holding
 * ten million replicas of 128 MB blocks, written with the default policy's layout by writers on
 * one DataNode in four, then one balancing iteration planned.
 */
public final class ScalePlanning {
  private ScalePlanning() {
  }

  /** @return {seconds to classify and plan, heap in use in MB with model and plan alive, replicas} */
  public static double[] run(Random random) {
    int[] racks = new int[100];
    Arrays.fill(racks, 20);
    SimulatedCluster cluster = new SimulatedCluster(racks, 2L << 40, 128L << 20);
    int blocks = 10_000_000 / 3;
    for (int b = 0; b < blocks; b++) {
      cluster.writeFrom((b % 500) * 4, random);
    }
    Classification probe = cluster.classify(10);
    long fetchStart = System.nanoTime();
    Map<Integer, List<BlockCandidate>> candidates = cluster.candidates(probe, 2, random);
    double fetchSeconds = (System.nanoTime() - fetchStart) / 1e9;

    long start = System.nanoTime();
    Classification c = cluster.classify(10);
    Plan plan = new MovePlanner(cluster.rackOf, MoveCheck.RACKS_ONLY).balance(c, candidates);
    double planSeconds = (System.nanoTime() - start) / 1e9;

    System.gc();
    double heapMb = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
    System.out.printf("scale: %d replicas, %d sources, %d candidates fetched in %.2fs; plan %d moves (%d adding a rack,"
        + " %.1f GB) in %.2fs; heap %.0f MB%n", (long) blocks * 3,
        candidates.size(), candidates.values().stream().mapToInt(List::size).sum(), fetchSeconds,
        plan.moves().size(), plan.movesAddingRack(), plan.bytes() / 1e9, planSeconds, heapMb);
    // keep the model reachable until the heap was measured
    return new double[] {planSeconds, heapMb, cluster.blocks() * 3.0};
  }
}
