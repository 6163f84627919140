package org.bulwark.hdfs.balancer.exec;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.BlockType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicies;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.net.NetworkTopology;
import org.bulwark.hdfs.balancer.plan.BlockCandidate;
import org.bulwark.hdfs.balancer.plan.MoveCheck;

/**
 * Asks the configured block placement policy (the NameNode's, read from the same configuration)
 * whether a move is acceptable, over a topology of the live DataNodes, with the candidate list the
 * stock dispatcher builds: the block's locations plus the target.
 */
final class PlacementMoveCheck implements MoveCheck {
  private final NodeTable table;
  private final BlockPlacementPolicy policy;

  PlacementMoveCheck(Configuration conf, NodeTable table) {
    this.table = table;
    NetworkTopology topology = NetworkTopology.getInstance(conf);
    for (int i = 0; i < table.size(); i++) {
      topology.add(table.datanode(i));
    }
    this.policy = new BlockPlacementPolicies(conf, null, topology, null).getPolicy(BlockType.CONTIGUOUS);
  }

  @Override
  public boolean isMovable(BlockCandidate block, int source, int target) {
    List<DatanodeInfo> locations = new ArrayList<>(block.holders().length + 1);
    for (int h : block.holders()) {
      locations.add(table.datanode(h));
    }
    DatanodeInfo targetNode = table.datanode(target);
    locations.add(targetNode);
    return policy.isMovable(locations, table.datanode(source), targetNode);
  }
}
