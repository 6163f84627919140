/**
 * The entry point of {@code hdfs balancer}: {@link org.bulwark.hdfs.balancer.BalancerLauncher} decides only
 * which balancer runs. With {@code -policy availability} it logs in, checks that the configured placement policy
 * is a {@code BlockPlacementPolicyDefault} (as the stock balancer does) and hands the run to
 * {@link org.bulwark.hdfs.balancer.cli.AvailabilityRun}; with {@code -policy datanode|blockpool} or none it hands
 * the command line to Hadoop's own balancer unchanged. Exit codes are Hadoop's {@code ExitStatus} values.
 */
package org.bulwark.hdfs.balancer;
