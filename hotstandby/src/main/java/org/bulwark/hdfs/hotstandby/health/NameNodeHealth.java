package org.bulwark.hdfs.hotstandby.health;

/** What the last health check of a NameNode found. */
public enum NameNodeHealth {
  /** No check has finished yet. */
  UNKNOWN,
  /** {@code monitorHealth} returned normally. */
  HEALTHY,
  /** The NameNode answered that it is not healthy (e.g. out of disk resources): it can step down cleanly. */
  UNHEALTHY,
  /** The check timed out or failed in transit: the NameNode may be hung, and may still think it is active. */
  UNRESPONSIVE,
  /** Connection refused: no process listens on the NameNode's port, so it serves nobody. */
  GONE;

  /** Whether the NameNode can still be asked to step down. */
  public boolean answers() {
    return this == HEALTHY || this == UNHEALTHY;
  }
}
