package org.bulwark.hdfs.hotstandby.health;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;

import javax.net.SocketFactory;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.protocolPB.HAServiceProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.StandardSocketFactory;

/**
 * {@link HAServiceProtocol} proxies that fail at once when nothing listens. Hadoop's
 * {@code HAServiceTarget.getProxy} allows one connection retry, which sleeps
 * {@code ipc.client.connect.retry.interval} (1 s) before reporting a dead NameNode: a second lost on
 * every failover. Here "connection refused" comes back in milliseconds.
 */
public final class HaServiceProxies {
  private HaServiceProxies() {
  }

  /** One call on a {@link HAServiceProtocol} proxy. */
  @FunctionalInterface
  public interface Call {
    void on(HAServiceProtocol proxy) throws IOException;
  }

  /**
   * Makes one call on a fresh proxy, retried once when the connection broke in transit (end of file,
   * reset): Hadoop's IPC client reuses idle connections, and one opened to a NameNode process that has
   * since restarted fails on first use. Refused connections, timeouts and the NameNode's own errors are
   * not retried.
   */
  public static void call(Configuration conf, InetSocketAddress address, long timeoutMillis, Call call)
      throws IOException {
    for (int attempt = 1; ; attempt++) {
      HAServiceProtocol proxy = open(conf, address, timeoutMillis);
      try {
        call.on(proxy);
        return;
      } catch (RemoteException | ConnectException | SocketTimeoutException e) {
        throw e;
      } catch (IOException e) {
        if (attempt == 2) {
          throw e;
        }
      } finally {
        RPC.stopProxy(proxy);
      }
    }
  }

  public static HAServiceProtocol open(Configuration conf, InetSocketAddress address, long timeoutMillis)
      throws IOException {
    return open(conf, address, timeoutMillis, null);
  }

  /**
   * A proxy whose calls travel on the IPC client of {@code sockets} (see {@link #privateSockets}); null
   * means the JVM's shared one.
   */
  static HAServiceProtocol open(Configuration conf, InetSocketAddress address, long timeoutMillis, SocketFactory sockets)
      throws IOException {
    Configuration copy = new Configuration(conf);
    copy.setInt("ipc.client.connect.max.retries", 0);
    copy.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    copy.setInt("ipc.client.connect.timeout", (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
    return new HAServiceProtocolClientSideTranslatorPB(address, copy,
        sockets == null ? NetUtils.getDefaultSocketFactory(copy) : sockets, (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
  }

  /**
   * A socket factory equal only to itself. Hadoop keeps one IPC client per socket factory and, in it, one
   * connection per address and settings, shared by every proxy of the JVM. Two monitors of one NameNode
   * in one JVM (both controllers of an embedded cluster: one checks its own NameNode, the other checks it
   * as a peer) then share a connection, and when the NameNode died the second check on it waited out its
   * whole timeout before failing (1 s failovers in the embedded benchmark). Proxies made with this
   * factory get an IPC client and connections of their own.
   */
  static SocketFactory privateSockets() {
    return new StandardSocketFactory() {
      @Override
      public boolean equals(Object other) {
        return other == this;
      }

      @Override
      public int hashCode() {
        return System.identityHashCode(this);
      }
    };
  }
}
