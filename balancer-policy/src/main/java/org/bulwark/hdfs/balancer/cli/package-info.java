/**
 * One run of {@code hdfs balancer -policy availability} as the operator sees it: the command line
 * ({@link org.bulwark.hdfs.balancer.cli.BalancerOptions}, every stock option plus {@code -report},
 * {@code -spreadRacks} and {@code -maxBytes}), the run ({@link org.bulwark.hdfs.balancer.cli.AvailabilityRun}: the
 * stock lock file, iterations with the stock pause, {@code -asService} rounds, the stock exit codes), the progress
 * lines, the summary and the JSON report. Connecting to each NameNode is Hadoop's {@code NameNodeConnector};
 * planning and moving are left to {@link org.bulwark.hdfs.balancer.exec.AvailabilityBalancer}.
 */
package org.bulwark.hdfs.balancer.cli;
