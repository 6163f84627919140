package org.bulwark.hdfs.hotstandby.fencing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * This host's processes as Linux's {@code /proc} shows them: which process listens on a TCP port, and
 * whether a process is still the one that was found (its start time tells a reused pid apart). Every
 * read that is refused (another user's process) or races a process's exit counts as "not found".
 */
final class ProcessTable {
  /** A process, named by its pid and its start time in clock ticks since boot. */
  static final class Process {
    final long pid;
    final long startTicks;

    Process(long pid, long startTicks) {
      this.pid = pid;
      this.startTicks = startTicks;
    }

    @Override
    public String toString() {
      return "pid " + pid;
    }
  }

  /** Where a process found running stands on its way out, from first to last. */
  enum Life {
    /** Its main thread neither exiting nor finished. */
    RUNNING,
    /**
     * Its main thread finished (a zombie) while another thread has not begun to exit: a program whose main
     * thread ended on its own (pthread_exit) and runs on, or a kill whose signal has not reached every thread.
     */
    MAIN_THREAD_ENDED,
    /** Its main thread exiting and another thread not yet: a kill or an exit call under way. */
    EXITING,
    /**
     * Every thread exiting or gone, the main one not finished yet: none will run the program's code again,
     * though the kernel may still be releasing its memory, and its sockets close only after that.
     */
    EVERY_THREAD_EXITING,
    /** A zombie with every thread exiting or gone: it holds no socket or file, only its exit status. */
    FINISHED,
    /** No such pid any more, or another process under it. */
    GONE;

    /** Whether it has ended: it holds no socket or file and will run nothing. */
    boolean exited() {
      return this == FINISHED || this == GONE;
    }

    /** Whether its main thread has begun to leave: the first sign of a kill (or of its end). */
    boolean leaving() {
      return this != RUNNING;
    }
  }

  /** What {@code /proc/<pid>/stat} says of a process: its state letter, kernel flags and start time. */
  static final class Stat {
    /** The kernel's {@code PF_EXITING}: set when a task starts to exit, before its memory and descriptors go. */
    private static final long PF_EXITING = 0x4;

    final char state;
    final long flags;
    final long startTicks;

    Stat(char state, long flags, long startTicks) {
      this.state = state;
      this.flags = flags;
      this.startTicks = startTicks;
    }

    /** On its way out (killed, or exit called): it will not run its own code again. */
    boolean exiting() {
      return (flags & PF_EXITING) != 0;
    }

    /** Zombie or dead: it runs no code and holds no socket or file, only its exit status. */
    boolean finished() {
      return state == 'Z' || state == 'X' || state == 'x';
    }
  }

  private final Path proc;

  ProcessTable(Path proc) {
    this.proc = proc;
  }

  /** The table of the running system. */
  static ProcessTable system() {
    return new ProcessTable(Paths.get("/proc"));
  }

  /** Whether this system has a {@code /proc} to read (Linux). */
  boolean readable() {
    return Files.isReadable(proc.resolve("net").resolve("tcp"));
  }

  /** Socket inodes listening on {@code port}, IPv4 and IPv6, any local address. */
  Set<Long> listeners(int port) throws IOException {
    Set<Long> inodes = new HashSet<>();
    for (String table : new String[] {"tcp", "tcp6"}) {
      Path p = proc.resolve("net").resolve(table);
      if (Files.exists(p)) {
        inodes.addAll(listeningInodes(Files.readAllLines(p, StandardCharsets.US_ASCII), port));
      }
    }
    return inodes;
  }

  /**
   * The one process holding every socket in {@code inodes}, found by reading each process's file
   * descriptors; null when none can be read or they belong to more than one process.
   */
  Process owner(Set<Long> inodes) throws IOException {
    if (inodes.isEmpty()) {
      return null;
    }
    Set<String> links = new HashSet<>();
    for (long inode : inodes) {
      links.add("socket:[" + inode + "]");
    }
    List<Long> owners = new ArrayList<>();
    try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, "[0-9]*")) {
      for (Path dir : pids) {
        if (holdsAny(dir.resolve("fd"), links)) {
          owners.add(Long.parseLong(dir.getFileName().toString()));
        }
      }
    }
    if (owners.size() != 1) {
      return null;
    }
    Stat stat = stat(owners.get(0));
    // One already on its way out is not taken: its exit could not be told from a thread of it ending.
    return stat == null || stat.finished() || stat.exiting() ? null : new Process(owners.get(0), stat.startTicks);
  }

  /** The process's state and start time, or null when there is no such process any more. */
  Stat stat(long pid) throws IOException {
    try {
      return parseStat(new String(Files.readAllBytes(proc.resolve(Long.toString(pid)).resolve("stat")),
          StandardCharsets.US_ASCII));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * How far along its end {@code p} is, read once: its main thread's stat, and its threads' when the main
   * one is ending. A killed process's main thread shows the exit 2-5 ms after the signal, long before its
   * sockets close (the kernel releases a process's memory before its descriptors: 30 ms for a 100 MB heap
   * and 460 ms for 6 GB, measured on this machine).
   */
  Life lifeOf(Process p) throws IOException {
    Stat leader = stat(p.pid);
    if (leader == null || leader.startTicks != p.startTicks) {
      return Life.GONE;
    }
    if (!leader.finished() && !leader.exiting()) {
      return Life.RUNNING;
    }
    if (everyThreadExiting(p.pid)) {
      return leader.finished() ? Life.FINISHED : Life.EVERY_THREAD_EXITING;
    }
    return leader.finished() ? Life.MAIN_THREAD_ENDED : Life.EXITING;
  }

  /**
   * Whether every thread of process {@code pid} is exiting or gone, so none of them will run the program's
   * code again (an exiting thread never returns to it, and a process being killed starts no thread).
   */
  private boolean everyThreadExiting(long pid) throws IOException {
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("task"))) {
      for (Path task : tasks) {
        Stat t;
        try {
          t = parseStat(new String(Files.readAllBytes(task.resolve("stat")), StandardCharsets.US_ASCII));
        } catch (NoSuchFileException e) {
          continue; // that thread is gone
        }
        if (!t.finished() && !t.exiting()) {
          return false;
        }
      }
      return true;
    } catch (NoSuchFileException e) {
      return true; // reaped since its main thread was read: no thread is left
    }
  }

  private static boolean holdsAny(Path fds, Set<String> links) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(fds)) {
      for (Path fd : entries) {
        try {
          if (links.contains(Files.readSymbolicLink(fd).toString())) {
            return true;
          }
        } catch (IOException | SecurityException e) {
          // closed meanwhile
        }
      }
    } catch (IOException | SecurityException e) {
      // another user's process, or it exited meanwhile
    }
    return false;
  }

  /**
   * Inodes of the sockets in LISTEN state (0A) on {@code port} in a {@code /proc/net/tcp} or {@code tcp6}
   * table: {@code sl local_address rem_address st ... uid timeout inode}, the address as hex ip:port.
   */
  static Set<Long> listeningInodes(List<String> lines, int port) {
    Set<Long> inodes = new HashSet<>();
    String hexPort = String.format(Locale.ROOT, ":%04X ", port);
    for (String line : lines) {
      // A busy host lists thousands of sockets: split only the lines that name the port (the kernel writes
      // upper-case hex).
      if (line.indexOf(hexPort) < 0) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      if (f.length < 10 || !f[0].endsWith(":") || !"0A".equals(f[3])) {
        continue;
      }
      if (f[1].toUpperCase(Locale.ROOT).endsWith(hexPort.trim())) {
        try {
          long inode = Long.parseLong(f[9]);
          if (inode != 0) {
            inodes.add(inode);
          }
        } catch (NumberFormatException e) {
          // not a socket line
        }
      }
    }
    return inodes;
  }

  /**
   * Parses {@code /proc/<pid>/stat}: {@code pid (comm) state ppid ...}, the flags its 9th field, the start
   * time its 22nd.
   * The command name may hold spaces and parentheses, so fields are counted after its last ')'.
   */
  static Stat parseStat(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc stat line: " + stat);
    }
    String[] f = stat.substring(close + 1).trim().split("\\s+");
    if (f.length < 20 || f[0].length() != 1) {
      throw new IllegalArgumentException("not a /proc stat line: " + stat);
    }
    return new Stat(f[0].charAt(0), Long.parseUnsignedLong(f[6]), Long.parseLong(f[19]));
  }
}
