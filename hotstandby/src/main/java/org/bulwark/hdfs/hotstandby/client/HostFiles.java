package org.bulwark.hdfs.hotstandby.client;

import java.io.File;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.hotstandby.HotStandbyKeys;

/**
 * Where the client JVMs of one host find each other's files ({@link HostSessionSlots}, {@link HostRecordRelay}):
 * {@code bulwark.hotstandby.client.host-dir}, {@code /tmp} by default.
 *
 * <p>Why not {@code java.io.tmpdir}: YARN starts every container's JVM with its own (the container's
 * {@code ./tmp}, for MapReduce tasks and Spark executors alike), so task JVMs on one worker would never share
 * a file there, and the cap on their ZooKeeper sessions would hold per container only.
 */
final class HostFiles {
  private HostFiles() {
  }

  /** The configured directory; empty means {@code java.io.tmpdir}. */
  static File dir(Configuration conf) {
    String dir = HotStandbyKeys.CLIENT_HOST_DIR.get(conf).trim();
    return new File(dir.isEmpty() ? System.getProperty("java.io.tmpdir") : dir);
  }

  /** This JVM's user as part of a file name. */
  static String user() {
    return System.getProperty("user.name", "unknown").replaceAll("[^A-Za-z0-9_.-]", "_");
  }
}
