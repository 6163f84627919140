package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A waiting client is woken by the kernel when the relay's file is replaced or written, not by other files in
 * the directory (the host's {@code /tmp}), and polls where it cannot be watched.
 */
class FileChangeWaiterTest {
  /** Longer than any wait here: a waiter that wakes was woken by the kernel, not by a recheck. */
  private static final long NO_RECHECK = 600_000;

  private static void assumeLinux() {
    assumeTrue(System.getProperty("os.name").startsWith("Linux"), "inotify");
  }

  /** Writes {@code file} after {@code delayMillis} as the relay does: a temporary file moved over it. */
  private static CompletableFuture<Void> replaceLater(Path file, long delayMillis) {
    return CompletableFuture.runAsync(() -> {
      try {
        Thread.sleep(delayMillis);
        Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        Files.write(tmp, "relayedAt=1\n".getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void aFileMovedInWakesTheWaiterAtOnce(@TempDir Path dir) throws Exception {
    assumeLinux();
    Path file = dir.resolve("record");
    try (FileChangeWaiter waiter = FileChangeWaiter.open(file, 20, NO_RECHECK)) {
      assertTrue(waiter.watched());
      CompletableFuture<Void> written = replaceLater(file, 200);
      assertTrue(waiter.await(30_000), "woken by the move");
      assertTrue(Files.exists(file));
      written.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aFileWrittenInPlaceWakesTheWaiter(@TempDir Path dir) throws Exception {
    assumeLinux();
    Path file = dir.resolve("record");
    Files.write(file, "relayedAt=1\n".getBytes(StandardCharsets.UTF_8));
    try (FileChangeWaiter waiter = FileChangeWaiter.open(file, 20, NO_RECHECK)) {
      CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
        try {
          Thread.sleep(200);
          Files.write(file, "relayedAt=22\n".getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      assertTrue(waiter.await(30_000), "woken by the write");
      written.get(30, TimeUnit.SECONDS);
      assertTrue(new String(Files.readAllBytes(file), StandardCharsets.UTF_8).contains("22"));
    }
  }

  @Test
  void otherFilesOfTheDirectoryDoNotWakeIt(@TempDir Path dir) throws Exception {
    assumeLinux();
    try (FileChangeWaiter waiter = FileChangeWaiter.open(dir.resolve("record"), 20, NO_RECHECK)) {
      CompletableFuture<Void> written = replaceLater(dir.resolve("another-users-record"), 10);
      written.get(30, TimeUnit.SECONDS);
      assertFalse(waiter.await(300), "no change of its own file");
    }
  }

  @Test
  void aDirectoryThatCannotBeWatchedIsPolled(@TempDir Path dir) throws Exception {
    try (FileChangeWaiter waiter = FileChangeWaiter.open(dir.resolve("missing").resolve("record"), 20, NO_RECHECK)) {
      assertFalse(waiter.watched());
      assertTrue(waiter.await(30_000), "a poll's time is up");
    }
  }

  @Test
  void aDirectoryRemovedWhileWatchedIsPolledFromThen(@TempDir Path dir) throws Exception {
    assumeLinux();
    Path sub = Files.createDirectory(dir.resolve("host"));
    try (FileChangeWaiter waiter = FileChangeWaiter.open(sub.resolve("record"), 20, NO_RECHECK)) {
      Files.delete(sub);
      while (waiter.watched()) {
        assertTrue(waiter.await(30_000));
      }
      assertTrue(waiter.await(30_000), "polled");
    }
  }
}
