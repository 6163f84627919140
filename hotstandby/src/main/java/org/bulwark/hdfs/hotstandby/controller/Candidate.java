package org.bulwark.hdfs.hotstandby.controller;

/** A NameNode whose controller found it healthy and stands for election: its priority and since when. */
public final class Candidate {
  private final String nameNodeId;
  private final int priority;
  private final long sinceMillis;

  public Candidate(String nameNodeId, int priority, long sinceMillis) {
    this.nameNodeId = nameNodeId;
    this.priority = priority;
    this.sinceMillis = sinceMillis;
  }

  public String nameNodeId() {
    return nameNodeId;
  }

  public int priority() {
    return priority;
  }

  public long sinceMillis() {
    return sinceMillis;
  }

  @Override
  public String toString() {
    return nameNodeId + "(priority " + priority + ")";
  }
}
