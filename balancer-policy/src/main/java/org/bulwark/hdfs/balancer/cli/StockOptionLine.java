package org.bulwark.hdfs.balancer.cli;

import java.lang.reflect.Method;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.util.VersionInfo;

/**
 * Which stock balancer options the installed Hadoop takes. Hadoop 3.4 added {@code -sortTopNodes} and
 * {@code -hotBlockTimeInterval}; 3.5 added {@code -excludeSource}, {@code -target}, {@code -excludeTarget}
 * and {@code -limitOverUtilizedNum}. The availability policy takes exactly the options the stock balancer
 * beside it takes, so a command line means the same under either policy. Told by the stock
 * {@code BalancerParameters.Builder}: each of these options has a setter there from the line that added it.
 */
final class StockOptionLine {
  private static final String BUILDER = "org.apache.hadoop.hdfs.server.balancer.BalancerParameters$Builder";

  /** Option, the Builder setter that comes with it, and the first line that has it. */
  private static final Map<String, String[]> LATER_OPTIONS = new LinkedHashMap<>();

  static {
    LATER_OPTIONS.put("-sortTopNodes", new String[] {"setSortTopNodes", "3.4.0"});
    LATER_OPTIONS.put("-hotBlockTimeInterval", new String[] {"setHotBlockTimeInterval", "3.4.0"});
    LATER_OPTIONS.put("-excludeSource", new String[] {"setExcludedSourceNodes", "3.5.0"});
    LATER_OPTIONS.put("-target", new String[] {"setTargetNodes", "3.5.0"});
    LATER_OPTIONS.put("-excludeTarget", new String[] {"setExcludedTargetNodes", "3.5.0"});
    LATER_OPTIONS.put("-limitOverUtilizedNum", new String[] {"setLimitOverUtilizedNum", "3.5.0"});
  }

  private StockOptionLine() {
  }

  /** The options of later lines that the installed stock balancer does not take. */
  static Set<String> missingOptions() {
    Set<String> setters = new HashSet<>();
    try {
      for (Method m : Class.forName(BUILDER).getDeclaredMethods()) {
        setters.add(m.getName());
      }
    } catch (ClassNotFoundException e) {
      return Collections.unmodifiableSet(LATER_OPTIONS.keySet());
    }
    Set<String> missing = new HashSet<>();
    LATER_OPTIONS.forEach((option, setter) -> {
      if (!setters.contains(setter[0])) {
        missing.add(option);
      }
    });
    return Collections.unmodifiableSet(missing);
  }

  /** The option as spelt here when {@code arg} is one of the later lines' options, else null. */
  static String laterOption(String arg) {
    for (String option : LATER_OPTIONS.keySet()) {
      if (option.equalsIgnoreCase(arg)) {
        return option;
      }
    }
    return null;
  }

  /** The first Hadoop line whose stock balancer takes {@code option}. */
  static String firstLineOf(String option) {
    return LATER_OPTIONS.get(option)[1];
  }

  /** The installed Hadoop's version, for messages. */
  static String hadoopVersion() {
    return VersionInfo.getVersion();
  }
}
