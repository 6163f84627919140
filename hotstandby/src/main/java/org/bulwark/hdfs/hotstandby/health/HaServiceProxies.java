package org.bulwark.hdfs.hotstandby.health;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.protocolPB.HAServiceProtocolClientSideTranslatorPB;
import org.apache.hadoop.net.NetUtils;

/**
 * {@link HAServiceProtocol} proxies that fail at once when nothing listens. Hadoop's
 * {@code HAServiceTarget.getProxy} allows one connection retry, which sleeps
 * {@code ipc.client.connect.retry.interval} (1 s) before reporting a dead NameNode: a second lost on
 * every failover. Here "connection refused" comes back in milliseconds.
 */
public final class HaServiceProxies {
  private HaServiceProxies() {
  }

  public static HAServiceProtocol open(Configuration conf, InetSocketAddress address, long timeoutMillis)
      throws IOException {
    Configuration copy = new Configuration(conf);
    copy.setInt("ipc.client.connect.max.retries", 0);
    copy.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    copy.setInt("ipc.client.connect.timeout", (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
    return new HAServiceProtocolClientSideTranslatorPB(address, copy, NetUtils.getDefaultSocketFactory(copy),
        (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
  }
}
