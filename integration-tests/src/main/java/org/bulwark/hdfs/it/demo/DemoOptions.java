package org.bulwark.hdfs.it.demo;

import java.io.File;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.bulwark.hdfs.placement.HierarchicalPlacementPolicy;
import org.bulwark.hdfs.placement.OneReplicaPerRackPlacementPolicy;
import org.bulwark.hdfs.testkit.TopologySpec;

/**
 * The demo's command line: what cluster to start and what to write. Every problem is reported as one
 * line naming the option and what it accepts.
 */
final class DemoOptions {
  // Option names avoid those GenericOptionsParser takes first (-files, -libjars, -archives, -conf, -fs, -D).
  static final String USAGE = "usage: bulwark demo [-topology SPEC] [-capacity BYTES] [-numFiles N] [-fileSize BYTES]"
      + " [-placement default|one-per-rack|hierarchical|CLASS] [-balancer availability|datanode|blockpool|none]"
      + " [-namenodes N] [-dir DIR] [-seed N] [-exit]";

  TopologySpec topology = TopologySpec.parse("/dc1/r1:2,/dc1/r2:2,/dc1/r3:2,/dc2/r4:2,/dc2/r5:2,/dc2/r6:2");
  long capacity = 256L << 20;
  int files = 60;
  long fileSize = 3L << 20;
  /** The NameNodes' placement policy; null for Hadoop's default. */
  Class<? extends BlockPlacementPolicy> placement = HierarchicalPlacementPolicy.class;
  File dir = new File("target/demo-cluster");
  long seed = 1;
  boolean exitWhenDone;
  /** The balancing policy run after a skewed write, or null for none. */
  String balancer = "availability";
  /** NameNodes: more than one makes the nameservice HA under hdfs hotstandby, and the demo shows a failover. */
  int nameNodes = 2;

  static DemoOptions parse(String[] args) {
    DemoOptions o = new DemoOptions();
    for (int i = 0; i < args.length; i++) {
      String opt = args[i];
      if ("-exit".equals(opt)) {
        o.exitWhenDone = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(opt.startsWith("-") && isKnown(opt)
            ? opt + " needs a value" : "unknown option '" + opt + "'");
      }
      String value = args[++i];
      switch (opt) {
        case "-topology" -> o.topology = TopologySpec.parse(value);
        case "-capacity" -> o.capacity = size(opt, value);
        case "-numFiles" -> o.files = (int) Math.min(Integer.MAX_VALUE, number(opt, value, 1));
        case "-fileSize" -> o.fileSize = size(opt, value);
        case "-placement" -> o.placement = placement(value);
        case "-dir" -> o.dir = new File(value);
        case "-seed" -> o.seed = number(opt, value, Long.MIN_VALUE);
        case "-balancer" -> o.balancer = balancer(value);
        case "-namenodes" -> o.nameNodes = (int) Math.min(5, number(opt, value, 1));
        default -> throw new IllegalArgumentException("unknown option '" + opt + "'");
      }
    }
    return o;
  }

  private static String balancer(String value) {
    return switch (value) {
      case "availability", "datanode", "blockpool" -> value;
      case "none" -> null;
      default -> throw new IllegalArgumentException("-balancer '" + value
          + "' is not valid: expected availability, datanode, blockpool or none");
    };
  }

  private static boolean isKnown(String opt) {
    return switch (opt) {
      case "-topology", "-capacity", "-numFiles", "-fileSize", "-placement", "-dir", "-seed", "-balancer", "-namenodes" -> true;
      default -> false;
    };
  }

  private static long number(String opt, String value, long min) {
    try {
      long v = Long.parseLong(value);
      if (v >= min) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(opt + " '" + value + "' is not a whole number" + (min > Long.MIN_VALUE ? " >= " + min : ""));
  }

  private static long size(String opt, String value) {
    try {
      long v = org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix.string2long(value);
      if (v > 0) {
        return v;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new IllegalArgumentException(opt + " '" + value + "' is not a positive size such as 1048576, 512k, 3m or 1g");
  }

  private static Class<? extends BlockPlacementPolicy> placement(String value) {
    switch (value) {
      case "default":
        return null;
      case "one-per-rack":
        return OneReplicaPerRackPlacementPolicy.class;
      case "hierarchical":
        return HierarchicalPlacementPolicy.class;
      default:
        break;
    }
    try {
      return Class.forName(value).asSubclass(BlockPlacementPolicy.class);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("-placement '" + value
          + "' is not a class on the classpath: give default, one-per-rack, hierarchical or a BlockPlacementPolicy class name");
    } catch (ClassCastException e) {
      throw new IllegalArgumentException("-placement '" + value + "' is not a BlockPlacementPolicy");
    }
  }
}
