/**
 * {@code ./bulwark demo} ({@link org.bulwark.hdfs.it.demo.BulwarkDemo}): an embedded multi-rack,
 * multi-datacenter HDFS with Bulwark's plugins, a data set and a skewed write, a balancer run, the active NameNode
 * killed under a working client, a DataNode killed, and after each step where the replicas are and what the block
 * monitor recorded. It decides only what to show and in what order: placing, balancing, failing over and recording
 * are done by the Bulwark modules themselves, re-replication by the NameNode, and the cluster is the test kit's.
 */
package org.bulwark.hdfs.it.demo;
