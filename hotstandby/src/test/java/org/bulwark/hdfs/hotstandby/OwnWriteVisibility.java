package org.bulwark.hdfs.hotstandby;

import java.io.IOException;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.VersionInfo;

/**
 * Lets a test read its own write through an observer NameNode on Hadoop 3.3. That line's IPC client wakes the caller
 * before it records the state id the response carries (HDFS-17156, fixed in 3.4.0), so a read sent at once can reach
 * an observer with the older state id and miss the write: through Hadoop's {@code ObserverReadProxyProvider} as
 * through ours (seen once in CI, the stock provider's client winning the race and ours losing it). A connection's one
 * reader thread records a response's state id before it reads the next response, so one more call to the active
 * NameNode on the same connection, an {@code msync}, ends the race.
 */
final class OwnWriteVisibility {
  private static final boolean STATE_ID_RECORDED_LATE = VersionInfo.getVersion().startsWith("3.3.");

  private OwnWriteVisibility() {
  }

  /** Call between a write through {@code fs} and a read of it that may go to an observer. */
  static void afterWrite(FileSystem fs) throws IOException {
    if (STATE_ID_RECORDED_LATE) {
      fs.msync();
    }
  }
}
