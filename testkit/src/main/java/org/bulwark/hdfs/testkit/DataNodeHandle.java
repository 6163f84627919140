package org.bulwark.hdfs.testkit;

/**
 * A DataNode of a {@link BulwarkMiniCluster} by what stays the same across its restarts: its index in
 * the topology spec, its host name (which the rack mapping is keyed by), its own loopback address,
 * its rack and datacenter.
 */
public record DataNodeHandle(int index, String hostName, String ipAddress, String rack, String datacenter) {
  @Override
  public String toString() {
    return hostName + " (" + ipAddress + ", " + rack + ")";
  }
}
