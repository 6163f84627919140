package org.bulwark.hdfs.balancer.cli;

import java.util.Set;
import org.apache.hadoop.util.VersionInfo;

/**
 * Which stock balancer options the installed Hadoop takes. Hadoop 3.5 added {@code -excludeSource},
 * {@code -target}, {@code -excludeTarget} and {@code -limitOverUtilizedNum}; the availability policy takes
 * exactly the options the stock balancer beside it takes, so a command line means the same under either
 * policy. Told by the stock {@code BalancerParameters.Builder}, which has {@code setTargetNodes} from 3.5 on.
 */
final class StockOptionLine {
  private static final String BUILDER = "org.apache.hadoop.hdfs.server.balancer.BalancerParameters$Builder";

  private StockOptionLine() {
  }

  /** Whether this Hadoop's balancer takes the options Hadoop 3.5 added. */
  static boolean hasHadoop35Options() {
    try {
      Class.forName(BUILDER).getMethod("setTargetNodes", Set.class);
      return true;
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      return false;
    }
  }

  /** The installed Hadoop's version, for messages. */
  static String hadoopVersion() {
    return VersionInfo.getVersion();
  }
}
