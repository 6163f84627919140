package org.bulwark.hdfs.balancer.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;
import org.bulwark.hdfs.balancer.plan.BlockCandidate;

/**
 * The blocks {@code getBlocks} returned for each source, as planner candidates, and the
 * NameNode's record of each (generation stamp, storages) that a move needs.
 */
final class FetchedBlocks {
  private final Map<Integer, LinkedHashSet<BlockCandidate>> bySource = new HashMap<>();
  private final Map<BlockCandidate, BlockWithLocations> located = new HashMap<>();
  private int rpcs;

  /** Adds a block for a source; false when this source already had it. */
  boolean add(int source, BlockCandidate candidate, BlockWithLocations block) {
    located.putIfAbsent(candidate, block);
    return bySource.computeIfAbsent(source, s -> new LinkedHashSet<>()).add(candidate);
  }

  void countRpc() {
    rpcs++;
  }

  int rpcs() {
    return rpcs;
  }

  Map<Integer, List<BlockCandidate>> bySource() {
    Map<Integer, List<BlockCandidate>> out = new HashMap<>();
    bySource.forEach((source, blocks) -> out.put(source, new ArrayList<>(blocks)));
    return out;
  }

  BlockWithLocations located(BlockCandidate candidate) {
    return located.get(candidate);
  }
}
