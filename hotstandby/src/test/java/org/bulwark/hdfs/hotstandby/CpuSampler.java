package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Samples the CPU time of a few processes every few milliseconds, so that afterwards the benchmark can say
 * which of them used the cores during a window it learns of only later (a NameNode's transition, timed by
 * its controller's log). Why: on one host every daemon and client shares two cores, and a transition that is
 * slower under one controller than under another may be slower because something else had the CPU.
 *
 * <p>Reads {@code /proc/<pid>/stat} (user and system time, in clock ticks of 10 ms); a process that is
 * restarted under the same name is followed to its new pid, and its time counted from its start.
 */
final class CpuSampler implements AutoCloseable {
  private static final double MILLIS_PER_TICK = 10;
  /** Samples kept: a minute at the default period, more than any failover lasts. */
  private static final int KEPT = 12_000;

  private final Map<String, Supplier<Long>> pids;
  private final long periodMillis;
  private final Deque<Sample> samples = new ArrayDeque<>();
  private final Thread thread;
  private volatile boolean running = true;

  /** One reading: when, and per process name its pid and CPU ticks (-1 when it could not be read). */
  private static final class Sample {
    final long nanoTime;
    final long[] pid;
    final long[] ticks;

    Sample(long nanoTime, int n) {
      this.nanoTime = nanoTime;
      this.pid = new long[n];
      this.ticks = new long[n];
    }
  }

  /**
   * @param pids per name, where its current pid is read at each sample (null or a non-positive pid: none now)
   */
  CpuSampler(Map<String, Supplier<Long>> pids, long periodMillis) {
    this.pids = new LinkedHashMap<>(pids);
    this.periodMillis = periodMillis;
    this.thread = new Thread(this::run, "cpu-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (running) {
      Sample s = new Sample(System.nanoTime(), pids.size());
      int i = 0;
      for (Supplier<Long> p : pids.values()) {
        Long pid = p.get();
        s.pid[i] = pid == null ? -1 : pid;
        s.ticks[i] = s.pid[i] > 0 ? ticks(s.pid[i]) : -1;
        i++;
      }
      synchronized (samples) {
        samples.addLast(s);
        if (samples.size() > KEPT) {
          samples.removeFirst();
        }
      }
      try {
        TimeUnit.MILLISECONDS.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** utime + stime of a process, or -1 when it is gone. The command name may hold spaces: fields follow its ')'. */
  static long ticks(long pid) {
    try {
      return ticksOf(read(Paths.get("/proc", Long.toString(pid), "stat")));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static String read(Path stat) throws IOException {
    return new String(Files.readAllBytes(stat), StandardCharsets.US_ASCII);
  }

  /** utime + stime from a {@code stat} line: fields 14 and 15 of proc(5), counted after the command name's ')'. */
  private static long ticksOf(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /**
   * A process's CPU ticks per thread name (its first 15 characters, as the kernel keeps it, digits as
   * {@code #}), summed: what a diff of two readings says about which of its threads used the CPU between them.
   */
  static Map<String, Long> ticksByThread(long pid) {
    Map<String, Long> byName = new TreeMap<>();
    File[] tasks = new File("/proc/" + pid + "/task").listFiles();
    if (tasks == null) {
      return byName;
    }
    for (File task : tasks) {
      try {
        String stat = read(new File(task, "stat").toPath());
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "#");
        byName.merge(name, ticksOf(stat), Long::sum);
      } catch (IOException | RuntimeException e) {
        // the thread ended meanwhile
      }
    }
    return byName;
  }

  /** {@link #ticksByThread} summed over several processes: which threads of a fleet of JVMs used the CPU. */
  static Map<String, Long> ticksByThread(Iterable<Long> pids) {
    Map<String, Long> byName = new TreeMap<>();
    for (long pid : pids) {
      ticksByThread(pid).forEach((name, ticks) -> byName.merge(name, ticks, Long::sum));
    }
    return byName;
  }

  /** Per thread name, the CPU milliseconds used between two {@link #ticksByThread} readings, where more than a tick. */
  static Map<String, Long> threadMillisBetween(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> used = new TreeMap<>();
    after.forEach((name, ticks) -> {
      long d = ticks - before.getOrDefault(name, 0L);
      if (d > 1) {
        used.put(name, (long) (d * MILLIS_PER_TICK));
      }
    });
    return used;
  }

  /**
   * Per name, the CPU milliseconds its process used between the last samples at or before {@code fromNanos}
   * and at or before {@code toNanos} (a process that changed pid meanwhile: its new one's whole time).
   */
  Map<String, Double> cpuMillisBetween(long fromNanos, long toNanos) {
    Sample from = null;
    Sample to = null;
    synchronized (samples) {
      for (Sample s : samples) {
        if (s.nanoTime <= fromNanos) {
          from = s;
        }
        if (s.nanoTime <= toNanos) {
          to = s;
        }
      }
    }
    Map<String, Double> used = new LinkedHashMap<>();
    int i = 0;
    for (String name : pids.keySet()) {
      double ms = Double.NaN;
      if (from != null && to != null && to.ticks[i] >= 0) {
        long start = from.pid[i] == to.pid[i] && from.ticks[i] >= 0 ? from.ticks[i] : 0;
        ms = (to.ticks[i] - start) * MILLIS_PER_TICK;
      }
      used.put(name, ms);
      i++;
    }
    return used;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join();
  }
}
