package org.bulwark.hdfs.hotstandby.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/** The watch reports each closing of an established connection, and connects again after it. */
class ConnectionWatchTest {
  @Test
  void eachClosedConnectionIsReportedOnce() throws Exception {
    AtomicInteger closed = new AtomicInteger();
    try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      ConnectionWatch watch = new ConnectionWatch(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()), 50,
          closed::incrementAndGet, "test");
      watch.start();
      try {
        for (int i = 1; i <= 3; i++) {
          try (Socket accepted = server.accept()) {
            assertEquals(i - 1, closed.get(), "nothing reported while the connection is held");
          }
          int expected = i;
          Await.until("closing " + i + " reported", Duration.ofSeconds(30), () -> closed.get() == expected);
        }
      } finally {
        watch.close();
      }
    }
  }
}
