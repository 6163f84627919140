/**
 * Bulwark's block placement policies, loaded by the NameNode through {@code dfs.block.replicator.classname}:
 * {@link org.bulwark.hdfs.placement.OneReplicaPerRackPlacementPolicy} (one replica per rack, racks filled evenly)
 * and {@link org.bulwark.hdfs.placement.HierarchicalPlacementPolicy} (also spread over datacenters mapped as
 * {@code /<datacenter>/<rack>}). This package applies the decisions of {@code org.bulwark.hdfs.placement.rules}
 * to Hadoop's types (which rack takes the next replica, when a block is mis-replicated, which excess replica goes,
 * whether a balancer move may be made) over a periodic snapshot of the topology. The rest stays
 * {@code BlockPlacementPolicyDefault}'s: the first replica on the writer, every per-node check (excluded, stale,
 * space, load, storage type), and the fallback search when nothing better is left.
 */
package org.bulwark.hdfs.placement;
