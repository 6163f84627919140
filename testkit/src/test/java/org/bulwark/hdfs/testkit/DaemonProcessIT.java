package org.bulwark.hdfs.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonProcessIT {
  /** A daemon that fails at its start, as a NameNode whose port is taken does. */
  public static final class FailingDaemon {
    public static void main(String[] args) {
      System.out.println("starting");
      System.out.println("12:00:00,000 ERROR namenode.NameNode (main) - Failed to start namenode.");
      System.out.println("java.net.BindException: Port in use: 127.0.0.1:" + args[0]);
      System.out.println("\tat org.apache.hadoop.http.HttpServer2.constructBindException(HttpServer2.java:1)");
      System.out.println("SHUTDOWN_MSG: Shutting down");
      System.exit(1);
    }
  }

  /** A daemon that ends quietly. */
  public static final class QuietDaemon {
    public static void main(String[] args) {
      for (int i = 1; i <= 6; i++) {
        System.out.println("line " + i);
      }
    }
  }

  @Test
  void aDaemonThatEndedIsReportedWithItsExitCodeAndItsErrors(@TempDir Path dir) throws Exception {
    DaemonProcess d = DaemonProcess.start("nn0", FailingDaemon.class, new File(dir.toFile(), "nn0.log"), List.of(),
        "8020");
    awaitEnd(d);
    String report = d.endedReport();
    assertTrue(report.startsWith("nn0 (pid " + d.pid() + ") ended with exit code 1;"), report);
    assertTrue(report.contains("ERROR namenode.NameNode (main) - Failed to start namenode. | "
        + "java.net.BindException: Port in use: 127.0.0.1:8020"), report);
    assertFalse(report.contains("starting") || report.contains("SHUTDOWN_MSG"), report);
  }

  @Test
  void aDaemonThatEndedWithoutAnErrorIsReportedWithItsLastLines(@TempDir Path dir) throws Exception {
    DaemonProcess d = DaemonProcess.start("jn0", QuietDaemon.class, new File(dir.toFile(), "jn0.log"), List.of());
    awaitEnd(d);
    String report = d.endedReport();
    assertTrue(report.contains("ended with exit code 0;"), report);
    assertTrue(report.endsWith("says: line 3 | line 4 | line 5 | line 6"), report);
  }

  private static void awaitEnd(DaemonProcess d) throws Exception {
    Await.until(d + " ended", Duration.ofSeconds(60), () -> !d.isAlive());
  }
}
