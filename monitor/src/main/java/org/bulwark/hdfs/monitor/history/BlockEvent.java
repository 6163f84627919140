package org.bulwark.hdfs.monitor.history;

/** A block found missing (no replica left) or corrupt (every replica corrupt), and when it was resolved (0: not yet). */
public final class BlockEvent {
  public static final String MISSING = "missing";
  public static final String CORRUPT = "corrupt";

  public final String namespace;
  public final long blockId;
  public final String kind;
  public final long firstSeen;
  public final long resolvedAt;

  public BlockEvent(String namespace, long blockId, String kind, long firstSeen, long resolvedAt) {
    this.namespace = namespace;
    this.blockId = blockId;
    this.kind = kind;
    this.firstSeen = firstSeen;
    this.resolvedAt = resolvedAt;
  }
}
