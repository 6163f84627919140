package org.bulwark.hdfs.hotstandby.health;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds one idle TCP connection to the NameNode's RPC port and says at once when it is closed. A
 * NameNode process that dies, or stops its RPC server, closes every connection it holds (the kernel
 * does it for a killed process), so the controller can check its health now rather than at the next
 * interval: on a 200 ms interval that is 100 ms of detection saved on average. The connection never
 * sends a byte; Hadoop's IPC server keeps such a connection until it closes itself. A host that
 * vanishes without closing anything is still caught by the periodic check.
 */
final class ConnectionWatch implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionWatch.class);

  private final InetSocketAddress address;
  private final long retryMillis;
  private final Runnable onClosed;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile Socket socket;

  /**
   * @param retryMillis pause before connecting again after a refused connection or a closed one
   * @param onClosed called on the watch's thread each time an established connection is closed
   */
  ConnectionWatch(InetSocketAddress address, long retryMillis, Runnable onClosed, String name) {
    this.address = address;
    this.retryMillis = retryMillis;
    this.onClosed = onClosed;
    this.thread = new Thread(this::run, "connection-watch-" + name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run() {
    while (running) {
      boolean established = false;
      try (Socket s = new Socket()) {
        socket = s;
        s.connect(address, (int) Math.max(1, Math.min(Integer.MAX_VALUE, retryMillis * 5)));
        established = true;
        // Blocks until the NameNode closes the connection: it never sends anything unasked.
        while (running && s.getInputStream().read() >= 0) {
          continue;
        }
      } catch (IOException e) {
        LOG.trace("watch of {}: {}", address, e.toString());
      } finally {
        socket = null;
      }
      if (!running) {
        return;
      }
      if (established) {
        LOG.debug("The NameNode at {} closed the watched connection", address);
        onClosed.run();
      }
      try {
        Thread.sleep(retryMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    Socket s = socket;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    thread.interrupt();
  }
}
