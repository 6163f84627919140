package org.bulwark.hdfs.hotstandby.fencing;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.ha.NodeFencer;
import org.apache.hadoop.hdfs.tools.NNHAServiceTarget;
import org.bulwark.hdfs.hotstandby.health.HaServiceProxies;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the previous active NameNode of a nameservice serves no more before another becomes
 * active: first a graceful {@code transitionToStandby} (fast when the NameNode still answers), then
 * Hadoop's {@link NodeFencer} with the configured {@code dfs.ha.fencing.methods} (sshfence, shell...),
 * exactly the methods, order and parameters the stock ZKFC uses. The graceful attempt is skipped when
 * this controller's own checks of that NameNode have gone unanswered for longer than the attempt would
 * wait: a hung NameNode or a vanished host would let it time out, so it would only delay the fencing by
 * its whole timeout. Skipping changes how the NameNode is fenced, never whether.
 */
public final class PreviousActiveFencer {
  private static final Logger LOG = LoggerFactory.getLogger(PreviousActiveFencer.class);

  /** How a NameNode was fenced. */
  public enum Outcome {
    /** It answered and went to standby. */
    GRACEFUL,
    /** It did not answer; a configured fencing method succeeded. */
    FENCED,
    /** Nothing could fence it: it must not be assumed down. */
    FAILED
  }

  /** How long a NameNode has left this controller's own checks unanswered (0: it answered the last one). */
  @FunctionalInterface
  public interface Silence {
    long unansweredMillis(String nameNodeId);

    /** For a controller that watches no other NameNode: every graceful attempt is made. */
    Silence UNKNOWN = nameNodeId -> 0;
  }

  private final Configuration conf;
  private final String nameservice;
  private final long gracefulTimeoutMillis;
  private final Silence silence;

  public PreviousActiveFencer(Configuration conf, String nameservice, long gracefulTimeoutMillis, Silence silence) {
    this.conf = conf;
    this.nameservice = nameservice;
    this.gracefulTimeoutMillis = gracefulTimeoutMillis;
    this.silence = silence;
  }

  public Outcome fence(String nameNodeId) {
    NNHAServiceTarget target = new NNHAServiceTarget(conf, nameservice, nameNodeId);
    long unanswered = silence.unansweredMillis(nameNodeId);
    if (unanswered > gracefulTimeoutMillis) {
      LOG.info("Previous active NameNode {} has answered none of this controller's checks for {} ms, longer than the "
          + "graceful timeout ({} ms): running the fencing methods without a graceful attempt", nameNodeId, unanswered,
          gracefulTimeoutMillis);
      return fenceByMethods(target, nameNodeId);
    }
    try {
      HaServiceProxies.call(conf, target.getAddress(), gracefulTimeoutMillis,
          p -> p.transitionToStandby(new StateChangeRequestInfo(RequestSource.REQUEST_BY_ZKFC)));
      LOG.info("Previous active NameNode {} went to standby", nameNodeId);
      return Outcome.GRACEFUL;
    } catch (Exception e) {
      LOG.info("Previous active NameNode {} did not go to standby gracefully ({}); running the fencing methods",
          nameNodeId, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().split("\n")[0]);
    }
    return fenceByMethods(target, nameNodeId);
  }

  private Outcome fenceByMethods(NNHAServiceTarget target, String nameNodeId) {
    NodeFencer fencer = target.getFencer();
    if (fencer == null) {
      LOG.error("Cannot fence NameNode {}: dfs.ha.fencing.methods is not set", nameNodeId);
      return Outcome.FAILED;
    }
    if (fencer.fence(target)) {
      return Outcome.FENCED;
    }
    LOG.error("Every fencing method failed for NameNode {}", nameNodeId);
    return Outcome.FAILED;
  }
}
