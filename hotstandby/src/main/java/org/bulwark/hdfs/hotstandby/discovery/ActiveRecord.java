package org.bulwark.hdfs.hotstandby.discovery;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Properties;

/**
 * The active-NameNode record a leader publishes and clients read: which NameNode of a nameservice is
 * (or last was) active, its client RPC address, the leader epoch and since when. {@link State#RELINQUISHED}
 * means the NameNode went to standby by itself (resignation, manual failover), {@link State#EXITED}
 * that its controller saw its process end on its host: either way the next leader need not fence it,
 * and clients wait for the next record rather than calling it. {@code failedAt} is when
 * the resigning controller saw its NameNode fail (0 if it did not), from which the next leader
 * derives the failure-detection time.
 *
 * <p>Stored as {@code key=value} lines, readable with {@code zkCli.sh get}.
 */
public final class ActiveRecord {
  /** Whether the named NameNode is serving as active. */
  public enum State {
    ACTIVE,
    /** It went to standby by itself. */
    RELINQUISHED,
    /** Its process ended; its controller saw that on the NameNode's own host. */
    EXITED
  }

  private final String nameservice;
  private final String nameNodeId;
  private final String rpcAddress;
  private final long epoch;
  private final long since;
  private final State state;
  private final long failedAt;

  public ActiveRecord(String nameservice, String nameNodeId, String rpcAddress, long epoch, long since, State state,
      long failedAt) {
    this.nameservice = Objects.requireNonNull(nameservice, "nameservice");
    this.nameNodeId = Objects.requireNonNull(nameNodeId, "nameNodeId");
    this.rpcAddress = Objects.requireNonNull(rpcAddress, "rpcAddress");
    this.epoch = epoch;
    this.since = since;
    this.state = Objects.requireNonNull(state, "state");
    this.failedAt = failedAt;
  }

  /** This record once its NameNode went to standby by itself: the next leader need not fence it. */
  public ActiveRecord relinquished() {
    return new ActiveRecord(nameservice, nameNodeId, rpcAddress, epoch, since, State.RELINQUISHED, failedAt);
  }

  /**
   * This record once its controller saw the NameNode fail at {@code failedAtMillis} and its process
   * exit: nothing left to fence.
   */
  public ActiveRecord exited(long failedAtMillis) {
    return new ActiveRecord(nameservice, nameNodeId, rpcAddress, epoch, since, State.EXITED, failedAtMillis);
  }

  /** Whether the next leader need not fence the NameNode: it went to standby, or its process is gone. */
  public boolean needsNoFencing() {
    return state == State.RELINQUISHED || state == State.EXITED;
  }

  /** This record once its controller saw the NameNode fail at {@code failedAtMillis}: still to be fenced. */
  public ActiveRecord failedAt(long failedAtMillis) {
    return new ActiveRecord(nameservice, nameNodeId, rpcAddress, epoch, since, state, failedAtMillis);
  }

  public byte[] encode() {
    StringBuilder s = new StringBuilder();
    s.append("nameservice=").append(nameservice).append('\n')
        .append("namenode=").append(nameNodeId).append('\n')
        .append("rpc=").append(rpcAddress).append('\n')
        .append("epoch=").append(epoch).append('\n')
        .append("since=").append(since).append('\n')
        .append("state=").append(state.name()).append('\n')
        .append("failedAt=").append(failedAt).append('\n');
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Decodes a record; throws {@link IllegalArgumentException} naming what is missing or malformed. Keys it does not
   * know are ignored: older controllers also wrote {@code servicerpc} and {@code http}, which no reader used.
   */
  public static ActiveRecord decode(byte[] data) {
    if (data == null || data.length == 0) {
      throw new IllegalArgumentException("empty active-NameNode record");
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(new String(data, StandardCharsets.UTF_8)));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("unreadable active-NameNode record: " + e.getMessage(), e);
    }
    return new ActiveRecord(required(p, "nameservice"), required(p, "namenode"), required(p, "rpc"),
        number(p, "epoch"), number(p, "since"), state(p), p.getProperty("failedAt") == null ? 0 : number(p, "failedAt"));
  }

  private static String required(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null || v.trim().isEmpty()) {
      throw new IllegalArgumentException("active-NameNode record lacks '" + key + "'");
    }
    return v.trim();
  }

  private static long number(Properties p, String key) {
    String v = required(p, key);
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("active-NameNode record has '" + key + "=" + v + "', not a number", e);
    }
  }

  private static State state(Properties p) {
    String v = required(p, "state");
    try {
      return State.valueOf(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("active-NameNode record has 'state=" + v + "', expected ACTIVE, RELINQUISHED or EXITED", e);
    }
  }

  public String nameservice() {
    return nameservice;
  }

  public String nameNodeId() {
    return nameNodeId;
  }

  /** Client RPC address, host:port. */
  public String rpcAddress() {
    return rpcAddress;
  }

  public long epoch() {
    return epoch;
  }

  public long since() {
    return since;
  }

  public State state() {
    return state;
  }

  public boolean isActive() {
    return state == State.ACTIVE;
  }

  public long failedAt() {
    return failedAt;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ActiveRecord)) {
      return false;
    }
    ActiveRecord r = (ActiveRecord) o;
    return epoch == r.epoch && since == r.since && failedAt == r.failedAt && state == r.state
        && nameservice.equals(r.nameservice) && nameNodeId.equals(r.nameNodeId) && rpcAddress.equals(r.rpcAddress);
  }

  @Override
  public int hashCode() {
    return Objects.hash(nameservice, nameNodeId, epoch, state);
  }

  @Override
  public String toString() {
    return nameservice + "/" + nameNodeId + " (" + rpcAddress + ", epoch " + epoch + ", " + state + ")";
  }
}
