/**
 * The ZooKeeper layout controllers and clients share: {@link org.bulwark.hdfs.hotstandby.discovery.ZNodes} names
 * each nameservice's znodes (leader lock, candidates, epoch, active record, manual-failover request), and
 * {@link org.bulwark.hdfs.hotstandby.discovery.ActiveRecord} is the active-NameNode record a leader publishes and
 * clients read, with its {@code key=value} encoding. Plain data, no ZooKeeper calls: reading and writing the
 * znodes is left to {@link org.bulwark.hdfs.hotstandby.election.LeaderElection} on the controller side and to the
 * {@code org.bulwark.hdfs.hotstandby.client} package on the client side.
 */
package org.bulwark.hdfs.hotstandby.discovery;
