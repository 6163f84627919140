/**
 * Runs the hot standby on an embedded cluster the way an administrator would:
 * {@link org.bulwark.hdfs.it.cluster.HotStandbyNameservices} configures every HA nameservice of a
 * {@link org.bulwark.hdfs.testkit.BulwarkMiniCluster} for {@code hdfs hotstandby}, starts and stops one
 * {@link org.bulwark.hdfs.hotstandby.HotStandbyController} beside each NameNode, and waits until each nameservice
 * has an active NameNode. The cluster is the test kit's (on Hadoop's {@code MiniDFSCluster}); electing and
 * failing over are the controllers' own.
 */
package org.bulwark.hdfs.it.cluster;
