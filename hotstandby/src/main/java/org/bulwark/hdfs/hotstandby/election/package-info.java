/**
 * One controller's reads and writes of its nameservice's election znodes
 * ({@link org.bulwark.hdfs.hotstandby.election.LeaderElection}): standing as a candidate, taking the leader lock
 * and bumping the epoch in one transaction, publishing the active record and releasing the lock only while its
 * {@link org.bulwark.hdfs.hotstandby.election.Leadership} is still the latest, and manual-failover requests.
 * It decides nothing: when to stand, take or give up the leadership is
 * {@link org.bulwark.hdfs.hotstandby.controller.ControllerRules}'s; sessions, ephemeral znodes, transactions and
 * watches are ZooKeeper's, used through Curator.
 */
package org.bulwark.hdfs.hotstandby.election;
