package org.bulwark.hdfs.monitor.store;

import java.sql.SQLException;

/**
 * A test's view into a poll's transaction: told each step of {@link PollRecords#write} as it completes, before the
 * next (and before the commit), on the writing thread. Throwing there aborts the transaction at that point, as a
 * crash or a lost connection would; blocking there holds the transaction open.
 */
interface WriteStepListener {
  void reached(String step) throws SQLException;
}
