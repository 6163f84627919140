package org.bulwark.hdfs.testkit;

import org.apache.hadoop.conf.Configuration;

/**
 * Where each DataNode of a {@link BulwarkMiniCluster} lives on the network: its own loopback IP and
 * fixed ports. Kept apart because {@link WriteOrigin} and the rack mapping both depend on these
 * addresses staying what they were, across restarts too.
 */
final class DataNodeAddresses {
  private DataNodeAddresses() {
  }

  /** DataNode {@code i}'s own loopback address: 127.1.x.y, never 127.0.0.1, where off-cluster clients are. */
  static String ipAddress(int i) {
    if (i >= 200 * 256) {
      throw new IllegalArgumentException("the kit gives at most " + 200 * 256 + " DataNodes their own address");
    }
    return "127.1." + (i / 200) + "." + (10 + i % 200);
  }

  /**
   * A DataNode's addresses, so that it listens on, and connects from, its own address: its own loopback
   * IP, and fixed ports below the ephemeral range. A restarted DataNode binds the ports it had; with ports
   * picked by the kernel, an outgoing connection of a client "on that host" (bound to the same IP) could
   * have been given one of them meanwhile.
   */
  static Configuration overlay(String ip) {
    Configuration overlay = new Configuration(false);
    int[] ports = FreePorts.pick(3);
    overlay.set("dfs.datanode.address", ip + ":" + ports[0]);
    overlay.set("dfs.datanode.ipc.address", ip + ":" + ports[1]);
    overlay.set("dfs.datanode.http.address", ip + ":" + ports[2]);
    LoopbackSocketFactory.configure(overlay, ip);
    return overlay;
  }
}
