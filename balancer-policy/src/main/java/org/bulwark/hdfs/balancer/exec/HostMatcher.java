package org.bulwark.hdfs.balancer.exec;

import java.util.Collections;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * Matches a DataNode against a host list of {@code -include}, {@code -exclude} or {@code -source}
 * the way the stock balancer does: host name, IP address or peer host name, each with or without
 * the transfer port.
 */
public final class HostMatcher {
  private final Set<String> hosts;

  public HostMatcher(Set<String> hosts) {
    this.hosts = hosts == null ? Collections.<String>emptySet() : hosts;
  }

  public boolean isEmpty() {
    return hosts.isEmpty();
  }

  public boolean matches(DatanodeInfo dn) {
    return matches(dn.getPeerHostName(), dn.getXferPort())
        || matches(dn.getIpAddr(), dn.getXferPort())
        || matches(dn.getHostName(), dn.getXferPort());
  }

  /** An empty list includes everyone (as {@code -include} and {@code -source} read). */
  public boolean matchesOrEmpty(DatanodeInfo dn) {
    return hosts.isEmpty() || matches(dn);
  }

  private boolean matches(String host, int port) {
    return host != null && (hosts.contains(host) || hosts.contains(host + ":" + port));
  }
}
