/**
 * What counts as a change in where replicas are. {@link org.bulwark.hdfs.monitor.history.NamespaceState} holds the
 * open intervals (replicas on storages, blocks in files, missing or corrupt events, DataNode states) and diffs a
 * poll's observation against them into {@link org.bulwark.hdfs.monitor.history.PollChanges}; the other classes
 * are the spans and histories the store hands back. Plain data, no Hadoop or JDBC types, so the rules are tested
 * without a cluster or a database; observing is left to {@code org.bulwark.hdfs.monitor.collect} and persisting
 * to {@code org.bulwark.hdfs.monitor.store}.
 */
package org.bulwark.hdfs.monitor.history;
