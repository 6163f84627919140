package org.bulwark.hdfs.hotstandby.controller;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.bulwark.hdfs.hotstandby.health.NameNodeHealth;

/**
 * Everything a controller knows when it decides: its NameNode's health, its ZooKeeper session, who holds
 * the leadership, the healthy candidates, a pending manual failover and the operator's settings. Plain
 * data, so that {@link ControllerRules} can be tested without ZooKeeper or a NameNode.
 */
public final class ControllerView {
  final String me;
  final int myPriority;
  final NameNodeHealth health;
  final boolean observer;
  final boolean active;
  final boolean madeInactive;
  final boolean zooKeeperConnected;
  final String leader;
  final boolean iLead;
  final Map<String, Candidate> candidates;
  final String handoffTarget;
  final long cededUntilMillis;
  final Set<String> passedOver;
  final long leadershipFreeSinceMillis;
  final boolean failback;
  final long failbackDelayMillis;
  final long lowerPriorityDelayMillis;
  final Map<String, Integer> configuredPriorities;
  final long startedAtMillis;
  final String unclaimedActive;
  final long unclaimedActiveSinceMillis;
  final long unclaimedActiveWaitMillis;

  private ControllerView(Builder b) {
    this.me = b.me;
    this.myPriority = b.myPriority;
    this.health = b.health;
    this.observer = b.observer;
    this.active = b.active;
    this.madeInactive = b.madeInactive;
    this.zooKeeperConnected = b.zooKeeperConnected;
    this.leader = b.leader;
    this.iLead = b.iLead;
    this.candidates = Collections.unmodifiableMap(new LinkedHashMap<>(b.candidates));
    this.handoffTarget = b.handoffTarget;
    this.cededUntilMillis = b.cededUntilMillis;
    this.passedOver = Collections.unmodifiableSet(new HashSet<>(b.passedOver));
    this.leadershipFreeSinceMillis = b.leadershipFreeSinceMillis;
    this.failback = b.failback;
    this.failbackDelayMillis = b.failbackDelayMillis;
    this.lowerPriorityDelayMillis = b.lowerPriorityDelayMillis;
    this.configuredPriorities = Collections.unmodifiableMap(new LinkedHashMap<>(b.configuredPriorities));
    this.startedAtMillis = b.startedAtMillis;
    this.unclaimedActive = b.unclaimedActive;
    this.unclaimedActiveSinceMillis = b.unclaimedActiveSinceMillis;
    this.unclaimedActiveWaitMillis = b.unclaimedActiveWaitMillis;
  }

  public static Builder builder(String me, int myPriority) {
    return new Builder(me, myPriority);
  }

  /** Builds a view; every field but the identity has a neutral default. */
  public static final class Builder {
    private final String me;
    private final int myPriority;
    private NameNodeHealth health = NameNodeHealth.UNKNOWN;
    private boolean observer;
    private boolean active;
    private boolean madeInactive;
    private boolean zooKeeperConnected;
    private String leader;
    private boolean iLead;
    private final Map<String, Candidate> candidates = new LinkedHashMap<>();
    private String handoffTarget;
    private long cededUntilMillis;
    private final Set<String> passedOver = new HashSet<>();
    private long leadershipFreeSinceMillis;
    private boolean failback;
    private long failbackDelayMillis;
    private long lowerPriorityDelayMillis;
    private final Map<String, Integer> configuredPriorities = new LinkedHashMap<>();
    private long startedAtMillis;
    private String unclaimedActive;
    private long unclaimedActiveSinceMillis;
    private long unclaimedActiveWaitMillis;

    private Builder(String me, int myPriority) {
      this.me = me;
      this.myPriority = myPriority;
    }

    public Builder health(NameNodeHealth h) {
      this.health = h;
      return this;
    }

    /** Whether the NameNode reported itself an observer (observers serve reads and are never elected). */
    public Builder observer(boolean isObserver) {
      this.observer = isObserver;
      return this;
    }

    /** Whether the NameNode, healthy, says it is active (whoever made it so). */
    public Builder active(boolean isActive) {
      this.active = isActive;
      return this;
    }

    /**
     * Another NameNode that answers active though no breadcrumb names it (made active outside our election: the stock
     * ZKFC's active during a migration), when this controller first saw it so, and how long a standby leaves the
     * leadership to that NameNode's own controller; null when there is none.
     */
    public Builder unclaimedActive(String nameNodeId, long sinceMillis, long waitMillis) {
      this.unclaimedActive = nameNodeId;
      this.unclaimedActiveSinceMillis = sinceMillis;
      this.unclaimedActiveWaitMillis = waitMillis;
      return this;
    }

    /**
     * Whether this leader's NameNode, answering a check begun after it was made active, says it is not active:
     * made standby outside the controller (by hand with --forcemanual, or restarted unseen by the controller).
     */
    public Builder madeInactive(boolean notActive) {
      this.madeInactive = notActive;
      return this;
    }

    public Builder zooKeeperConnected(boolean connected) {
      this.zooKeeperConnected = connected;
      return this;
    }

    /** The NameNode id in the leader lock (null when free) and whether that lock is ours (our session's). */
    public Builder leader(String nameNodeId, boolean mine) {
      this.leader = nameNodeId;
      this.iLead = mine;
      return this;
    }

    public Builder candidate(Candidate c) {
      this.candidates.put(c.nameNodeId(), c);
      return this;
    }

    public Builder candidates(Iterable<Candidate> all) {
      for (Candidate c : all) {
        candidate(c);
      }
      return this;
    }

    public Builder handoffTarget(String nameNodeId) {
      this.handoffTarget = nameNodeId;
      return this;
    }

    public Builder cededUntil(long millis) {
      this.cededUntilMillis = millis;
      return this;
    }

    /**
     * The higher-priority NameNodes fail-back passes over: those that stood when an operator's failover
     * ({@code hdfs haadmin -failover}) made this NameNode leader, until seen gone for a session timeout
     * ({@link FailbackPassOver}); empty when it was elected otherwise.
     */
    public Builder passedOver(Set<String> nameNodeIds) {
      this.passedOver.addAll(nameNodeIds);
      return this;
    }

    /** When this controller first saw the leadership free (for the lower-priority delay). */
    public Builder leadershipFreeSince(long millis) {
      this.leadershipFreeSinceMillis = millis;
      return this;
    }

    public Builder failback(boolean enabled, long delayMillis) {
      this.failback = enabled;
      this.failbackDelayMillis = delayMillis;
      return this;
    }

    public Builder lowerPriorityDelay(long millis) {
      this.lowerPriorityDelayMillis = millis;
      return this;
    }

    /**
     * Every NameNode of the nameservice with its configured priority, and when this controller started:
     * for one lower-priority delay after its start, a controller also defers to higher-priority
     * NameNodes that have not registered yet, so controllers started together elect the highest.
     */
    public Builder configured(Map<String, Integer> priorities, long startedAt) {
      this.configuredPriorities.putAll(priorities);
      this.startedAtMillis = startedAt;
      return this;
    }

    public ControllerView build() {
      return new ControllerView(this);
    }
  }
}
