package org.bulwark.hdfs.balancer.cli;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.util.HostsFileReader;
import org.apache.hadoop.util.StringUtils;
import org.bulwark.hdfs.balancer.exec.BalancerSettings;

/**
 * Parses the balancer's command line: every stock option of the installed Hadoop line with the stock rules
 * (Hadoop 3.5's four more only where the stock balancer takes them, see {@link StockOptionLine}), plus
 * {@code -report FILE}, {@code -spreadRacks} and {@code -maxBytes N}. Errors are one line that names the
 * option and what would be valid.
 */
public final class BalancerOptions {
  public static final String AVAILABILITY = "availability";

  /** The options of later Hadoop lines that this install's stock balancer, and so this one, refuses. */
  private static final Set<String> MISSING_OPTIONS = StockOptionLine.missingOptions();

  /** Every option of the newest line, in the stock order; {@link #usage()} lists the installed line's. */
  static final String USAGE = "Usage: hdfs balancer"
      + "\n\t[-policy <policy>]\tthe balancing policy: datanode, blockpool or availability"
      + "\n\t[-threshold <threshold>]\tPercentage of disk capacity"
      + "\n\t[-exclude [-f <hosts-file> | <comma-separated list of hosts>]]\tExcludes the specified datanodes."
      + "\n\t[-include [-f <hosts-file> | <comma-separated list of hosts>]]\tIncludes only the specified datanodes."
      + "\n\t[-source [-f <hosts-file> | <comma-separated list of hosts>]]\tPick only the specified datanodes as source nodes."
      + "\n\t[-excludeSource [-f <hosts-file> | <comma-separated list of hosts>]]\tExcludes the specified datanodes to be selected as a source."
      + "\n\t[-target [-f <hosts-file> | <comma-separated list of hosts>]]\tPick only the specified datanodes as target nodes."
      + "\n\t[-excludeTarget [-f <hosts-file> | <comma-separated list of hosts>]]\tExcludes the specified datanodes from being selected as a target."
      + "\n\t[-blockpools <comma-separated list of blockpool ids>]\tThe balancer will only run on blockpools included in this list."
      + "\n\t[-idleiterations <idleiterations>]\tNumber of consecutive idle iterations (-1 for Infinite) before exit."
      + "\n\t[-runDuringUpgrade]\tWhether to run the balancer during an ongoing HDFS upgrade."
      + "\n\t[-asService]\tRun as a long running service."
      + "\n\t[-sortTopNodes]\tSort datanodes based on the utilization so that highly utilized datanodes get scheduled first."
      + "\n\t[-limitOverUtilizedNum <specified maximum number of overUtilized datanodes>]\tLimit the maximum number of overUtilized datanodes."
      + "\n\t[-hotBlockTimeInterval <ms>]\tprefer to move cold blocks."
      + "\n  availability policy only:"
      + "\n\t[-report <file>]\tWrite a JSON report of the run to <file>."
      + "\n\t[-spreadRacks [-maxBytes <bytes>]]\tOnce balanced, keep moving replicas onto new racks (at most <bytes>, e.g. 50g).";

  private BalancerOptions() {
  }

  /** Whether the installed Hadoop's stock balancer, and so this one, takes {@code option}. */
  public static boolean takes(String option) {
    return !MISSING_OPTIONS.contains(option);
  }

  /** The usage of the installed line: later lines' options listed only where they are taken. */
  public static String usage() {
    return usage(MISSING_OPTIONS);
  }

  static String usage(Set<String> missingOptions) {
    StringBuilder out = new StringBuilder();
    for (String line : USAGE.split("\n")) {
      String option = line.startsWith("\t[-") ? line.substring(2).split("[ \\]]")[0] : null;
      if (option == null || !missingOptions.contains(option)) {
        out.append(out.length() == 0 ? "" : "\n").append(line);
      }
    }
    return out.toString();
  }

  /** The value of {@code -policy} (lower case), or null when absent. */
  public static String policyOf(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if ("-policy".equalsIgnoreCase(args[i])) {
        return i + 1 < args.length ? args[i + 1].toLowerCase(Locale.ROOT) : "";
      }
    }
    return null;
  }

  /** Applies the command line to {@code settings}; throws IllegalArgumentException on bad input. */
  public static BalancerSettings parse(String[] args, BalancerSettings settings) {
    return parse(args, settings, MISSING_OPTIONS);
  }

  /** As {@link #parse(String[], BalancerSettings)}, as on a line whose stock balancer lacks {@code missingOptions}. */
  static BalancerSettings parse(String[] args, BalancerSettings settings, Set<String> missingOptions) {
    refuseMissingOptions(args, missingOptions);
    Set<String> included = null;
    Set<String> excluded = null;
    Set<String> sources = null;
    Set<String> excludedSources = null;
    Set<String> targets = null;
    Set<String> excludedTargets = null;
    boolean maxBytesGiven = false;
    for (int i = 0; i < args.length; i++) {
      String opt = args[i];
      if ("-threshold".equalsIgnoreCase(opt)) {
        String v = value(args, ++i, opt, "a number in [1.0, 100.0]");
        double t;
        try {
          t = Double.parseDouble(v);
        } catch (NumberFormatException e) {
          t = Double.NaN;
        }
        if (!(t >= 1 && t <= 100)) {
          throw new IllegalArgumentException("-threshold " + v + " is not valid: expected a number in [1.0, 100.0]");
        }
        settings.threshold(t);
      } else if ("-policy".equalsIgnoreCase(opt)) {
        String v = value(args, ++i, opt, "datanode, blockpool or availability");
        if (!AVAILABILITY.equalsIgnoreCase(v)) {
          throw new IllegalArgumentException("Illegal policy name: " + v + " (expected datanode, blockpool or availability)");
        }
      } else if ("-exclude".equalsIgnoreCase(opt)) {
        excluded = new HashSet<>();
        i = hostList(args, i, "exclude", excluded);
        settings.excludedHosts(excluded);
      } else if ("-include".equalsIgnoreCase(opt)) {
        included = new HashSet<>();
        i = hostList(args, i, "include", included);
        settings.includedHosts(included);
      } else if ("-source".equalsIgnoreCase(opt)) {
        sources = new HashSet<>();
        i = hostList(args, i, "source", sources);
        settings.sourceHosts(sources);
      } else if ("-excludeSource".equalsIgnoreCase(opt)) {
        excludedSources = new HashSet<>();
        i = hostList(args, i, "excludeSource", excludedSources);
        settings.excludedSourceHosts(excludedSources);
      } else if ("-target".equalsIgnoreCase(opt)) {
        targets = new HashSet<>();
        i = hostList(args, i, "target", targets);
        settings.targetHosts(targets);
      } else if ("-excludeTarget".equalsIgnoreCase(opt)) {
        excludedTargets = new HashSet<>();
        i = hostList(args, i, "excludeTarget", excludedTargets);
        settings.excludedTargetHosts(excludedTargets);
      } else if ("-limitOverUtilizedNum".equalsIgnoreCase(opt)) {
        settings.limitOverUtilised((int) integer(args, ++i, opt, 0, Integer.MAX_VALUE, "an integer >= 0"));
      } else if ("-blockpools".equalsIgnoreCase(opt)) {
        String v = value(args, ++i, opt, "a comma-separated list of block pool ids");
        settings.blockPools(new HashSet<>(Arrays.asList(StringUtils.getTrimmedStrings(v))));
      } else if ("-idleiterations".equalsIgnoreCase(opt)) {
        settings.maxIdleIterations((int) integer(args, ++i, opt, -1, Integer.MAX_VALUE,
            "an integer >= -1 (-1 for infinite)"));
      } else if ("-runDuringUpgrade".equalsIgnoreCase(opt)) {
        settings.runDuringUpgrade(true);
      } else if ("-asService".equalsIgnoreCase(opt)) {
        settings.runAsService(true);
      } else if ("-sortTopNodes".equalsIgnoreCase(opt)) {
        settings.sortTopNodes(true);
      } else if ("-hotBlockTimeInterval".equalsIgnoreCase(opt)) {
        settings.hotBlockTimeInterval(integer(args, ++i, opt, 0, Long.MAX_VALUE, "milliseconds >= 0"));
      } else if ("-report".equalsIgnoreCase(opt)) {
        settings.reportFile(value(args, ++i, opt, "a file to write the JSON report to"));
      } else if ("-spreadRacks".equalsIgnoreCase(opt)) {
        settings.spreadRacks(true);
      } else if ("-maxBytes".equalsIgnoreCase(opt)) {
        String v = value(args, ++i, opt, "a byte count such as 500m or 20g");
        long bytes;
        try {
          bytes = StringUtils.TraditionalBinaryPrefix.string2long(v);
        } catch (IllegalArgumentException e) {
          bytes = -1;
        }
        if (bytes <= 0) {
          throw new IllegalArgumentException("-maxBytes " + v + " is not valid: expected a positive byte count such as 500m or 20g");
        }
        settings.spreadMaxBytes(bytes);
        maxBytesGiven = true;
      } else {
        throw new IllegalArgumentException("Unknown option " + opt + ": see the usage below");
      }
    }
    if (included != null && excluded != null) {
      throw new IllegalArgumentException("-exclude and -include options cannot be specified together.");
    }
    if (sources != null && excludedSources != null) {
      throw new IllegalArgumentException("-excludeSource and -source options cannot be specified together.");
    }
    if (targets != null && excludedTargets != null) {
      throw new IllegalArgumentException("-excludeTarget and -target options cannot be specified together.");
    }
    if (maxBytesGiven && !settings.spreadRacks()) {
      throw new IllegalArgumentException("-maxBytes applies to -spreadRacks only: add -spreadRacks or drop -maxBytes");
    }
    return settings;
  }

  /**
   * A line's stock balancer refuses a later line's options as any unknown one ({@code args = [...]}); so does
   * the availability policy, saying which line has them.
   */
  private static void refuseMissingOptions(String[] args, Set<String> missingOptions) {
    for (String a : args) {
      String option = StockOptionLine.laterOption(a);
      if (option != null && missingOptions.contains(option)) {
        throw new IllegalArgumentException("args = " + Arrays.toString(args) + " (" + option + " needs Hadoop "
            + StockOptionLine.firstLineOf(option) + " or later; this is Hadoop " + StockOptionLine.hadoopVersion()
            + ")");
      }
    }
  }

  private static String value(String[] args, int i, String opt, String expected) {
    if (i >= args.length) {
      throw new IllegalArgumentException(opt + " needs a value: expected " + expected);
    }
    return args[i];
  }

  private static long integer(String[] args, int i, String opt, long min, long max, String expected) {
    String v = value(args, i, opt, expected);
    try {
      long n = Long.parseLong(v.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(opt + " " + v + " is not valid: expected " + expected);
  }

  private static int hostList(String[] args, int i, String type, Set<String> nodes) {
    String opt = "-" + type;
    String v = value(args, ++i, opt, "-f <hosts-file> or a comma-separated list of hosts");
    if ("-f".equalsIgnoreCase(v)) {
      String file = value(args, ++i, opt + " -f", "a file listing one host per line");
      try {
        HostsFileReader.readFileToSet(type, file, nodes);
      } catch (IOException e) {
        throw new IllegalArgumentException(opt + " -f " + file + ": cannot read the host list (" + e.getMessage() + ")");
      }
    } else {
      nodes.addAll(Arrays.asList(StringUtils.getTrimmedStrings(v)));
    }
    return i;
  }
}
