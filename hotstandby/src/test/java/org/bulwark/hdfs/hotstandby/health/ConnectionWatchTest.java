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

/** The watch reports each closing of an established connection, connects again after it, and says when that is refused. */
class ConnectionWatchTest {
  @Test
  void eachClosedConnectionIsReportedOnce() throws Exception {
    AtomicInteger closed = new AtomicInteger();
    try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      ConnectionWatch watch = new ConnectionWatch(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()), 50,
          closed::incrementAndGet, () -> { }, "test");
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

  @Test
  void aRefusalAfterACloseIsReportedOnceAndOnlyThen() throws Exception {
    AtomicInteger closed = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    InetSocketAddress address;
    ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
    address = new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    ConnectionWatch watch = new ConnectionWatch(address, 50, closed::incrementAndGet, refused::incrementAndGet, "test");
    watch.start();
    try {
      Socket accepted = server.accept();
      server.close(); // the process dies: nothing listens, then its connections close
      accepted.close();
      Await.until("the refusal after the close reported", Duration.ofSeconds(30), () -> refused.get() == 1);
      assertEquals(1, closed.get());
      Thread.sleep(300); // six more refused dials
      assertEquals(1, refused.get(), "reported once per close");
    } finally {
      watch.close();
    }
  }

  @Test
  void aPortRefusingFromTheStartIsNotReported() throws Exception {
    InetSocketAddress address;
    try (ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      address = new InetSocketAddress(s.getInetAddress(), s.getLocalPort());
    }
    AtomicInteger refused = new AtomicInteger();
    ConnectionWatch watch = new ConnectionWatch(address, 20, () -> { }, refused::incrementAndGet, "test");
    watch.start();
    try {
      Thread.sleep(300);
      assertEquals(0, refused.get(), "the periodic check reports a NameNode that never came up");
    } finally {
      watch.close();
    }
  }
}
