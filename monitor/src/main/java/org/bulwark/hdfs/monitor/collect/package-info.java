/**
 * What the monitor asks of the NameNodes, and how gently. {@link org.bulwark.hdfs.monitor.collect.HistoryPoller}
 * polls every namespace ({@link org.bulwark.hdfs.monitor.collect.NamespaceUris}) each interval: batched listings
 * that carry block locations ({@link org.bulwark.hdfs.monitor.collect.NamespaceScanner}) and the live and dead
 * DataNode reports, every RPC spaced by {@link org.bulwark.hdfs.monitor.collect.RpcRateLimiter}; then it records
 * the poll's changes, applies retention, and keeps the status the UI shows. The locations are the NameNode's answer
 * as given; what counts as a change is {@link org.bulwark.hdfs.monitor.history.NamespaceState}'s, and writing it is
 * {@link org.bulwark.hdfs.monitor.store.HistoryStore}'s.
 */
package org.bulwark.hdfs.monitor.collect;
