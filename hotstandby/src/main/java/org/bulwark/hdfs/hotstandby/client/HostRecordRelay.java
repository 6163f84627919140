package org.bulwark.hdfs.hotstandby.client;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active-NameNode record as the JVMs of this host and user that hold a ZooKeeper session see it, in a file
 * in {@code bulwark.hotstandby.client.host-dir} ({@link HostFiles}), for the JVMs that hold none.
 *
 * <p>Why: {@link HostSessionSlots} lets only a few JVMs of a host hold a session at a failover; the others
 * learned of the new active NameNode only from their questions to the NameNodes, paced to be up to a second
 * apart so that a hundred JVMs do not load the NameNode taking over. With the relay they learn it as soon as
 * the JVMs that watch the record write it: the kernel wakes them at the file's change (else they read its
 * status every {@link #POLL_MILLIS} ms), which costs neither ZooKeeper nor the NameNodes anything.
 *
 * <p>A record is written with the time it was relayed, and a waiter takes only records relayed since its wait
 * began: the file outlives the sessions, and one left from an earlier failover must not send a client to a
 * NameNode that has been standby since. A file another user owns is ignored. Writes go to a temporary file
 * moved over the relay, so a reader never sees half a record.
 */
final class HostRecordRelay {
  private static final Logger LOG = LoggerFactory.getLogger(HostRecordRelay.class);
  /** How often a waiting JVM reads the relay's file status where the kernel cannot tell it of a change. */
  static final long POLL_MILLIS = 20;
  /** How late a watched waiter can be for a change the kernel did not tell of. */
  static final long RECHECK_MILLIS = 250;
  private static final String RELAYED_AT = "relayedAt";
  /** This process's user id where the platform tells it ({@code /proc/self}), else null: no owner check. */
  private static final Object OWN_UID = ownUid();

  private final Path file;
  /** Whether a waiter asks the kernel to wake it at a change ({@link FileChangeWaiter}) rather than polls. */
  private final boolean watch;
  /** What the last read of the file found, so that a poll that sees the same file reads nothing. */
  private Object lastFileKey;
  private long lastModifiedNanos;
  private Relayed lastRead;

  /** A record as relayed: when, and what. */
  static final class Relayed {
    final long relayedAtMillis;
    final ActiveRecord record;

    Relayed(long relayedAtMillis, ActiveRecord record) {
      this.relayedAtMillis = relayedAtMillis;
      this.record = record;
    }
  }

  /** @param file the relay's file; null for none (nothing is written, and a waiter only waits) */
  HostRecordRelay(Path file) {
    this(file, true);
  }

  /** @param watch false: waiters poll even where the kernel could wake them (tests of the fallback) */
  HostRecordRelay(Path file, boolean watch) {
    this.file = file;
    this.watch = watch;
  }

  /** No relay: {@code bulwark.hotstandby.client.relay} is off. */
  static HostRecordRelay none() {
    return new HostRecordRelay(null);
  }

  /** The relay of the record at {@code recordPath} on {@code quorum}, for this JVM's user, in {@code hostDir}. */
  static HostRecordRelay forRecord(File hostDir, String quorum, String recordPath) {
    return new HostRecordRelay(new File(hostDir, "bulwark-active-namenode-" + HostFiles.user() + "-"
        + Integer.toHexString((quorum + recordPath).hashCode())).toPath());
  }

  private static Object ownUid() {
    try {
      return Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Relays {@code record} as seen now; a failure to write is logged at debug level and otherwise ignored. */
  void publish(ActiveRecord record) {
    if (file == null) {
      return;
    }
    byte[] encoded = record.encode();
    byte[] header = (RELAYED_AT + "=" + System.currentTimeMillis() + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] content = new byte[header.length + encoded.length];
    System.arraycopy(header, 0, content, 0, header.length);
    System.arraycopy(encoded, 0, content, header.length, encoded.length);
    Path tmp = null;
    try {
      tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
      Files.write(tmp, content);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Cannot relay the active-NameNode record to {}: {}", file, e.toString());
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // nothing more to do: a stray temporary file
        }
      }
    }
  }

  /** A wait for a record relayed at or after {@code sinceMillis} that is active and accepted by {@code wanted}. */
  Wait startWait(long sinceMillis, Predicate<ActiveRecord> wanted) {
    return new Wait(sinceMillis, wanted);
  }

  /**
   * One thread's wait for a relayed record through one failover, in slices between its other ways of learning
   * the new active NameNode. Woken when the file may have changed ({@link FileChangeWaiter}: by the kernel,
   * else every {@link #POLL_MILLIS} ms), it reads the file's status, and its content only when that changed.
   * The kernel's watch is opened at the first slice and held until {@link #close()}, so a failover's slices
   * share one. Threads may wait together, each with its own; they take turns reading.
   */
  final class Wait implements Closeable {
    private final long sinceMillis;
    private final Predicate<ActiveRecord> wanted;
    private FileChangeWaiter changes;

    private Wait(long sinceMillis, Predicate<ActiveRecord> wanted) {
      this.sinceMillis = sinceMillis;
      this.wanted = wanted;
    }

    /** Waits up to {@code timeoutMillis} for such a record; returns it, or null. */
    ActiveRecord await(long timeoutMillis) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      if (file == null) {
        Thread.sleep(Math.max(0, timeoutMillis));
        return null;
      }
      if (changes == null) {
        // Opened before the first read, so that a record relayed between the two still wakes the wait.
        changes = watch ? FileChangeWaiter.open(file, POLL_MILLIS, RECHECK_MILLIS)
            : FileChangeWaiter.polling(POLL_MILLIS);
      }
      while (true) {
        Relayed r = read();
        if (r != null && r.relayedAtMillis >= sinceMillis && r.record.isActive() && wanted.test(r.record)) {
          return r.record;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        changes.await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }

    @Override
    public void close() {
      if (changes != null) {
        changes.close();
        changes = null;
      }
    }
  }

  /** The relayed record, or null when there is none, it is not this user's, or it cannot be read. */
  synchronized Relayed read() {
    if (file == null) {
      return null;
    }
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.debug("Cannot read the relayed active-NameNode record {}: {}", file, e.toString());
      return null;
    }
    Object key = attrs.fileKey();
    long modified = attrs.lastModifiedTime().to(TimeUnit.NANOSECONDS);
    if (key != null && key.equals(lastFileKey) && modified == lastModifiedNanos) {
      return lastRead;
    }
    lastFileKey = key;
    lastModifiedNanos = modified;
    lastRead = parse();
    return lastRead;
  }

  private Relayed parse() {
    try {
      if (OWN_UID != null && !OWN_UID.equals(Files.getAttribute(file, "unix:uid"))) {
        LOG.debug("Ignoring {}: another user's file", file);
        return null;
      }
      byte[] content = Files.readAllBytes(file);
      Properties p = new Properties();
      p.load(new StringReader(new String(content, StandardCharsets.UTF_8)));
      return new Relayed(Long.parseLong(p.getProperty(RELAYED_AT, "")), ActiveRecord.decode(content));
    } catch (IOException | RuntimeException e) {
      LOG.debug("Ignoring the relayed active-NameNode record {}: {}", file, e.toString());
      return null;
    }
  }
}
