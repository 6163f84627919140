package org.bulwark.hdfs.hotstandby.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HealthCheckFailedException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.ConnectTimeoutException;
import org.bulwark.hdfs.hotstandby.SilentPort;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;

/** How failed health checks are read: the difference between "gone" and "maybe hung" decides fencing. */
class HealthMonitorTest {
  @Test
  void refusedConnectionMeansGone() {
    assertEquals(NameNodeHealth.GONE, HealthMonitor.classify(new ConnectException("Connection refused")).health());
    assertEquals(NameNodeHealth.GONE,
        HealthMonitor.classify(new IOException("wrapped", new ConnectException("Connection refused"))).health());
  }

  @Test
  void timeoutsMeanUnresponsive() {
    assertEquals(NameNodeHealth.UNRESPONSIVE, HealthMonitor.classify(new SocketTimeoutException("read")).health());
    assertEquals(NameNodeHealth.UNRESPONSIVE, HealthMonitor.classify(new ConnectTimeoutException("connect")).health());
    assertEquals(NameNodeHealth.UNRESPONSIVE, HealthMonitor.classify(new IOException("reset")).health());
  }

  @Test
  void nameNodeSayingItIsUnhealthyIsUnhealthy() {
    RemoteException remote = new RemoteException(HealthCheckFailedException.class.getName(), "resources low");
    HealthReport r = HealthMonitor.classify(remote);
    assertEquals(NameNodeHealth.UNHEALTHY, r.health());
    assertEquals("resources low", r.detail());
    assertEquals(NameNodeHealth.UNRESPONSIVE,
        HealthMonitor.classify(new RemoteException("java.lang.IllegalStateException", "boom")).health());
  }

  @Test
  void checksLeftWaitingCountAsUnanswered() throws Exception {
    try (SilentPort hung = new SilentPort();
        HealthMonitor monitor = new HealthMonitor(new Configuration(false), hung.address(), 50, 60_000, r -> { }, "hung")) {
      assertEquals(0, monitor.unansweredMillis(), "nothing asked yet");
      monitor.start();
      Await.until("the check left waiting", Duration.ofSeconds(30), () -> monitor.unansweredMillis() > 0);
      long first = monitor.unansweredMillis();
      Await.until("the silence grows while the check waits", Duration.ofSeconds(30),
          () -> monitor.unansweredMillis() > first + 100);
      assertEquals(null, monitor.last(), "no check has finished");
    }
  }

  @Test
  void refusedChecksCountAsUnanswered() throws Exception {
    InetSocketAddress closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = new InetSocketAddress("127.0.0.1", s.getLocalPort());
    }
    try (HealthMonitor monitor = new HealthMonitor(new Configuration(false), closed, 20, 1000, r -> { }, "gone")) {
      monitor.start();
      Await.until("refused", Duration.ofSeconds(30), () -> monitor.last() != null);
      assertEquals(NameNodeHealth.GONE, monitor.last().health());
      Await.until("the silence counted from the first refused check", Duration.ofSeconds(30),
          () -> monitor.unansweredMillis() > 100);
    }
  }

  @Test
  void aRefusingPortIsGoneWithoutWaitingForTheCheckInFlight() throws Exception {
    java.util.List<HealthReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (DyingPort port = new DyingPort();
        HealthMonitor monitor = new HealthMonitor(new Configuration(false), port.address(), 50, 600_000, reports::add,
            "dying")) {
      monitor.start();
      Await.until("a check waiting and the watch connected", Duration.ofSeconds(30),
          () -> port.checkWaiting() && port.watched());
      port.die();
      Await.until("reported gone while the check still waits (its timeout is 10 min)", Duration.ofSeconds(60),
          () -> !reports.isEmpty());
      assertEquals(NameNodeHealth.GONE, reports.get(0).health(), reports.toString());
      assertEquals(1, reports.size(), "one report: " + reports);
    }
  }

  @Test
  void aProcessSeenExitingIsGoneAndItsUnansweredChecksDoNotMakeItAHang() throws Exception {
    java.util.List<HealthReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (SilentPort dying = new SilentPort();
        HealthMonitor monitor = new HealthMonitor(new Configuration(false), dying.address(), 20, 100, reports::add, "dying")) {
      monitor.processLeaving(); // its sockets still take connections: the kernel is releasing its memory first
      monitor.start();
      Await.until("a check timed out", Duration.ofSeconds(30), () -> monitor.unansweredMillis() > 300);
      assertEquals(NameNodeHealth.GONE, reports.get(0).health(), reports.toString());
      assertEquals(1, reports.size(), "no hang reported after it: " + reports);
    }
  }

  /**
   * Reports go to the listener on change only; a controller that set a timed-out check aside (it waited behind
   * the controller's own transition) asks for the next one, and gets it although nothing changed, with the
   * time its check began.
   */
  @Test
  void theNextCheckIsReportedWhenAskedForEvenIfUnchanged() throws Exception {
    java.util.List<HealthReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (SilentPort hung = new SilentPort();
        HealthMonitor monitor = new HealthMonitor(new Configuration(false), hung.address(), 20, 100, reports::add, "hung")) {
      long started = System.nanoTime();
      monitor.start();
      Await.until("a check timed out", Duration.ofSeconds(30), () -> !reports.isEmpty());
      Thread.sleep(500); // several more checks time out, unreported
      assertEquals(1, reports.size(), "an unchanged verdict is not reported again: " + reports);
      assertTrue(reports.get(0).checkStartedNanos() - started >= 0, "the first check began after the start");
      long asked = System.nanoTime();
      monitor.reportNextCheck();
      Await.until("the next check reported", Duration.ofSeconds(30), () -> reports.size() == 2);
      assertEquals(NameNodeHealth.UNRESPONSIVE, reports.get(1).health());
      assertTrue(reports.get(1).checkStartedNanos() - asked >= 0, "the reported check began after it was asked for");
      Thread.sleep(500);
      assertEquals(2, reports.size(), "asked for once, reported once: " + reports);
    }
  }

  /**
   * A listener that throws an Error (out of memory, a class that cannot be loaded) ends the checks and its owner is
   * told, instead of the checks' thread dying unheard of (its controller would then never learn its NameNode failed);
   * a listener's RuntimeException is logged and the checks go on.
   */
  @Test
  void aListenersErrorEndsTheChecksAndIsHandedOnItsRuntimeExceptionIsNot() throws Exception {
    InetSocketAddress closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = new InetSocketAddress("127.0.0.1", s.getLocalPort());
    }
    java.util.List<HealthReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
    Error thrown = new NoClassDefFoundError("org/apache/hadoop/ha/HAServiceStatus");
    java.util.concurrent.atomic.AtomicReference<Throwable> told = new java.util.concurrent.atomic.AtomicReference<>();
    try (HealthMonitor monitor = new HealthMonitor(new Configuration(false), closed, 20, 1000, r -> {
          reports.add(r);
          if (reports.size() == 1) {
            throw new IllegalStateException("a listener's bug");
          }
          throw thrown;
        }, "gone")) {
      monitor.onFatalError(told::set);
      monitor.start();
      Await.until("the first report", Duration.ofSeconds(30), () -> reports.size() == 1);
      monitor.reportNextCheck();
      Await.until("the checks went on after the RuntimeException", Duration.ofSeconds(30), () -> reports.size() == 2);
      Await.until("the Error handed on", Duration.ofSeconds(30), () -> told.get() != null);
      assertSame(thrown, told.get());
      monitor.reportNextCheck();
      Thread.sleep(300); // 15 check intervals
      assertEquals(2, reports.size(), "no check after the Error: " + reports);
    }
  }
}
