/**
 * The command-line behaviour every Bulwark daemon shares ({@link org.bulwark.hdfs.common.cli.DaemonCommand}):
 * no arguments beyond Hadoop's generic options and {@code -help}, run until the JVM is asked to stop and then
 * close once, and a configuration the daemon cannot run with reported as one line with exit code 1. Parsing the
 * generic options is left to Hadoop's {@code ToolRunner}; what is started and closed is the daemon's own.
 */
package org.bulwark.hdfs.common.cli;
