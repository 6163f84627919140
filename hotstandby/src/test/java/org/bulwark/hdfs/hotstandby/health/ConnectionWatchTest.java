package org.bulwark.hdfs.hotstandby.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  @Test
  void aRedialDroppedByADyingProcessIsFollowedAtOnceNotAfterThePause() throws Exception {
    AtomicInteger closed = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
    InetSocketAddress address = new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    server.setSoTimeout(30_000); // a watch that waits out its pause fails the test rather than hangs it
    ConnectionWatch watch = new ConnectionWatch(address, 600_000, closed::incrementAndGet, refused::incrementAndGet, "test");
    watch.start();
    try {
      server.accept().close(); // the process dies: the watched connection closes first...
      server.accept().close(); // ...the redial is taken and dropped...
      server.close(); // ...and only then does the port close
      Await.until("the refusal reported without waiting the 10 min pause", Duration.ofSeconds(30), () -> refused.get() == 1);
      assertTrue(closed.get() >= 2, "both drops reported: " + closed.get());
    } finally {
      watch.close();
    }
  }

  @Test
  void aPortDroppingEveryConnectionIsNotDialledInALoop() throws Exception {
    AtomicInteger accepted = new AtomicInteger();
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread dropper = new Thread(() -> {
        while (!server.isClosed()) {
          try {
            server.accept().close();
            accepted.incrementAndGet();
          } catch (java.io.IOException e) {
            return;
          }
        }
      });
      dropper.setDaemon(true);
      dropper.start();
      ConnectionWatch watch = new ConnectionWatch(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()), 100,
          () -> { }, () -> { }, "test");
      watch.start();
      try {
        Thread.sleep(1000);
      } finally {
        watch.close();
      }
    }
    // 7 quick redials (1 to 64 ms apart), then one per 100 ms pause: about 17 in a second; a loop makes thousands.
    assertTrue(accepted.get() >= 2 && accepted.get() <= 40, "connections taken in 1 s: " + accepted.get());
  }
}
