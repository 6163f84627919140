/**
 * The decisions of the availability balancing policy, as plain Java over node indices, byte counts and rack
 * indices: how each DataNode is classified against the average and the threshold, exactly as the stock datanode
 * policy does it ({@link org.bulwark.hdfs.balancer.plan.Classification}), and which replica moves from which
 * source to which target ({@link org.bulwark.hdfs.balancer.plan.MovePlanner}): moves that add a rack to the block
 * first, moves that keep the rack count only where balance needs them, never one that lowers it. No Hadoop
 * types: fetching blocks, asking the placement policy ({@link org.bulwark.hdfs.balancer.plan.MoveCheck}) and
 * executing the moves are left to {@code org.bulwark.hdfs.balancer.exec} and Hadoop's {@code Dispatcher}.
 */
package org.bulwark.hdfs.balancer.plan;
