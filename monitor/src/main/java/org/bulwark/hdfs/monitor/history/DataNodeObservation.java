package org.bulwark.hdfs.monitor.history;

/** A DataNode's state, capacity and use as one poll saw them. */
public final class DataNodeObservation {
  /** The state of a DataNode the NameNode no longer lists at all. */
  public static final String UNREGISTERED_STATE = "unregistered";
  static final DataNodeObservation UNREGISTERED = new DataNodeObservation(UNREGISTERED_STATE, 0, 0);

  public final String state;
  public final long capacity;
  public final long used;

  public DataNodeObservation(String state, long capacity, long used) {
    this.state = state;
    this.capacity = capacity;
    this.used = used;
  }

  boolean isUnregistered() {
    return UNREGISTERED_STATE.equals(state);
  }

  /** Worth a new row: another state, or use or capacity moved by 1 % of capacity or more. */
  boolean differsFrom(DataNodeObservation o) {
    long step = Math.max(1, Math.max(capacity, o.capacity) / 100);
    return !state.equals(o.state) || Math.abs(used - o.used) >= step || Math.abs(capacity - o.capacity) >= step;
  }
}
