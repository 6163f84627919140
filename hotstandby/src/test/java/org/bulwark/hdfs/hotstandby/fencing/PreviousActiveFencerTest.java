package org.bulwark.hdfs.hotstandby.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.hotstandby.SilentPort;
import org.junit.jupiter.api.Test;

/**
 * The graceful attempt is made unless the NameNode has been silent for longer than the attempt would
 * wait, and skipping it never stands in for the fencing methods. The previous active is a port that
 * accepts and never answers (a hung NameNode), so whether the attempt was made shows in its connections.
 */
class PreviousActiveFencerTest {
  private static final long GRACEFUL_MS = 300;

  private static Configuration conf(SilentPort hung, String fencingMethod) {
    Configuration conf = new Configuration(false);
    conf.set("dfs.nameservices", "ns1");
    conf.set("dfs.ha.namenodes.ns1", "nn1,nn2");
    conf.set("dfs.namenode.rpc-address.ns1.nn1", "127.0.0.1:" + hung.address().getPort());
    conf.set("dfs.namenode.rpc-address.ns1.nn2", "127.0.0.1:1");
    conf.set("dfs.ha.fencing.methods", fencingMethod);
    return conf;
  }

  @Test
  void silentNameNodeIsFencedByTheMethodsWithoutAGracefulAttempt() throws Exception {
    try (SilentPort hung = new SilentPort()) {
      PreviousActiveFencer fencer = new PreviousActiveFencer(conf(hung, "shell(true)"), "ns1", GRACEFUL_MS,
          nn -> "nn1".equals(nn) ? GRACEFUL_MS + 1 : 0);
      assertEquals(PreviousActiveFencer.Outcome.FENCED, fencer.fence("nn1"));
      assertEquals(0, hung.accepted(), "no graceful transitionToStandby was sent");
    }
  }

  @Test
  void nameNodeSilentForLessThanTheGracefulTimeoutGetsTheAttempt() throws Exception {
    try (SilentPort hung = new SilentPort()) {
      PreviousActiveFencer fencer = new PreviousActiveFencer(conf(hung, "shell(true)"), "ns1", GRACEFUL_MS,
          nn -> GRACEFUL_MS);
      assertEquals(PreviousActiveFencer.Outcome.FENCED, fencer.fence("nn1"));
      assertTrue(hung.accepted() >= 1, "the graceful transitionToStandby was sent, and timed out");
    }
  }

  @Test
  void skippingTheAttemptNeverCountsAsFenced() throws Exception {
    try (SilentPort hung = new SilentPort()) {
      PreviousActiveFencer fencer = new PreviousActiveFencer(conf(hung, "shell(false)"), "ns1", GRACEFUL_MS,
          nn -> 60_000);
      assertEquals(PreviousActiveFencer.Outcome.FAILED, fencer.fence("nn1"));
      assertEquals(0, hung.accepted());
    }
  }
}
