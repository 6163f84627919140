package org.bulwark.hdfs.balancer.it;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;

/** Runs the launcher in this JVM and keeps what it printed. */
final class BalancerRuns {
  final int exit;
  final String console;

  private BalancerRuns(int exit, String console) {
    this.exit = exit;
    this.console = console;
  }

  static BalancerRuns run(Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, "UTF-8");
    int exit = ToolRunner.run(new Configuration(conf), new BalancerLauncher(print, print), args);
    return new BalancerRuns(exit, out.toString("UTF-8"));
  }
}
