package org.bulwark.hdfs.balancer.plan;

/** The stock balancer's four classes of a storage group, plus nodes that take no part. */
public enum UtilisationClass {
  /** Utilisation above average + threshold: must give bytes away. */
  OVER_UTILISED,
  /** Above average, within the threshold: may give bytes away. */
  ABOVE_AVERAGE,
  /** At or below average, within the threshold: may take bytes. */
  BELOW_AVERAGE,
  /** Utilisation below average - threshold: must take bytes. */
  UNDER_UTILISED,
  /**
   * Not a node of this storage type; or above average but not a source ({@code -source},
   * {@code -excludeSource}, {@code -limitOverUtilizedNum}); or below but not a target ({@code -target},
   * {@code -excludeTarget}).
   */
  NOT_PARTICIPATING;

  public boolean isSource() {
    return this == OVER_UTILISED || this == ABOVE_AVERAGE;
  }

  public boolean isTarget() {
    return this == BELOW_AVERAGE || this == UNDER_UTILISED;
  }
}
