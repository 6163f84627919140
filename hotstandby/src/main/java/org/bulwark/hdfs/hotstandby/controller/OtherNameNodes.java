package org.bulwark.hdfs.hotstandby.controller;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the nameservice's other NameNodes which of them is active. The fencing breadcrumb names every NameNode a
 * controller of ours may have made active; a NameNode made active outside our election (by the stock ZKFC before an
 * administrator moved the nameservice over, or by hand with {@code haadmin --forcemanual}) is named by none, so the
 * breadcrumb alone would let a new leader make its own NameNode active beside it. The controller asks before it
 * takes a free leadership and again once it holds the lock, and fences what answers active.
 */
public final class OtherNameNodes {
  private static final Logger LOG = LoggerFactory.getLogger(OtherNameNodes.class);

  /** One NameNode's HA state over {@code HAServiceProtocol}; an exception when it does not answer. */
  @FunctionalInterface
  public interface StateProbe {
    HAServiceState state(String nameNodeId) throws IOException;
  }

  /** For a controller told of no other NameNode: none is ever found active. */
  public static final OtherNameNodes NONE = new OtherNameNodes(new ArrayList<>(), id -> null);

  private final List<String> others;
  private final StateProbe probe;

  /** @param others the nameservice's NameNodes but this controller's own */
  public OtherNameNodes(Collection<String> others, StateProbe probe) {
    this.others = new ArrayList<>(others);
    this.probe = probe;
  }

  /**
   * The other NameNodes that answer active, leaving out {@code skip} (those the breadcrumb names: they are fenced
   * whatever they answer, and a hung one would hold the question up for its whole timeout). One that does not answer
   * is not counted: nothing says it is active, as before a breadcrumb existed.
   */
  public Set<String> active(Set<String> skip) {
    Set<String> out = new TreeSet<>();
    for (String nn : others) {
      if (skip.contains(nn)) {
        continue;
      }
      try {
        if (probe.state(nn) == HAServiceState.ACTIVE) {
          out.add(nn);
        }
      } catch (IOException | RuntimeException e) {
        LOG.debug("NameNode {} did not say its HA state: {}", nn, e.toString());
      }
    }
    return out;
  }
}
