package org.bulwark.hdfs.hotstandby.controller;

/** What a controller does next, as {@link ControllerRules} decides from a {@link ControllerView}. */
public final class Step {
  /** The kinds of step. */
  public enum Kind {
    /** Nothing to do until something changes. */
    NONE,
    /** Take the free leadership, fence the previous active and make our NameNode active. */
    ACQUIRE,
    /** Nothing now; decide again at {@link #wakeAtMillis()} unless something changes first. */
    WAIT,
    /** Our NameNode still answers: make it standby, mark the record relinquished, release leadership. */
    RESIGN,
    /** Our NameNode has failed: release leadership at once and leave fencing to the next leader. */
    ABANDON
  }

  private static final Step NONE = new Step(Kind.NONE, 0, "nothing to do");

  private final Kind kind;
  private final long wakeAtMillis;
  private final String reason;

  private Step(Kind kind, long wakeAtMillis, String reason) {
    this.kind = kind;
    this.wakeAtMillis = wakeAtMillis;
    this.reason = reason;
  }

  static Step none() {
    return NONE;
  }

  static Step of(Kind kind, String reason) {
    return new Step(kind, 0, reason);
  }

  static Step waitUntil(long wakeAtMillis, String reason) {
    return new Step(Kind.WAIT, wakeAtMillis, reason);
  }

  public Kind kind() {
    return kind;
  }

  public long wakeAtMillis() {
    return wakeAtMillis;
  }

  /** Why, in words fit for a log line. */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return kind + (kind == Kind.WAIT ? "@" + wakeAtMillis : "") + ": " + reason;
  }
}
