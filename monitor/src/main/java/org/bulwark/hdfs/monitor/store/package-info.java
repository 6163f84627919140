/**
 * Where the monitor's history is kept: {@link org.bulwark.hdfs.monitor.store.HistoryStore}, written by the poller
 * one transaction per namespace poll and read by the web UI, implemented once over JDBC
 * ({@link org.bulwark.hdfs.monitor.store.JdbcHistoryStore}) for an embedded H2 file or PostgreSQL.
 * {@link org.bulwark.hdfs.monitor.store.StoreFactory} picks the engine from the configuration (the password from
 * Hadoop's credential providers only), and numbered migration scripts bring the schema up to date. One monitor
 * writes a store: {@link org.bulwark.hdfs.monitor.store.WriterLease} fences every write. Durability is
 * the database's; what to record is decided in {@code org.bulwark.hdfs.monitor.history}.
 */
package org.bulwark.hdfs.monitor.store;
