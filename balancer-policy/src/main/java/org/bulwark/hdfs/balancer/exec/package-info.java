/**
 * Carries out the availability policy's iterations on a live cluster:
 * {@link org.bulwark.hdfs.balancer.exec.AvailabilityBalancer} reads one storage report, fetches the sources'
 * blocks with {@code getBlocks} (erasure-coded block groups are left to the stock balancer), and submits the moves
 * of one plan made across every block pool, rack-adding ones first; it also keeps the run's figures and metrics.
 * Classifying nodes and choosing moves is left to {@code org.bulwark.hdfs.balancer.plan}; whether a move is
 * acceptable is asked of the configured placement policy ({@code isMovable}); the moves are executed by Hadoop's
 * {@code Dispatcher} (its re-checks, proxy choice and DataNode copy), which this package only drives.
 */
package org.bulwark.hdfs.balancer.exec;
