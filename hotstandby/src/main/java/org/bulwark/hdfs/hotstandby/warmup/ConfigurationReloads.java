package org.bulwark.hdfs.hotstandby.warmup;

import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * Reads the NameNode's configuration files again and again, as its first {@code transitionToActive} does
 * once per JournalNode: the journal client's metrics ({@code IPCLoggerChannelMetrics}) build a fresh
 * {@link HdfsConfiguration} for one key, which parses every default and site file. Sampled every 2 ms in
 * the failover benchmark's process mode, those parses were 15-25 % of a first transition; a parse took 30 ms
 * the second time in a JVM and 6 ms once compiled. Running the same parse ahead of need, on the warm-up's
 * thread, leaves the transition the compiled parser. Nothing is kept: each configuration is dropped.
 */
final class ConfigurationReloads {
  /** The key the journal client's metrics read, so the parse is the one the transition makes. */
  static final String KEY_READ_BY_JOURNAL_CLIENT = "dfs.metrics.percentiles.intervals";

  private ConfigurationReloads() {
  }

  /**
   * Parses the configuration files {@code times} times; stops early when interrupted.
   *
   * @return how many parses ran
   */
  static int run(int times) {
    int done = 0;
    while (done < times && !Thread.currentThread().isInterrupted()) {
      new HdfsConfiguration().getInts(KEY_READ_BY_JOURNAL_CLIENT);
      done++;
    }
    return done;
  }
}
