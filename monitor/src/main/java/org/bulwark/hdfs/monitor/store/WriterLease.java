package org.bulwark.hdfs.monitor.store;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer lease of a store opened for writing: the one row of {@code writer_lease} (schema version
 * {@value #SINCE_VERSION}) names the instance that may write. Taken at open, in one transaction with the row
 * locked ({@code SELECT ... FOR UPDATE}), as {@link LeaseDecision} says; renewed as the first statement of every
 * write transaction, which finds out there, with nothing written yet, that another monitor took the store over.
 * The renewal's row lock lasts until the commit, so no monitor can take the lease while a write of the holder's
 * is under way, and a write that began before a takeover never commits after it.
 *
 * <p>Why a row and not a PostgreSQL advisory lock: a writer connection given up at the socket timeout leaves its
 * server session alive for a while, and an advisory lock with it, which the monitor's own new connection could not
 * take. The row names this instance, so a new connection goes on writing; the old session holds the row only as
 * long as its open transaction, which can never commit.
 */
final class WriterLease {
  static final int SINCE_VERSION = 5;
  private static final Logger LOG = LoggerFactory.getLogger(WriterLease.class);
  private static final String ROW = " FROM writer_lease WHERE lease_name = 'writer'";
  /** The instances holding a lease in this JVM: the embedded store's file lock proves every other holder gone. */
  private static final Set<String> OPEN_HERE = ConcurrentHashMap.newKeySet();
  private static final long PID = pid();
  private static final String HOST = host();
  private static final File PROC = new File("/proc");

  final String instance = UUID.randomUUID().toString();
  final long timeoutMillis;
  private final boolean fileLocked;
  private final String store;

  /**
   * @param fileLocked whether the store is a file only this process can have open (the embedded H2 file): a
   *     lease left by a monitor killed before it could release it is then taken at once
   * @param store the store, as messages name it
   */
  WriterLease(long timeoutMillis, boolean fileLocked, String store) {
    this.timeoutMillis = timeoutMillis;
    this.fileLocked = fileLocked;
    this.store = store;
  }

  /** Takes the lease (and commits), or throws the refusal: one line naming the holder and what to do. */
  void acquire(Connection c) throws SQLException, IOException {
    LeaseDecision.Holder holder = null;
    try (PreparedStatement p = c.prepareStatement("SELECT instance, host, pid, renewed_at, CURRENT_TIMESTAMP" + ROW
        + " FOR UPDATE"); ResultSet rs = p.executeQuery()) {
      if (rs.next() && rs.getString(1) != null) {
        holder = new LeaseDecision.Holder(rs.getString(1), rs.getString(2), rs.getLong(3), millisBetween(rs.getTimestamp(4),
            rs.getTimestamp(5)));
      }
    }
    LeaseDecision d = LeaseDecision.decide(holder, instance, timeoutMillis, holder == null ? null : whyGone(holder), store);
    if (!d.take()) {
      c.rollback();
      throw new IOException(d.message);
    }
    try (PreparedStatement p = c.prepareStatement("UPDATE writer_lease SET instance = ?, host = ?, pid = ?, "
        + "acquired_at = CURRENT_TIMESTAMP, renewed_at = CURRENT_TIMESTAMP WHERE lease_name = 'writer'")) {
      p.setString(1, instance);
      p.setString(2, HOST);
      p.setLong(3, PID);
      if (p.executeUpdate() == 0) {
        throw new SQLException("the writer_lease row is missing: the store's schema was changed by hand");
      }
    }
    c.commit();
    OPEN_HERE.add(instance);
    if (d.message != null) {
      LOG.warn(d.message);
    }
  }

  /**
   * Why {@code holder} is known to be gone although its lease may be fresh, or null. A holder open in a store
   * of this JVM is alive. Otherwise it is gone when the store is a file only this process can have open, or
   * when it ran on this host and its process no longer runs (a monitor restarted after kill -9 or a crash,
   * which would otherwise wait out the lease timeout; a pid reused since counts as alive, so it waits).
   */
  private String whyGone(LeaseDecision.Holder holder) {
    if (OPEN_HERE.contains(holder.instance)) {
      return null;
    }
    if (fileLocked) {
      return "that monitor no longer has the store's file open";
    }
    if (HOST.equals(holder.host) && holder.pid > 0 && (holder.pid == PID || !processRuns(holder.pid))) {
      return "that monitor's process no longer runs on this host";
    }
    return null;
  }

  /** Whether process {@code pid} runs on this host; true where the host cannot tell (no {@code /proc}). */
  static boolean processRuns(long pid) {
    return !new File(PROC, "self").isDirectory() || new File(PROC, Long.toString(pid)).exists();
  }

  /** Renews the lease in {@code c}'s open transaction; false when this instance no longer holds it. */
  boolean renew(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "UPDATE writer_lease SET renewed_at = CURRENT_TIMESTAMP WHERE lease_name = 'writer' AND instance = ?")) {
      p.setString(1, instance);
      return p.executeUpdate() == 1;
    }
  }

  /** Who holds the lease now, for the message of a monitor that lost it. */
  String holder(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT host, pid, instance" + ROW); ResultSet rs = p.executeQuery()) {
      return !rs.next() || rs.getString(3) == null ? "since given back"
          : "now held by host " + rs.getString(1) + ", pid " + rs.getLong(2);
    }
  }

  /** Gives the lease back (and commits) if this instance still holds it, so a monitor started next takes it at once. */
  void release(Connection c) throws SQLException {
    forget();
    try (PreparedStatement p = c.prepareStatement("UPDATE writer_lease SET instance = NULL, host = NULL, pid = NULL, "
        + "acquired_at = NULL, renewed_at = NULL WHERE lease_name = 'writer' AND instance = ?")) {
      p.setString(1, instance);
      p.executeUpdate();
    }
    c.commit();
  }

  /** This instance no longer writes: for this JVM, its lease is abandoned. */
  void forget() {
    OPEN_HERE.remove(instance);
  }

  /** Both times come from the database's clock (the second is its {@code CURRENT_TIMESTAMP}). */
  private static long millisBetween(Timestamp earlier, Timestamp later) {
    return earlier == null ? Long.MAX_VALUE : later.getTime() - earlier.getTime();
  }

  /** This process's id, from the runtime's name ({@code pid@host} on the JVMs Hadoop runs on); -1 if it has none. */
  private static long pid() {
    String name = ManagementFactory.getRuntimeMXBean().getName();
    int at = name.indexOf('@');
    return at > 0 && name.substring(0, at).matches("\\d+") ? Long.parseLong(name.substring(0, at)) : -1;
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown host";
    }
  }
}
