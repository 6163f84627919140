package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Objects;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.StandardSocketFactory;

/**
 * Hadoop RPC sockets that leave from a chosen loopback address, so that one JVM can hold many
 * "hosts". The NameNode learns a DataNode's IP address, and a client's, from the source address of
 * their RPC connections; giving each DataNode of a {@link BulwarkMiniCluster} its own (127.1.x.y) and
 * a client the address of a DataNode makes the NameNode treat that client as running on that
 * DataNode's host, exactly as for a task on a real cluster.
 *
 * <p>Selected with {@code hadoop.rpc.socket.factory.class.default}; the address comes from
 * {@value #SOURCE_ADDRESS_KEY}. Two factories are equal only for the same address, because Hadoop
 * shares one IPC client (and its connections) among equal factories.
 */
public class LoopbackSocketFactory extends StandardSocketFactory implements Configurable {
  /** Source address of every socket this factory makes. */
  public static final String SOURCE_ADDRESS_KEY = "testkit.rpc.source-address";

  private Configuration conf;
  private InetAddress source;

  /** Configuration for a process (DataNode or client) whose RPCs leave from {@code address}. */
  public static void configure(Configuration conf, String address) {
    conf.set("hadoop.rpc.socket.factory.class.default", LoopbackSocketFactory.class.getName());
    conf.set(SOURCE_ADDRESS_KEY, address);
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    String address = conf.get(SOURCE_ADDRESS_KEY);
    if (address == null) {
      throw new IllegalArgumentException(SOURCE_ADDRESS_KEY + " is not set: LoopbackSocketFactory needs a source address");
    }
    try {
      this.source = InetAddress.getByName(address);
    } catch (IOException e) {
      throw new IllegalArgumentException(SOURCE_ADDRESS_KEY + " = '" + address + "' is not an IP address", e);
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public Socket createSocket() throws IOException {
    Socket socket = super.createSocket();
    socket.bind(new InetSocketAddress(source, 0));
    return socket;
  }

  @Override
  public Socket createSocket(InetAddress addr, int port) throws IOException {
    return connected(new InetSocketAddress(addr, port));
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(InetAddress addr, int port, InetAddress localAddr, int localPort) throws IOException {
    return super.createSocket(addr, port, localAddr, localPort);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localAddr, int localPort) throws IOException {
    return super.createSocket(host, port, localAddr, localPort);
  }

  private Socket connected(InetSocketAddress target) throws IOException {
    Socket socket = createSocket();
    socket.connect(target);
    return socket;
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof LoopbackSocketFactory other && Objects.equals(source, other.source);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(source);
  }
}
