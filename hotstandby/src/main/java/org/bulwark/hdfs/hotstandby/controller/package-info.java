/**
 * The failover decisions of one controller. {@link org.bulwark.hdfs.hotstandby.controller.ControllerRules}
 * decides, as pure functions of a {@link org.bulwark.hdfs.hotstandby.controller.ControllerView}, whether its
 * NameNode stands for election and which {@link org.bulwark.hdfs.hotstandby.controller.Step} comes next
 * (acquire, wait, resign, abandon), from health, priorities, fail-back and manual failover;
 * {@link org.bulwark.hdfs.hotstandby.controller.Reconciler} makes one decision (reads the inputs and the election into a
 * view, asks the rules) and {@link org.bulwark.hdfs.hotstandby.controller.ControllerActions} carries it out, on the one
 * thread {@link org.bulwark.hdfs.hotstandby.controller.ControllerLoop} runs and stops.
 * ZooKeeper writes are left to {@link org.bulwark.hdfs.hotstandby.election.LeaderElection}, health checks to
 * {@link org.bulwark.hdfs.hotstandby.health.HealthMonitor}, fencing to
 * {@link org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer}, and the transitions themselves to the NameNode
 * ({@code HAServiceProtocol}, through {@link org.bulwark.hdfs.hotstandby.controller.LocalNameNode}).
 */
package org.bulwark.hdfs.hotstandby.controller;
