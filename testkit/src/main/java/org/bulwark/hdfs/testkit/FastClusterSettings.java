package org.bulwark.hdfs.testkit;

import org.apache.hadoop.conf.Configuration;

/**
 * Settings that make an embedded cluster react in seconds instead of minutes: one-second heartbeats,
 * quick dead-node detection and redundancy checks, tiny blocks accepted, and a balancer that moves
 * small blocks and does not idle. Values measured on 2 cores (see hadoop-facts.md).
 */
public final class FastClusterSettings {
  private FastClusterSettings() {
  }

  public static Configuration apply(Configuration conf) {
    conf.setLong("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 500);
    // Stale after 5 heartbeats, before the 11 s after which the NameNode declares a DataNode dead.
    conf.setLong("dfs.namenode.stale.datanode.interval", 5000);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    // A re-replication scheduled to a DataNode that never reports the copy (its rack came back with the
    // replicas meanwhile) stays pending until this timeout: 300 s by default, longer than a test waits (CI,
    // 2026-11-27: "pending reconstruction 2" for 90 s after a datacenter restart, every block fully replicated).
    conf.setInt("dfs.namenode.reconstruction.pending.timeout-sec", 10);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setFloat("dfs.namenode.safemode.threshold-pct", 0f);
    conf.setInt("dfs.namenode.decommission.interval", 1);
    conf.setLong("dfs.balancer.getBlocks.min-block-size", 1);
    conf.setLong("dfs.balancer.movedWinWidth", 2000);
    conf.setLong("dfs.balancer.max-no-move-interval", 5000);
    // A standby NameNode follows the active's edits every second rather than every minute.
    conf.set("dfs.ha.tail-edits.period", "1s");
    // A dead NameNode is given up on in 0.3 s rather than 10 s: DataNodes otherwise take that long to
    // shut down after a NameNode of theirs was killed.
    conf.setInt("ipc.client.connect.max.retries", 3);
    conf.setInt("ipc.client.connect.retry.interval", 100);
    // A client closing a file (or adding its next block) before the DataNodes' incremental report of the last
    // block reached the NameNode asks again after this delay, doubling it each time: 400 ms by default, which 69
    // of 308 file closes of one test class paid (on a loaded host). 25 ms, with twice the retries, still waits up
    // to 25 s in all (the default gives up after 12.4 s).
    conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 25);
    conf.setInt("dfs.client.block.write.locateFollowingBlock.retries", 10);
    return conf;
  }
}
