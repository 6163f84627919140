package org.bulwark.hdfs.hotstandby.discovery;

/**
 * Where a nameservice's state lives in ZooKeeper, under {@code <parent>/<nameservice>}: the leader
 * lock (ephemeral), the healthy candidates (ephemeral, one per NameNode), the epoch (persistent,
 * bumped with every new leader), the active-NameNode record clients read (persistent), the fencing
 * {@link Breadcrumb} controllers read (persistent) and a pending manual-failover request (ephemeral,
 * owned by the target's controller).
 */
public final class ZNodes {
  private final String base;

  public ZNodes(String parent, String nameservice) {
    this.base = parent + "/" + nameservice;
  }

  public String base() {
    return base;
  }

  public String lock() {
    return base + "/lock";
  }

  public String candidates() {
    return base + "/candidates";
  }

  public String candidate(String nameNodeId) {
    return candidates() + "/" + nameNodeId;
  }

  public String epoch() {
    return base + "/epoch";
  }

  public String active() {
    return base + "/active";
  }

  public String breadcrumb() {
    return base + "/breadcrumb";
  }

  public String handoff() {
    return base + "/handoff";
  }
}
