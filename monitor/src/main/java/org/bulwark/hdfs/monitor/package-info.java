/**
 * {@code hdfs blockmonitor} ({@link org.bulwark.hdfs.monitor.BlockMonitor}): reads its settings
 * ({@link org.bulwark.hdfs.monitor.MonitorKeys}), logs in, opens the history store and starts the web server and
 * the poller, reporting a setting it cannot use as one line. Polling is the {@code collect} package's, what counts
 * as a change {@code history}'s, keeping it {@code store}'s and serving it {@code web}'s; where each replica is
 * stays the NameNode's to say, the monitor only records what it answers.
 */
package org.bulwark.hdfs.monitor;
