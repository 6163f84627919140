package org.bulwark.hdfs.hotstandby;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP port that accepts connections and never answers: what a hung NameNode looks like to an RPC
 * client (its kernel still completes the handshake). Counts the connections made to it, so a test can
 * tell whether a call was attempted at all.
 */
public final class SilentPort implements Closeable {
  private final ServerSocket server;
  private final AtomicInteger accepted = new AtomicInteger();
  private final List<Socket> held = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  public SilentPort() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::accept, "silent-port-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        held.add(server.accept());
        accepted.incrementAndGet();
      } catch (IOException e) {
        return;
      }
    }
  }

  public InetSocketAddress address() {
    return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
  }

  /** Connections accepted so far. */
  public int accepted() {
    return accepted.get();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : held) {
      s.close();
    }
  }
}
