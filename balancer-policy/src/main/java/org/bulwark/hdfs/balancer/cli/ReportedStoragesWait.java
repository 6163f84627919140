package org.bulwark.hdfs.balancer.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;

import org.bulwark.hdfs.balancer.BalancerKeys;
import org.bulwark.hdfs.balancer.exec.ActiveNameNodeState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a run back while a namespace's active NameNode has storages without a block report since it
 * became active (after a failover, or a NameNode's first activation): it then postpones deleting excess
 * replicas and skips those storages in {@code getBlocks}, so moves would pile up copies whose sources
 * stay. Waits, saying why and what settles it, up to {@link BalancerKeys#REPORTED_STORAGES_WAIT}; then
 * the run exits without moving. A NameNode whose JMX cannot be read is not waited for (logged once).
 */
final class ReportedStoragesWait {
  private static final Logger LOG = LoggerFactory.getLogger(ReportedStoragesWait.class);
  private static final long POLL_MILLIS = 2000;
  /** How long NameNodes that answer but name no active one (their JMX lags a failover) are waited for. */
  private static final long NO_ACTIVE_MILLIS = 30_000;

  private final ActiveNameNodeState state;
  private final long maxWaitMillis;
  private final PrintStream out;
  private final LongSupplier clock;
  private boolean warnedUnreadable;
  private long awaitingDeletion;

  ReportedStoragesWait(ActiveNameNodeState state, long maxWaitMillis, PrintStream out, LongSupplier clock) {
    this.state = state;
    this.maxWaitMillis = maxWaitMillis;
    this.out = out;
    this.clock = clock;
  }

  /** True once every namespace's active NameNode has heard every storage; false when the wait ran out. */
  boolean await(Collection<URI> nameNodes) throws InterruptedException {
    long start = clock.getAsLong();
    long deadline = start + maxWaitMillis;
    boolean announced = false;
    while (true) {
      List<ActiveNameNodeState.Reading> unsettled = unsettled(nameNodes, clock.getAsLong() - start < NO_ACTIVE_MILLIS);
      if (unsettled.isEmpty()) {
        if (announced) {
          out.println("Every storage has reported to the active NameNodes: balancing.");
        }
        return true;
      }
      if (!announced && unsettled.stream().anyMatch(ActiveNameNodeState.Reading::known)) {
        for (ActiveNameNodeState.Reading r : unsettled) {
          if (!r.known()) {
            continue;
          }
          out.println("NameNode " + r.nameNode + " has not heard " + r.staleStorages + " storages' block reports since it"
              + " became active and holds back deleting the excess replicas of " + r.postponedBlocks + " blocks until it"
              + " has: moving blocks now would pile up copies. Waiting up to " + maxWaitMillis / 1000 + " s ("
              + BalancerKeys.REPORTED_STORAGES_WAIT.getName() + "); 'hdfs dfsadmin -triggerBlockReport <datanode:ipc-port>'"
              + " on each DataNode settles it now, and bulwark.hotstandby.trigger-block-reports=true after every failover.");
        }
        announced = true;
      }
      long left = deadline - clock.getAsLong();
      if (left <= 0) {
        ActiveNameNodeState.Reading r = unsettled.get(0);
        if (!r.known()) {
          return true; // no active NameNode named within the wait: the iteration finds out itself
        }
        out.println("NameNode " + r.nameNode + " still has " + r.staleStorages + " storages without a block report after "
            + maxWaitMillis / 1000 + " s: exiting without moving. Run 'hdfs dfsadmin -triggerBlockReport"
            + " <datanode:ipc-port>' on each DataNode, then run the balancer again.");
        return false;
      }
      Thread.sleep(Math.min(POLL_MILLIS, left));
    }
  }

  /**
   * Replicas the active NameNodes held for deletion at the last look of {@link #await} (what the DataNodes'
   * reported use still counts); 0 where none could be read.
   */
  long awaitingDeletion() {
    return awaitingDeletion;
  }

  private List<ActiveNameNodeState.Reading> unsettled(Collection<URI> nameNodes, boolean awaitActive) {
    List<ActiveNameNodeState.Reading> out = new ArrayList<>();
    awaitingDeletion = 0;
    for (URI uri : nameNodes) {
      try {
        ActiveNameNodeState.Reading r = state.read(uri);
        if (r != null) {
          awaitingDeletion += Math.max(0, r.awaitingDeletion);
        }
        if (r == null && awaitActive) {
          out.add(new ActiveNameNodeState.Reading(uri.toString(), -1, -1, -1));
        } else if (r != null && !r.settled()) {
          out.add(r);
        }
      } catch (IOException e) {
        if (!warnedUnreadable) {
          warnedUnreadable = true;
          LOG.warn("Cannot read the active NameNode's JMX for {} ({}): not waiting for its storages' block reports",
              uri, e.getMessage());
        }
      }
    }
    return out;
  }
}
