package org.bulwark.hdfs.hotstandby.health;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
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
 * <p>After a close it dials again at once, and says so when the port refuses: nothing listens there
 * any more, the process is gone. That is told apart from the check because a check sent while the
 * process was dying can wait out its whole timeout (measured: an IPC call on a connection the dying
 * NameNode had accepted failed only after the 1 s timeout, 200 ms after this watch was refused).
 * <p>A dying process can accept that redial and drop it a moment later (the kernel closes a killed
 * process's descriptors one by one, the listening one not first): measured, 1 kill in 3 went that way and
 * waiting the full retry pause then cost 200 ms of detection. So a connection dropped within the pause is
 * followed by redials 1, 2, 4 ... ms apart, up to the pause: a port that drops every connection is still
 * dialled at most once per pause after the first few.
 */
final class ConnectionWatch implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionWatch.class);

  private final InetSocketAddress address;
  private final long retryMillis;
  private final Runnable onClosed;
  private final Runnable onRefused;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile Socket socket;

  /**
   * @param retryMillis pause before connecting again after a refused connection or a closed one
   * @param onClosed called on the watch's thread each time an established connection is closed
   * @param onRefused called on the watch's thread when, after such a close, the port refuses connections
   *     (once per close)
   */
  ConnectionWatch(InetSocketAddress address, long retryMillis, Runnable onClosed, Runnable onRefused, String name) {
    this.address = address;
    this.retryMillis = retryMillis;
    this.onClosed = onClosed;
    this.onRefused = onRefused;
    this.thread = new Thread(this::run, "connection-watch-" + name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run() {
    boolean closedSinceConnected = false;
    long quickRedialMillis = 1;
    while (running) {
      boolean established = false;
      long connectedAt = 0;
      try (Socket s = new Socket()) {
        socket = s;
        s.connect(address, (int) Math.max(1, Math.min(Integer.MAX_VALUE, retryMillis * 5)));
        established = true;
        connectedAt = System.nanoTime();
        closedSinceConnected = false;
        // Blocks until the NameNode closes the connection: it never sends anything unasked.
        while (running && s.getInputStream().read() >= 0) {
          continue;
        }
      } catch (ConnectException e) {
        LOG.trace("watch of {}: {}", address, e.toString());
        if (closedSinceConnected && running) {
          closedSinceConnected = false;
          LOG.debug("The NameNode at {} refuses connections after closing the watched one", address);
          onRefused.run();
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
        closedSinceConnected = true;
        onClosed.run();
        if (System.nanoTime() - connectedAt >= retryMillis * 1_000_000L) {
          quickRedialMillis = 1;
          continue; // dial again at once: a refusal now is the news
        }
      }
      long pause = retryMillis;
      if (established && quickRedialMillis < retryMillis) {
        pause = quickRedialMillis; // dropped soon after it was taken: maybe by a process on its way out
        quickRedialMillis *= 2;
      }
      try {
        Thread.sleep(pause);
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
