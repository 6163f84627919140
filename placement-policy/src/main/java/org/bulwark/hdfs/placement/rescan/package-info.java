/**
 * {@link org.bulwark.hdfs.placement.rescan.TopologyGrowthRescan}, a NameNode plugin: once racks or datacenters
 * that were away are back, the active NameNode checks every block's placement again, so blocks written without
 * them are spread over them without a failover. {@code RescanTrigger} holds the decision, apart from Hadoop.
 */
package org.bulwark.hdfs.placement.rescan;
