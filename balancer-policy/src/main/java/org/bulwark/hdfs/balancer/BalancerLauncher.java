package org.bulwark.hdfs.balancer;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockType;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicies;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyWithNodeGroup;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.cli.AvailabilityRun;
import org.bulwark.hdfs.balancer.cli.BalancerOptions;
import org.bulwark.hdfs.balancer.exec.BalancerSettings;
import org.bulwark.hdfs.common.security.KeytabLogin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hdfs balancer}: with {@code -policy availability} runs Bulwark's availability policy;
 * with {@code -policy datanode|blockpool} or none, runs Hadoop's own balancer unchanged. Exit codes
 * are the stock {@code ExitStatus} values.
 */
public final class BalancerLauncher extends Configured implements Tool {
  private static final Logger LOG = LoggerFactory.getLogger(BalancerLauncher.class);
  private static final String STOCK_CLI = "org.apache.hadoop.hdfs.server.balancer.Balancer$Cli";

  private final PrintStream out;
  private final PrintStream err;

  public BalancerLauncher() {
    this(System.out, System.err);
  }

  public BalancerLauncher(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public int run(String[] args) throws Exception {
    String policy = BalancerOptions.policyOf(args);
    if (policy == null || "datanode".equals(policy) || "blockpool".equals(policy)) {
      return runStock(args);
    }
    if (asksForHelp(args)) {
      out.println(BalancerOptions.usage());
      return ExitStatus.SUCCESS.getExitCode();
    }
    Configuration conf = getConf();
    try {
      loginFromKeytabIfEnabled(conf);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return ExitStatus.ILLEGAL_ARGUMENTS.getExitCode();
    }
    try {
      BalancerSettings settings = BalancerOptions.parse(args, new BalancerSettings(conf));
      checkPlacementPolicy(conf);
      Collection<URI> nameNodes = DFSUtil.getInternalNsRpcUris(conf);
      Collection<String> nsIds = DFSUtilClient.getNameServiceIds(conf);
      return new AvailabilityRun(conf, settings, out).run(nameNodes, nsIds);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(BalancerOptions.usage());
      return ExitStatus.ILLEGAL_ARGUMENTS.getExitCode();
    } catch (IOException e) {
      out.println(e + ".  Exiting ...");
      return ExitStatus.IO_EXCEPTION.getExitCode();
    } catch (InterruptedException e) {
      out.println(e + ".  Exiting ...");
      return ExitStatus.INTERRUPTED.getExitCode();
    }
  }

  /** {@code -help} (or {@code -h}, {@code --help}) anywhere: the stock balancer prints its usage and exits 0. */
  private static boolean asksForHelp(String[] args) {
    for (String a : args) {
      if ("-help".equalsIgnoreCase(a) || "-h".equalsIgnoreCase(a) || "--help".equalsIgnoreCase(a)) {
        return true;
      }
    }
    return false;
  }

  /**
   * As the stock balancer: with {@code dfs.balancer.keytab.enabled} it logs in from
   * {@code dfs.balancer.keytab.file} as {@code dfs.balancer.kerberos.principal}, {@code _HOST} standing
   * for the host of {@code dfs.balancer.address}; otherwise it runs as the invoking user's ticket.
   */
  private static void loginFromKeytabIfEnabled(Configuration conf) {
    if (!conf.getBoolean(DFSConfigKeys.DFS_BALANCER_KEYTAB_ENABLED_KEY, DFSConfigKeys.DFS_BALANCER_KEYTAB_ENABLED_DEFAULT)) {
      return;
    }
    InetSocketAddress address = NetUtils.createSocketAddr(conf.get(DFSConfigKeys.DFS_BALANCER_ADDRESS_KEY,
        DFSConfigKeys.DFS_BALANCER_ADDRESS_DEFAULT), 0, DFSConfigKeys.DFS_BALANCER_ADDRESS_KEY);
    KeytabLogin.loginIfKerberos(conf, DFSConfigKeys.DFS_BALANCER_KEYTAB_FILE_KEY,
        DFSConfigKeys.DFS_BALANCER_KERBEROS_PRINCIPAL_KEY, address.getHostName());
  }

  /** The stock balancer's own check: its move logic assumes the default policy's rules. */
  private static void checkPlacementPolicy(Configuration conf) throws IOException {
    // Under node groups a DataNode's network location is /rack/nodegroup: what this policy counts as racks
    // would be node groups, and a move it took for rack-keeping could leave a block on one real rack.
    Class<?> configured = conf.getClass(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
        BlockPlacementPolicyDefault.class);
    if (BlockPlacementPolicyWithNodeGroup.class.isAssignableFrom(configured)) {
      throw new IOException("-policy availability does not support node groups (" + configured.getName()
          + " in " + DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY + "); use -policy datanode");
    }
    BlockPlacementPolicy policy = new BlockPlacementPolicies(conf, null, null, null)
        .getPolicy(BlockType.CONTIGUOUS);
    if (!(policy instanceof BlockPlacementPolicyDefault)) {
      throw new IOException("Balancer without BlockPlacementPolicyDefault: "
          + policy.getClass().getName() + " is configured in dfs.block.replicator.classname");
    }
  }

  /**
   * Hands the command line to Hadoop's balancer. Its {@code Cli} is package-private, so it is
   * created reflectively; it then runs exactly as {@code Balancer.main} would run it.
   */
  private int runStock(String[] args) throws Exception {
    Class<?> cli = Class.forName(STOCK_CLI);
    Constructor<?> ctor = cli.getDeclaredConstructor();
    ctor.setAccessible(true);
    Tool stock = (Tool) ctor.newInstance();
    stock.setConf(getConf());
    return stock.run(args);
  }

  public static void main(String[] args) {
    if (DFSUtil.parseHelpArgument(args, BalancerOptions.usage(), System.out, true)) {
      System.exit(0);
    }
    try {
      System.exit(ToolRunner.run(new HdfsConfiguration(), new BalancerLauncher(), args));
    } catch (Throwable e) {
      LOG.error("Exiting balancer due an exception", e);
      System.exit(-1);
    }
  }
}
