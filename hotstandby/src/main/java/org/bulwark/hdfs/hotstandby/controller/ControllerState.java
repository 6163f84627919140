package org.bulwark.hdfs.hotstandby.controller;

/** Where a controller stands, as logs and metrics show it. */
public enum ControllerState {
  /** Started, waiting for the first health check and ZooKeeper. */
  INITIALIZING,
  /** Its NameNode is healthy and standby; it stands for election. */
  STANDBY,
  /** It leads, and its NameNode is active. */
  ACTIVE,
  /** Its NameNode serves reads as an observer: it stays out of the election. */
  OBSERVER,
  /** Its NameNode is not healthy (or cannot be reached): out of the election. */
  UNHEALTHY,
  /** No ZooKeeper connection: it changes nothing until the session is back or lost. */
  NEUTRAL,
  /** Closed. */
  STOPPED
}
