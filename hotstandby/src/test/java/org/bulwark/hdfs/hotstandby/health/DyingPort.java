package org.bulwark.hdfs.hotstandby.health;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A port that accepts and never answers, then "dies" the way a killed NameNode once looked to its
 * controller: it stops listening and closes the connections that never sent a byte (a
 * {@link ConnectionWatch}'s), while an RPC client's connection stays open, so a check sent on it waits
 * out its whole timeout.
 */
final class DyingPort implements Closeable {
  private final ServerSocket server;
  private final List<Socket> silent = new CopyOnWriteArrayList<>();
  private final List<Socket> talking = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  DyingPort() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::accept, "dying-port-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        sort(s);
      } catch (IOException e) {
        return;
      }
    }
  }

  /** An RPC client sends its connection header at once; the watch sends nothing. */
  private void sort(Socket s) throws IOException {
    s.setSoTimeout(300);
    InputStream in = s.getInputStream();
    try {
      if (in.read() >= 0) {
        talking.add(s);
        return;
      }
    } catch (SocketTimeoutException e) {
      silent.add(s);
      return;
    }
    s.close();
  }

  InetSocketAddress address() {
    return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
  }

  /** Whether an RPC client has connected (a check is waiting on it). */
  boolean checkWaiting() {
    return !talking.isEmpty();
  }

  /** Whether a connection that sends nothing (a watch's) is held. */
  boolean watched() {
    return !silent.isEmpty();
  }

  /** Stops listening and closes the silent connections, those still being sorted too; RPC connections stay open. */
  void die() throws IOException {
    server.close();
    try {
      acceptor.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Socket s : silent) {
      s.close();
    }
  }

  @Override
  public void close() throws IOException {
    die();
    for (Socket s : talking) {
      s.close();
    }
  }
}
