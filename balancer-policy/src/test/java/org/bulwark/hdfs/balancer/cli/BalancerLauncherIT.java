package org.bulwark.hdfs.balancer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("compat")
class BalancerLauncherIT {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Configuration conf, String... args) throws Exception {
    return ToolRunner.run(conf, new BalancerLauncher(new PrintStream(out, true, "UTF-8"),
        new PrintStream(err, true, "UTF-8")), args);
  }

  @Test
  void unknownPolicyListsTheThreePoliciesAndExitsWithIllegalArguments() throws Exception {
    assertEquals(ExitStatus.ILLEGAL_ARGUMENTS.getExitCode(), run(new Configuration(), "-policy", "rack"));
    String text = err.toString("UTF-8");
    assertTrue(text.startsWith("Illegal policy name: rack (expected datanode, blockpool or availability)"), text);
    assertTrue(text.contains("the balancing policy: datanode, blockpool or availability"), text);
  }

  @Test
  void helpPrintsTheUsageAndExitsZeroAsTheStockBalancer() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:1"); // nothing listens: help must not touch the cluster
    for (String help : new String[] {"-help", "-h", "--help"}) {
      out.reset();
      assertEquals(0, run(conf, "-policy", "availability", help), help);
      assertTrue(out.toString("UTF-8").startsWith("Usage: hdfs balancer"), out.toString("UTF-8"));
    }
  }

  @Test
  void badArgumentsExitWithIllegalArgumentsBeforeTouchingTheCluster() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:1"); // nothing listens: parsing must fail first
    assertEquals(ExitStatus.ILLEGAL_ARGUMENTS.getExitCode(), run(conf, "-policy", "availability", "-threshold", "200"));
    assertTrue(err.toString("UTF-8").startsWith("-threshold 200 is not valid"));
  }

  @Test
  void nodeGroupTopologiesAreRefusedBeforeTouchingTheCluster() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:1");
    conf.set("net.topology.impl", "org.apache.hadoop.net.NetworkTopologyWithNodeGroup");
    conf.set("dfs.block.replicator.classname",
        "org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyWithNodeGroup");
    assertEquals(ExitStatus.IO_EXCEPTION.getExitCode(), run(conf, "-policy", "availability"));
    assertTrue(out.toString("UTF-8").contains("-policy availability does not support node groups "
        + "(org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyWithNodeGroup in "
        + "dfs.block.replicator.classname); use -policy datanode"), out.toString("UTF-8"));
  }

  @Test
  void aKeytabLoginWithoutAKeytabIsOneLine() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:1");
    conf.set("hadoop.security.authentication", "kerberos");
    conf.setBoolean("dfs.balancer.keytab.enabled", true);
    conf.set("dfs.balancer.kerberos.principal", "hdfs/_HOST@EXAMPLE.COM");
    assertEquals(ExitStatus.ILLEGAL_ARGUMENTS.getExitCode(), run(conf, "-policy", "availability"));
    assertEquals("hadoop.security.authentication is kerberos but dfs.balancer.keytab.file is not set: set "
        + "dfs.balancer.keytab.file to a keytab holding dfs.balancer.kerberos.principal", err.toString("UTF-8").trim());
  }

  @Test
  void datanodePolicyAndNoPolicyRunTheStockBalancer() throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2").build()) {
      PrintStream stdout = System.out;
      ByteArrayOutputStream stock = new ByteArrayOutputStream();
      System.setOut(new PrintStream(stock, true, "UTF-8")); // the stock balancer prints to System.out
      try {
        assertEquals(0, run(c.conf(), "-policy", "datanode", "-threshold", "10"));
        assertEquals(0, run(c.conf(), "-threshold", "10"));
      } finally {
        System.setOut(stdout);
      }
      String text = stock.toString("UTF-8");
      assertTrue(text.contains("The cluster is balanced. Exiting..."), text);
      assertFalse(text.contains("Moves adding a rack"), text);
      assertEquals("", out.toString("UTF-8"), "nothing of ours ran");

      assertEquals(0, run(c.conf(), "-policy", "availability"));
      assertTrue(out.toString("UTF-8").contains("Moves adding a rack"));
      assertTrue(out.toString("UTF-8").contains("The cluster is balanced. Exiting..."));
    }
  }
}
