package org.bulwark.hdfs.hotstandby.client;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps how many JVMs of one host and user hold a ZooKeeper session for NameNode discovery at the same time.
 *
 * <p>Why: at a failover every client JVM that called the failed NameNode wants a session, and on a worker host
 * running a hundred task JVMs the sessions past ZooKeeper's {@code maxClientCnxns} are refused anyway, after
 * each JVM has spent 40-60 ms of CPU (measured) setting its session up and ZooKeeper has turned its
 * connections away: seconds of CPU, on the host and on ZooKeeper's, while the new active NameNode needs it
 * (measured on 2 cores: failovers of 2.8-4.1 s where the stock pair took 1.2-1.4 s). A JVM without a slot
 * finds the new active NameNode by asking the NameNodes, as a refused one does, and costs nothing more.
 *
 * <p>A slot is a one-byte lock region of a file in {@code bulwark.hotstandby.client.host-dir} ({@link HostFiles}),
 * named for the user and the quorum.
 * The operating system frees a JVM's locks when it ends, so a killed task never keeps a slot. Where the file
 * cannot be used (no writable temporary directory) there is no cap.
 */
final class HostSessionSlots {
  private static final Logger LOG = LoggerFactory.getLogger(HostSessionSlots.class);
  /**
   * One channel per file and JVM, never closed: on Linux closing any descriptor of a file drops every lock the
   * process holds on it, including the slots of this JVM's other trackers.
   */
  private static final Map<File, FileChannel> CHANNELS = new HashMap<>();

  /** A held slot; closing it frees the slot. */
  interface Slot extends AutoCloseable {
    @Override
    void close();
  }

  private static final Slot NO_CAP = () -> { };

  private final File file;
  private final int slots;

  /**
   * @param slots how many sessions the host's JVMs may hold at once; 0 or less means no cap
   */
  HostSessionSlots(File file, int slots) {
    this.file = file;
    this.slots = slots;
  }

  /** The slots of {@code quorum}'s sessions for this JVM's user, in {@code hostDir}. */
  static HostSessionSlots forQuorum(File hostDir, String quorum, int slots) {
    return new HostSessionSlots(new File(hostDir, "bulwark-zookeeper-sessions-" + HostFiles.user() + "-"
        + Integer.toHexString(quorum.hashCode())), slots);
  }

  /** No cap: every JVM may open its session. */
  static HostSessionSlots unlimited() {
    return new HostSessionSlots(null, 0);
  }

  /** A free slot, now held by this JVM; null when every slot is held. Starts at a random slot to spread the locks. */
  Slot tryAcquire() {
    if (slots <= 0) {
      return NO_CAP;
    }
    FileChannel channel;
    try {
      channel = channel(file);
    } catch (IOException e) {
      LOG.debug("Cannot use {} to cap the host's ZooKeeper sessions ({}); no cap", file, e.toString());
      return NO_CAP;
    }
    int first = ThreadLocalRandom.current().nextInt(slots);
    for (int i = 0; i < slots; i++) {
      int slot = (first + i) % slots;
      try {
        FileLock lock = channel.tryLock(slot, 1, false);
        if (lock != null) {
          return () -> release(lock);
        }
      } catch (OverlappingFileLockException e) {
        // held by this JVM (another nameservice's tracker): not free
      } catch (IOException e) {
        LOG.debug("Cannot lock a slot of {} ({}); no cap", file, e.toString());
        return NO_CAP;
      }
    }
    return null;
  }

  private static void release(FileLock lock) {
    try {
      lock.release();
    } catch (IOException e) {
      LOG.debug("Releasing a ZooKeeper session slot: {}", e.toString());
    }
  }

  private static synchronized FileChannel channel(File file) throws IOException {
    FileChannel c = CHANNELS.get(file);
    if (c == null || !c.isOpen()) {
      c = FileChannel.open(file.toPath(), StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      CHANNELS.put(file, c);
    }
    return c;
  }
}
