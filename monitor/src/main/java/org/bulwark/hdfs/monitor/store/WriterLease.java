package org.bulwark.hdfs.monitor.store;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
  /** The instances holding a lease in this JVM: alive, whatever else says so. */
  private static final Set<String> OPEN_HERE = ConcurrentHashMap.newKeySet();
  private static final long PID = pid();
  private static final String HOST = host();
  private static final File PROC = new File("/proc");
  /** This machine's boot and process namespace: a pid means one process only among processes sharing both. */
  private static final String MACHINE = machine();
  private static final long PROCESS_START = PID > 0 ? processStart(PID) : -1;

  final String instance = UUID.randomUUID().toString();
  final long timeoutMillis;
  private final boolean fileLocked;
  private final String store;
  /** The database's clock, read live: a renewal at the end of a long transaction must not carry its start time. */
  private final String now;

  /**
   * @param fileLocked whether the store is a file only this process can have open (the embedded H2 file): a
   *     lease left by a monitor killed before it could release it is then taken at once
   * @param store the store, as messages name it
   * @param url the store's JDBC URL: PostgreSQL's {@code CURRENT_TIMESTAMP} is its transaction's start, so there
   *     {@code clock_timestamp()} is read (the embedded store's contenders are in one process, which H2's file
   *     lock keeps to one)
   */
  WriterLease(long timeoutMillis, boolean fileLocked, String store, String url) {
    this.timeoutMillis = timeoutMillis;
    this.fileLocked = fileLocked;
    this.store = store;
    this.now = url.startsWith("jdbc:postgresql:") ? "clock_timestamp()" : "CURRENT_TIMESTAMP";
  }

  /** Takes the lease (and commits), or throws the refusal: one line naming the holder and what to do. */
  void acquire(Connection c) throws SQLException, IOException {
    LeaseDecision.Holder holder = null;
    String goneBecause = null;
    try (PreparedStatement p = c.prepareStatement("SELECT instance, host, pid, machine, process_start, renewed_at, " + now
        + ROW + " FOR UPDATE"); ResultSet rs = p.executeQuery()) {
      if (rs.next() && rs.getString(1) != null) {
        holder = new LeaseDecision.Holder(rs.getString(1), rs.getString(2), rs.getLong(3), millisBetween(rs.getTimestamp(6),
            rs.getTimestamp(7)));
        goneBecause = whyGone(holder, rs.getString(4), rs.getLong(5));
      }
    }
    LeaseDecision d = LeaseDecision.decide(holder, instance, timeoutMillis, goneBecause, store);
    if (!d.take()) {
      c.rollback();
      throw new IOException(d.message);
    }
    try (PreparedStatement p = c.prepareStatement("UPDATE writer_lease SET instance = ?, host = ?, pid = ?, machine = ?, "
        + "process_start = ?, acquired_at = " + now + ", renewed_at = " + now + " WHERE lease_name = 'writer'")) {
      p.setString(1, instance);
      p.setString(2, HOST);
      p.setLong(3, PID);
      p.setString(4, MACHINE);
      p.setLong(5, PROCESS_START);
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
   * of this JVM is alive. Otherwise it is gone when it ran on this machine (same boot, same process namespace: a
   * container with the host's name but its own processes is another machine) and its process no longer runs: no
   * process of its pid, or one started at another time (the pid reused). That is a monitor restarted after kill -9
   * or a crash, which would otherwise wait out the lease timeout. It is gone too when the store is a file only this
   * process can have open, unless it is another process still running on this machine.
   */
  private String whyGone(LeaseDecision.Holder holder, String holderMachine, long holderStart) {
    if (OPEN_HERE.contains(holder.instance)) {
      return null;
    }
    boolean here = MACHINE != null && MACHINE.equals(holderMachine) && holder.pid > 0 && holderStart > 0;
    if (here && processStart(holder.pid) != holderStart) {
      return "that monitor's process no longer runs on this machine";
    }
    // H2 frees the file while it compacts it (the connections close and reopen), so the file lock proves only
    // that no other process has the file open now: a monitor process that still runs here may be between them.
    if (fileLocked && !(here && holder.pid != PID)) {
      return "that monitor no longer has the store's file open";
    }
    return null;
  }

  /**
   * When process {@code pid} started (clock ticks since boot, {@code /proc/<pid>/stat} field 22), or -1 when no
   * such process runs or the host cannot tell.
   */
  static long processStart(long pid) {
    try {
      String stat = new String(Files.readAllBytes(new File(PROC, pid + "/stat").toPath()), StandardCharsets.UTF_8);
      // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      return Long.parseLong(after[22 - 3]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** This machine's boot id and process namespace, or null where the host has no {@code /proc} to tell them. */
  private static String machine() {
    try {
      String boot = new String(Files.readAllBytes(new File(PROC, "sys/kernel/random/boot_id").toPath()),
          StandardCharsets.UTF_8).trim();
      return boot + " " + Files.readSymbolicLink(new File(PROC, "self/ns/pid").toPath());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** This machine's identity as the lease names it, for tests that write a lease as another process would. */
  static String machineForTests() {
    return MACHINE;
  }

  /** Renews the lease in {@code c}'s open transaction; false when this instance no longer holds it. */
  boolean renew(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "UPDATE writer_lease SET renewed_at = " + now + " WHERE lease_name = 'writer' AND instance = ?")) {
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
        + "machine = NULL, process_start = NULL, acquired_at = NULL, renewed_at = NULL WHERE lease_name = 'writer' "
        + "AND instance = ?")) {
      p.setString(1, instance);
      p.executeUpdate();
    }
    c.commit();
  }

  /** This instance no longer writes: for this JVM, its lease is abandoned. */
  void forget() {
    OPEN_HERE.remove(instance);
  }

  /** Both times come from the database's clock (the second is its clock now). */
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
