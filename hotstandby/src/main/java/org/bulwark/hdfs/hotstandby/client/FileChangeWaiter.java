package org.bulwark.hdfs.hotstandby.client;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets one thread wait until a file may have changed: woken by the kernel (inotify, through a
 * {@link WatchService} on the file's directory) where it can be, else every {@code pollMillis}.
 *
 * <p>Why: a waiting client JVM that reads the host's relay ({@link HostRecordRelay}) every 20 ms costs 5-8 ms
 * of CPU a second in its thread alone (measured with the fleet's JVM options), and a hundred of them on a
 * host wait at the same moment, a failover, when the host's CPUs are wanted most. Woken by the kernel, a waiter
 * costs nothing until the file changes, and sees the change at once instead of within a poll.
 *
 * <p>A watch holds one inotify instance while its thread waits; past the user's
 * {@code fs.inotify.max_user_instances} (128 by default on Linux), or where the JDK watches by polling itself
 * (not Linux), the wait polls instead. Even when watched, the waiter looks again now and then, so that a
 * change the watch did not see (a file system whose writes inotify is not told of) is late by at most that.
 * Open before reading: a change between the two then still wakes the next wait.
 */
abstract class FileChangeWaiter implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FileChangeWaiter.class);
  /** Whether this JVM already said that it polls instead of watching: said once. */
  private static final AtomicBoolean SAID_POLLING = new AtomicBoolean();

  /**
   * A waiter for changes of {@code file}, watched where the platform allows it (and then looking again every
   * {@code recheckMillis} all the same), else polling every {@code pollMillis}.
   */
  static FileChangeWaiter open(Path file, long pollMillis, long recheckMillis) {
    Path dir = file.toAbsolutePath().getParent();
    WatchService service = null;
    try {
      service = FileSystems.getDefault().newWatchService();
      if (service.getClass().getSimpleName().startsWith("Polling")) {
        // The JDK's own polling watch (not Linux) looks every 10 s or 2 s: slower than our poll.
        throw new IOException("the platform watches files by polling");
      }
      dir.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
      return new Watching(service, file.getFileName(), pollMillis, recheckMillis);
    } catch (IOException | RuntimeException e) {
      closeQuietly(service);
      if (SAID_POLLING.compareAndSet(false, true)) {
        LOG.info("Cannot watch {} for changes ({}; on Linux see fs.inotify.max_user_instances): a waiting "
            + "client reads it every {} ms instead", dir, e.toString(), pollMillis);
      }
      return new Polling(pollMillis);
    }
  }

  /** Polls every {@code pollMillis}, never watching: what {@link #open} falls back to. */
  static FileChangeWaiter polling(long pollMillis) {
    return new Polling(pollMillis);
  }

  /** Whether the kernel wakes this waiter (else it polls). */
  abstract boolean watched();

  /**
   * Waits up to {@code millis} until the file may have changed; true when it may have (a watched change, or a
   * poll's or recheck's time is up), false when a watched wait saw no change of the file in {@code millis}.
   */
  abstract boolean await(long millis) throws InterruptedException;

  @Override
  public abstract void close();

  private static void closeQuietly(WatchService service) {
    if (service != null) {
      try {
        service.close();
      } catch (IOException e) {
        LOG.debug("Cannot close a file watch: {}", e.toString());
      }
    }
  }

  /** Woken by the kernel when an entry named as the file is created (moved in) or written in its directory. */
  private static final class Watching extends FileChangeWaiter {
    private final WatchService service;
    private final Path name;
    private final Polling fallback;
    private final long recheckMillis;
    /** The directory can no longer be watched (gone, or the service closed): from then on, poll. */
    private boolean lost;

    Watching(WatchService service, Path name, long pollMillis, long recheckMillis) {
      this.service = service;
      this.name = name;
      this.fallback = new Polling(pollMillis);
      this.recheckMillis = recheckMillis;
    }

    @Override
    boolean watched() {
      return !lost;
    }

    @Override
    boolean await(long millis) throws InterruptedException {
      if (lost) {
        return fallback.await(millis);
      }
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      long recheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(recheckMillis);
      while (true) {
        long now = System.nanoTime();
        if (now - deadline >= 0) {
          return false;
        }
        if (now - recheck >= 0) {
          return true;
        }
        WatchKey key;
        try {
          key = service.poll(Math.min(deadline, recheck) - now, TimeUnit.NANOSECONDS);
        } catch (ClosedWatchServiceException e) {
          lost = true;
          return true;
        }
        if (key == null) {
          continue;
        }
        boolean changed = false;
        for (WatchEvent<?> event : key.pollEvents()) {
          changed |= event.kind() == StandardWatchEventKinds.OVERFLOW || name.equals(event.context());
        }
        if (!key.reset()) {
          lost = true;
          return true;
        }
        if (changed) {
          return true;
        }
      }
    }

    @Override
    public void close() {
      closeQuietly(service);
    }
  }

  /** Woken by time alone. */
  private static final class Polling extends FileChangeWaiter {
    private final long pollMillis;

    Polling(long pollMillis) {
      this.pollMillis = pollMillis;
    }

    @Override
    boolean watched() {
      return false;
    }

    @Override
    boolean await(long millis) throws InterruptedException {
      Thread.sleep(Math.max(1, Math.min(pollMillis, millis)));
      return true;
    }

    @Override
    public void close() {
    }
  }
}
