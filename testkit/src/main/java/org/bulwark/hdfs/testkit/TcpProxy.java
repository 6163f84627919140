package org.bulwark.hdfs.testkit;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP proxy on a loopback port in front of a real server (PostgreSQL, say), so a test can cut every
 * connection at once and refuse new ones, as a database restart or a network partition would, then
 * restore service on the same port. What a client sees in between is what it sees in production:
 * connections reset, connects refused; or, frozen, connections open that never answer.
 */
public final class TcpProxy implements Closeable {
  private final InetSocketAddress target;
  private final int port;
  private final List<Socket> open = new ArrayList<>();
  private ServerSocket listener;
  private Thread acceptor;
  /** While set, nothing is forwarded either way: the connections stay open and silent. */
  private volatile boolean frozen;

  /** Starts forwarding connections on a free loopback port to {@code target}. */
  public TcpProxy(InetSocketAddress target) throws IOException {
    this.target = target;
    ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.port = s.getLocalPort();
    start(s);
  }

  public int port() {
    return port;
  }

  /** Resets every open connection and refuses new ones until {@link #restore()}. */
  public synchronized void cut() throws IOException {
    if (listener != null) {
      listener.close();
      listener = null;
    }
    for (Socket s : open) {
      try {
        s.setSoLinger(true, 0); // RST, as a dead server's host sends
        s.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    open.clear();
  }

  /**
   * Stops forwarding bytes either way while every connection stays open, as a frozen database host or a
   * firewall dropping packets does: a client's requests get no answer and nothing tells it so.
   */
  public void freeze() {
    frozen = true;
  }

  /** Forwards again what {@link #freeze()} held. */
  public void thaw() {
    frozen = false;
  }

  /** Accepts connections again on the same port. */
  public synchronized void restore() throws IOException {
    if (listener == null) {
      ServerSocket s = new ServerSocket();
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      start(s);
    }
  }

  private synchronized void start(ServerSocket s) {
    listener = s;
    acceptor = new Thread(() -> accept(s), "tcp-proxy-" + port);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void accept(ServerSocket s) {
    while (!s.isClosed()) {
      try {
        Socket client = s.accept();
        Socket server = new Socket(target.getAddress(), target.getPort());
        synchronized (this) {
          if (listener != s) {
            client.close();
            server.close();
            return;
          }
          open.add(client);
          open.add(server);
        }
        pipe(client, server);
        pipe(server, client);
      } catch (IOException e) {
        return; // the listener was closed by cut() or close()
      }
    }
  }

  private void pipe(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          while (frozen && !to.isClosed()) {
            Thread.sleep(10);
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // one side went away: the other goes too
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        try {
          to.close();
          from.close();
        } catch (IOException ignored) {
          // closed
        }
      }
    }, "tcp-proxy-pipe");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    cut();
  }
}
