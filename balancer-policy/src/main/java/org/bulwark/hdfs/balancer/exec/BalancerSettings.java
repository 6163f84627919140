package org.bulwark.hdfs.balancer.exec;

import java.util.Collections;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;

/**
 * Everything one balancer run is told: the command line (stock options plus ours) and the
 * {@code dfs.balancer.*} / {@code dfs.datanode.balance.*} settings the stock balancer reads.
 */
public final class BalancerSettings {
  /** Hadoop 3.4's key (not in 3.3's DFSConfigKeys; 3.3's getBlocks has no hot-block interval), default 0. */
  static final String GETBLOCKS_HOT_TIME_INTERVAL_KEY = "dfs.balancer.getBlocks.hot-time-interval";

  private double threshold = 10.0;
  private Set<String> includedHosts = Collections.emptySet();
  private Set<String> excludedHosts = Collections.emptySet();
  private Set<String> sourceHosts = Collections.emptySet();
  private Set<String> excludedSourceHosts = Collections.emptySet();
  private Set<String> targetHosts = Collections.emptySet();
  private Set<String> excludedTargetHosts = Collections.emptySet();
  private int limitOverUtilised = Integer.MAX_VALUE;
  private Set<String> blockPools = Collections.emptySet();
  private int maxIdleIterations = NameNodeConnector.DEFAULT_MAX_IDLE_ITERATIONS;
  private boolean runDuringUpgrade;
  private boolean runAsService;
  private boolean sortTopNodes;
  private long hotBlockTimeInterval;
  private boolean spreadRacks;
  private long spreadMaxBytes = Long.MAX_VALUE;
  private String reportFile;

  private long movedWinWidth;
  private int moverThreads;
  private int maxConcurrentMovesPerNode;
  private int maxNoMoveInterval;
  private int blockMoveTimeout;
  private long maxIterationTime;
  private long getBlocksSize;
  private long getBlocksMinBlockSize;
  private long maxSizeToMove;
  private long defaultBlockSize;
  private long iterationPauseMillis;

  /** Reads the configuration part; command-line values are set afterwards. */
  public BalancerSettings(Configuration conf) {
    movedWinWidth = conf.getLong(DFSConfigKeys.DFS_BALANCER_MOVEDWINWIDTH_KEY,
        DFSConfigKeys.DFS_BALANCER_MOVEDWINWIDTH_DEFAULT);
    moverThreads = conf.getInt(DFSConfigKeys.DFS_BALANCER_MOVERTHREADS_KEY,
        DFSConfigKeys.DFS_BALANCER_MOVERTHREADS_DEFAULT);
    maxConcurrentMovesPerNode = conf.getInt(DFSConfigKeys.DFS_DATANODE_BALANCE_MAX_NUM_CONCURRENT_MOVES_KEY,
        DFSConfigKeys.DFS_DATANODE_BALANCE_MAX_NUM_CONCURRENT_MOVES_DEFAULT);
    maxNoMoveInterval = conf.getInt(DFSConfigKeys.DFS_BALANCER_MAX_NO_MOVE_INTERVAL_KEY,
        DFSConfigKeys.DFS_BALANCER_MAX_NO_MOVE_INTERVAL_DEFAULT);
    blockMoveTimeout = conf.getInt(DFSConfigKeys.DFS_BALANCER_BLOCK_MOVE_TIMEOUT,
        DFSConfigKeys.DFS_BALANCER_BLOCK_MOVE_TIMEOUT_DEFAULT);
    maxIterationTime = conf.getLong(DFSConfigKeys.DFS_BALANCER_MAX_ITERATION_TIME_KEY,
        DFSConfigKeys.DFS_BALANCER_MAX_ITERATION_TIME_DEFAULT);
    getBlocksSize = conf.getLongBytes(DFSConfigKeys.DFS_BALANCER_GETBLOCKS_SIZE_KEY,
        DFSConfigKeys.DFS_BALANCER_GETBLOCKS_SIZE_DEFAULT);
    getBlocksMinBlockSize = conf.getLongBytes(DFSConfigKeys.DFS_BALANCER_GETBLOCKS_MIN_BLOCK_SIZE_KEY,
        DFSConfigKeys.DFS_BALANCER_GETBLOCKS_MIN_BLOCK_SIZE_DEFAULT);
    maxSizeToMove = conf.getLongBytes(DFSConfigKeys.DFS_BALANCER_MAX_SIZE_TO_MOVE_KEY,
        DFSConfigKeys.DFS_BALANCER_MAX_SIZE_TO_MOVE_DEFAULT);
    defaultBlockSize = conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
    hotBlockTimeInterval = conf.getTimeDuration(GETBLOCKS_HOT_TIME_INTERVAL_KEY, 0, TimeUnit.MILLISECONDS);
    // the stock pause: two heartbeats and one redundancy-monitor round
    iterationPauseMillis = 2 * conf.getTimeDuration(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
        DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT, TimeUnit.SECONDS, TimeUnit.MILLISECONDS)
        + conf.getTimeDuration(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY,
            DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_DEFAULT, TimeUnit.SECONDS,
            TimeUnit.MILLISECONDS);
  }

  public double threshold() {
    return threshold;
  }

  public BalancerSettings threshold(double value) {
    threshold = value;
    return this;
  }

  public Set<String> includedHosts() {
    return includedHosts;
  }

  public BalancerSettings includedHosts(Set<String> hosts) {
    includedHosts = hosts;
    return this;
  }

  public Set<String> excludedHosts() {
    return excludedHosts;
  }

  public BalancerSettings excludedHosts(Set<String> hosts) {
    excludedHosts = hosts;
    return this;
  }

  public Set<String> sourceHosts() {
    return sourceHosts;
  }

  public BalancerSettings sourceHosts(Set<String> hosts) {
    sourceHosts = hosts;
    return this;
  }

  /** Hadoop 3.5's {@code -excludeSource}: these DataNodes never give. */
  public Set<String> excludedSourceHosts() {
    return excludedSourceHosts;
  }

  public BalancerSettings excludedSourceHosts(Set<String> hosts) {
    excludedSourceHosts = hosts;
    return this;
  }

  /** Hadoop 3.5's {@code -target}: when not empty, only these DataNodes take. */
  public Set<String> targetHosts() {
    return targetHosts;
  }

  public BalancerSettings targetHosts(Set<String> hosts) {
    targetHosts = hosts;
    return this;
  }

  /** Hadoop 3.5's {@code -excludeTarget}: these DataNodes never take. */
  public Set<String> excludedTargetHosts() {
    return excludedTargetHosts;
  }

  public BalancerSettings excludedTargetHosts(Set<String> hosts) {
    excludedTargetHosts = hosts;
    return this;
  }

  /** Hadoop 3.5's {@code -limitOverUtilizedNum}: at most this many over-utilised DataNodes give per iteration. */
  public int limitOverUtilised() {
    return limitOverUtilised;
  }

  public BalancerSettings limitOverUtilised(int value) {
    limitOverUtilised = value;
    return this;
  }

  public Set<String> blockPools() {
    return blockPools;
  }

  public BalancerSettings blockPools(Set<String> pools) {
    blockPools = pools;
    return this;
  }

  public int maxIdleIterations() {
    return maxIdleIterations;
  }

  public BalancerSettings maxIdleIterations(int value) {
    maxIdleIterations = value;
    return this;
  }

  public boolean runDuringUpgrade() {
    return runDuringUpgrade;
  }

  public BalancerSettings runDuringUpgrade(boolean value) {
    runDuringUpgrade = value;
    return this;
  }

  public boolean runAsService() {
    return runAsService;
  }

  public BalancerSettings runAsService(boolean value) {
    runAsService = value;
    return this;
  }

  public boolean sortTopNodes() {
    return sortTopNodes;
  }

  public BalancerSettings sortTopNodes(boolean value) {
    sortTopNodes = value;
    return this;
  }

  public long hotBlockTimeInterval() {
    return hotBlockTimeInterval;
  }

  public BalancerSettings hotBlockTimeInterval(long millis) {
    hotBlockTimeInterval = millis;
    return this;
  }

  public boolean spreadRacks() {
    return spreadRacks;
  }

  public BalancerSettings spreadRacks(boolean value) {
    spreadRacks = value;
    return this;
  }

  public long spreadMaxBytes() {
    return spreadMaxBytes;
  }

  public BalancerSettings spreadMaxBytes(long bytes) {
    spreadMaxBytes = bytes;
    return this;
  }

  /** Where {@code -report} writes the JSON report, or null. */
  public String reportFile() {
    return reportFile;
  }

  public BalancerSettings reportFile(String path) {
    reportFile = path;
    return this;
  }

  long movedWinWidth() {
    return movedWinWidth;
  }

  int moverThreads() {
    return moverThreads;
  }

  int maxConcurrentMovesPerNode() {
    return maxConcurrentMovesPerNode;
  }

  int maxNoMoveInterval() {
    return maxNoMoveInterval;
  }

  /** {@code dfs.balancer.block-move.timeout}: how long one move's response is awaited (0: for ever). */
  int blockMoveTimeout() {
    return blockMoveTimeout;
  }

  /** {@code dfs.balancer.max-iteration-time}: after this an iteration submits nothing more (negative: no limit). */
  long maxIterationTime() {
    return maxIterationTime;
  }

  long getBlocksSize() {
    return getBlocksSize;
  }

  long getBlocksMinBlockSize() {
    return getBlocksMinBlockSize;
  }

  long maxSizeToMove() {
    return maxSizeToMove;
  }

  long defaultBlockSize() {
    return defaultBlockSize;
  }

  public long iterationPauseMillis() {
    return iterationPauseMillis;
  }

  @Override
  public String toString() {
    return "policy=availability, threshold=" + threshold + ", include=" + includedHosts
        + ", exclude=" + excludedHosts + ", source=" + sourceHosts + ", excludeSource=" + excludedSourceHosts
        + ", target=" + targetHosts + ", excludeTarget=" + excludedTargetHosts
        + (limitOverUtilised == Integer.MAX_VALUE ? "" : ", limitOverUtilizedNum=" + limitOverUtilised)
        + ", blockpools=" + blockPools
        + ", idleiterations=" + maxIdleIterations + ", runDuringUpgrade=" + runDuringUpgrade
        + ", asService=" + runAsService + ", sortTopNodes=" + sortTopNodes
        + " (the fullest DataNodes always choose first), hotBlockTimeInterval=" + hotBlockTimeInterval
        + ", spreadRacks=" + spreadRacks + (spreadRacks ? ", maxBytes=" + spreadMaxBytes : "");
  }
}
