package org.bulwark.hdfs.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell profile, sourced under bash the way bin/hdfs sources it, sends each subcommand to the
 * right class with the right daemonisation flag and classpath, and leaves the stock balancer alone
 * unless {@code -policy availability} is asked for.
 */
class ShellProfileTest {
  private static final String STOCK_BALANCER = "org.apache.hadoop.hdfs.server.balancer.Balancer";
  private static final String[] MODULES = {"common", "balancer-policy", "placement-policy", "hotstandby", "monitor"};

  @TempDir
  Path tmp;
  private FakeHdfsCommand hdfs;

  @BeforeEach
  void overlayInstall() throws Exception {
    hdfs = new FakeHdfsCommand(tmp);
    hdfs.installProfile(FakeHdfsCommand.PROFILE, hdfs.libexec);
    FakeHdfsCommand.createModuleJars(hdfs.hdfsLib, MODULES);
  }

  @Test
  void balancerWithoutAvailabilityPolicyIsTheStockBalancer() throws Exception {
    for (String[] args : List.of(new String[] {"balancer"},
        new String[] {"balancer", "-threshold", "5"},
        new String[] {"balancer", "-policy", "datanode"},
        new String[] {"balancer", "-policy", "blockpool", "-threshold", "availability"})) {
      FakeHdfsCommand.Outcome o = hdfs.run(args);
      assertEquals(0, o.exitCode, o.toString());
      assertEquals(STOCK_BALANCER, o.get("HADOOP_CLASSNAME"), o.toString());
      assertEquals("true", o.get("HADOOP_SUBCMD_SUPPORTDAEMONIZATION"), o.toString());
      assertEquals(List.of(), o.classpath(), "the stock balancer needs nothing of ours: " + o);
    }
  }

  @Test
  void balancerWithAvailabilityPolicyIsTheLauncherWithItsJar() throws Exception {
    for (String[] option : List.of(new String[] {"-policy", "availability"}, new String[] {"-policy", "AVAILABILITY"},
        new String[] {"-Policy", "Availability"}, new String[] {"-POLICY", "availability"})) {
      String policy = option[1];
      FakeHdfsCommand.Outcome o = hdfs.run("balancer", "-threshold", "5", option[0], policy, "-idleiterations", "3");
      assertEquals(0, o.exitCode, o.toString());
      assertEquals("org.bulwark.hdfs.balancer.BalancerLauncher", o.get("HADOOP_CLASSNAME"));
      assertEquals("true", o.get("HADOOP_SUBCMD_SUPPORTDAEMONIZATION"));
      assertEquals(List.of(hdfs.hdfsLib.resolve("bulwark-balancer-policy-0.1.0.jar").toString()), o.classpath());
      assertEquals("-threshold 5 " + option[0] + " " + policy + " -idleiterations 3", o.get("HADOOP_SUBCMD_ARGS"),
          "the launcher gets every argument, the policy included");
    }
  }

  @Test
  void hotstandbyAndBlockmonitorAreDaemonsWithTheirJars() throws Exception {
    FakeHdfsCommand.Outcome hs = hdfs.run("hotstandby");
    assertEquals(0, hs.exitCode, hs.toString());
    assertEquals("org.bulwark.hdfs.hotstandby.HotStandbyController", hs.get("HADOOP_CLASSNAME"));
    assertEquals("true", hs.get("HADOOP_SUBCMD_SUPPORTDAEMONIZATION"));
    assertEquals(List.of(hdfs.hdfsLib.resolve("bulwark-hotstandby-0.1.0.jar").toString()), hs.classpath());

    FakeHdfsCommand.Outcome bm = hdfs.run("blockmonitor");
    assertEquals(0, bm.exitCode, bm.toString());
    assertEquals("org.bulwark.hdfs.monitor.BlockMonitor", bm.get("HADOOP_CLASSNAME"));
    assertEquals("true", bm.get("HADOOP_SUBCMD_SUPPORTDAEMONIZATION"));
    assertEquals(List.of(hdfs.hdfsLib.resolve("bulwark-monitor-0.1.0.jar").toString(),
        hdfs.hdfsLib.resolve("bulwark-monitor-lib").toString() + "/*"), bm.classpath(), "the jar, then its JDBC drivers");
  }

  @Test
  void registersTheProfileAndTheNewSubcommandsForUsage() throws Exception {
    FakeHdfsCommand.Outcome o = hdfs.run("namenode");
    assertEquals("stock", o.get("SUBCMD_SOURCE"), "commands the profile does not define stay stock");
    assertEquals("org.apache.hadoop.hdfs.server.namenode.NameNode", o.get("HADOOP_CLASSNAME"));
    assertEquals("bulwark", o.get("HADOOP_SHELL_PROFILES"));
    assertEquals(List.of(
        "hotstandby@daemon@run the Bulwark ZooKeeper failover controller for this NameNode",
        "blockmonitor@daemon@run the Bulwark replica-location history monitor"), o.usage);
  }

  @Test
  void missingModuleJarStopsWithOneLineNamingIt() throws Exception {
    FakeHdfsCommand bare = new FakeHdfsCommand(tmp.resolve("bare"));
    bare.installProfile(FakeHdfsCommand.PROFILE, bare.libexec);
    FakeHdfsCommand.Outcome o = bare.run("hotstandby");
    assertEquals(1, o.exitCode, o.toString());
    String err = o.stderr.trim();
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("ERROR: bulwark-hotstandby-*.jar not found"), err);

    FakeHdfsCommand.Outcome stock = bare.run("balancer", "-policy", "datanode");
    assertEquals(0, stock.exitCode, "the stock balancer never needs our jars: " + stock);
  }

  @Test
  void installWithoutWriteAccessUsesConfDirProfileAndHadoopClasspath() throws Exception {
    FakeHdfsCommand readOnly = new FakeHdfsCommand(tmp.resolve("ro"));
    Path bulwarkLib = tmp.resolve("opt/bulwark/share/hadoop/hdfs/lib");
    FakeHdfsCommand.createModuleJars(bulwarkLib, MODULES);
    readOnly.installProfile(FakeHdfsCommand.PROFILE, readOnly.confDir);
    readOnly.env.put("HADOOP_CLASSPATH", "/etc/extra.jar:" + bulwarkLib + "/*");

    FakeHdfsCommand.Outcome o = readOnly.run("balancer", "-policy", "availability");
    assertEquals(0, o.exitCode, o.toString());
    assertEquals("org.bulwark.hdfs.balancer.BalancerLauncher", o.get("HADOOP_CLASSNAME"));
    assertEquals(List.of(bulwarkLib.resolve("bulwark-balancer-policy-0.1.0.jar").toString()), o.classpath());
  }

  @Test
  void bulwarkHomePutsItsJarsOnEveryCommandsClasspath() throws Exception {
    FakeHdfsCommand readOnly = new FakeHdfsCommand(tmp.resolve("home"));
    Path bulwarkHome = tmp.resolve("opt/bulwark-home");
    FakeHdfsCommand.createModuleJars(bulwarkHome.resolve("share/hadoop/hdfs/lib"), MODULES);
    readOnly.installProfile(FakeHdfsCommand.PROFILE, readOnly.confDir);
    readOnly.env.put("BULWARK_HOME", bulwarkHome.toString());

    FakeHdfsCommand.Outcome nn = readOnly.run("namenode");
    assertEquals(List.of(bulwarkHome + "/share/hadoop/hdfs/lib/*"), nn.classpath(),
        "the NameNode must see the placement policies");

    FakeHdfsCommand.Outcome hs = readOnly.run("hotstandby");
    assertEquals(0, hs.exitCode, hs.toString());
    // hadoop-config.sh runs the profiles' classpath hooks before bin/hdfs knows the subcommand.
    assertEquals(List.of(bulwarkHome + "/share/hadoop/hdfs/lib/*",
        bulwarkHome + "/share/hadoop/hdfs/lib/bulwark-hotstandby-0.1.0.jar"), hs.classpath());
  }

  /**
   * A new version's tarball extracted over an old one leaves both versions' jars side by side (0.10 sorts before
   * 0.9): every command refuses with one line naming both, rather than run whichever Java loads first.
   */
  @Test
  void twoVersionsOfAModulesJarAreRefusedWithOneLineNamingBoth() throws Exception {
    FakeHdfsCommand upgraded = new FakeHdfsCommand(tmp.resolve("upgraded"));
    upgraded.installProfile(FakeHdfsCommand.PROFILE, upgraded.libexec);
    FakeHdfsCommand.createModuleJars(upgraded.hdfsLib, MODULES);
    java.nio.file.Files.createFile(upgraded.hdfsLib.resolve("bulwark-hotstandby-0.10.0.jar"));
    for (String[] command : List.of(new String[] {"hotstandby"}, new String[] {"namenode"},
        new String[] {"balancer", "-policy", "availability"})) {
      FakeHdfsCommand.Outcome o = upgraded.run(command);
      assertEquals(1, o.exitCode, o.toString());
      String err = o.stderr.trim();
      assertEquals(1, err.lines().count(), err);
      assertTrue(err.startsWith("ERROR: two versions of Bulwark's hotstandby jar: ") && err.contains("bulwark-hotstandby-0.1.0.jar")
          && err.contains("bulwark-hotstandby-0.10.0.jar"), err);
    }
    java.nio.file.Files.delete(upgraded.hdfsLib.resolve("bulwark-hotstandby-0.1.0.jar"));
    FakeHdfsCommand.Outcome o = upgraded.run("hotstandby");
    assertEquals(0, o.exitCode, o.toString());
    assertEquals(List.of(upgraded.hdfsLib.resolve("bulwark-hotstandby-0.10.0.jar").toString()), o.classpath());
  }

  /** The same version reached twice (BULWARK_HOME is the Hadoop install itself) is one install, not two. */
  @Test
  void theSameVersionFoundTwiceIsNotRefused() throws Exception {
    hdfs.env.put("BULWARK_HOME", hdfs.hadoopHome.toString());
    hdfs.env.put("HADOOP_CLASSPATH", hdfs.hdfsLib + "/*");
    FakeHdfsCommand.Outcome o = hdfs.run("hotstandby");
    assertEquals(0, o.exitCode, o.toString());
    assertEquals("org.bulwark.hdfs.hotstandby.HotStandbyController", o.get("HADOOP_CLASSNAME"));
  }
}
