package org.bulwark.hdfs.hotstandby;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One client of ns1 doing one operation again and again (a {@code getFileInfo}, or creating and closing
 * a small file), keeping the time of every success: the longest gap between two successes around a
 * failover is the outage that client saw. Its own {@link FileSystem} instance, so the provider's state
 * (which NameNode it believes active) is its own and lives through every failover of a run.
 */
final class ClientLoop implements AutoCloseable {
  /** What the client does. */
  enum Operation {
    READ, WRITE;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final String name;
  private final Operation operation;
  private final FileSystem fs;
  private final long pauseMicros;
  private final List<Long> successes = new ArrayList<>();
  /** Calls that failed (the provider's retries gave up), over the loop's life. */
  private final java.util.concurrent.atomic.AtomicLong failures = new java.util.concurrent.atomic.AtomicLong();
  /** Every call since the last {@link #longestGapMillisAfter}: start, create answered (writes), end, failure or null. */
  private final List<Attempt> attempts = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private String lastGapStory = "";
  /** nanoTime of the success that opened and of the one that closed the gap {@link #longestGapMillisAfter} last found. */
  private long lastGapStart;
  private long lastGapEnd;

  /**
   * @param pauseMicros pause after each call, so a dozen loops leave the NameNodes their CPU (0 for none)
   */
  ClientLoop(String name, Operation operation, Configuration conf, long pauseMicros) throws IOException {
    this.name = name;
    this.operation = operation;
    this.fs = FileSystem.newInstance(URI.create("hdfs://ns1"), conf);
    this.pauseMicros = pauseMicros;
    Path dir = new Path("/clients/" + name + "-" + operation.label());
    if (operation == Operation.WRITE) {
      fs.mkdirs(dir);
    }
    this.thread = new Thread(() -> loop(dir), "client-" + name + "-" + operation.label());
    thread.setDaemon(true);
    thread.start();
  }

  /** One call's timeline ({@link System#nanoTime}), to tell where an outage went. */
  private static final class Attempt {
    final long start;
    long created;
    long end;
    String failure;

    Attempt(long start) {
      this.start = start;
    }

    String relativeTo(long t) {
      return String.format(java.util.Locale.ROOT, "[%+.0f%s..%+.0f %s]", (start - t) / 1e6,
          created == 0 ? "" : String.format(java.util.Locale.ROOT, " created %+.0f", (created - t) / 1e6),
          (end - t) / 1e6, failure == null ? "ok" : failure);
    }
  }

  private void loop(Path dir) {
    long n = 0;
    while (running) {
      Attempt a = new Attempt(System.nanoTime());
      try {
        if (operation == Operation.READ) {
          fs.getFileStatus(new Path("/"));
        } else {
          try (FSDataOutputStream out = fs.create(new Path(dir, Long.toString(n++ % 64)), true)) {
            a.created = System.nanoTime();
            out.write(new byte[16]);
          }
        }
        a.end = System.nanoTime();
        synchronized (successes) {
          successes.add(a.end);
          attempts.add(a);
        }
      } catch (IOException e) {
        // The provider's retries gave up: the outage goes on.
        failures.incrementAndGet();
        a.end = System.nanoTime();
        a.failure = e.getClass().getSimpleName();
        synchronized (successes) {
          attempts.add(a);
        }
      }
      if (pauseMicros > 0) {
        try {
          TimeUnit.MICROSECONDS.sleep(pauseMicros);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /**
   * The calls that ended within the gap the last {@link #longestGapMillisAfter} found, ms from its {@code from}:
   * start, create answered (writes), end and outcome.
   */
  String lastGapStory() {
    synchronized (successes) {
      return lastGapStory;
    }
  }

  /**
   * Where the gap {@link #longestGapMillisAfter} last found lay: its start ms before {@code failed} and its end
   * ms after {@code activeAgain}, so an outage splits into the call in flight at the failure, the failover and
   * the first answer after it.
   */
  String lastGapAround(long failed, long activeAgain) {
    synchronized (successes) {
      return String.format(java.util.Locale.ROOT, "%+.0f/%+.0f", (lastGapStart - failed) / 1e6,
          (lastGapEnd - activeAgain) / 1e6);
    }
  }

  String name() {
    return name;
  }

  /** Calls that failed since the loop started. */
  long failures() {
    return failures.get();
  }

  Operation operation() {
    return operation;
  }

  /** nanoTime of the last success, or Long.MIN_VALUE before the first. */
  long lastSuccess() {
    synchronized (successes) {
      return successes.isEmpty() ? Long.MIN_VALUE : successes.get(successes.size() - 1);
    }
  }

  /**
   * Median time of the successful calls that ended before {@code t} (since the last {@link #longestGapMillisAfter}):
   * one call's latency with no failover. NaN when there was none.
   */
  double steadyMillisBefore(long t) {
    List<Long> took = new ArrayList<>();
    synchronized (successes) {
      for (Attempt a : attempts) {
        if (a.failure == null && a.end < t) {
          took.add(a.end - a.start);
        }
      }
    }
    if (took.isEmpty()) {
      return Double.NaN;
    }
    java.util.Collections.sort(took);
    return took.get((took.size() - 1) / 2) / 1e6;
  }

  /**
   * From {@code from} (a failure) to the end of the first successful call that began after it, in ms: what the
   * failure cost a caller who tried just after it, without the call already in flight. NaN when none has yet.
   */
  double firstAnswerAfterMillis(long from) {
    synchronized (successes) {
      for (Attempt a : attempts) {
        if (a.failure == null && a.start > from) {
          return (a.end - from) / 1e6;
        }
      }
    }
    return Double.NaN;
  }

  /** Longest gap between consecutive successes among those ending after {@code from}; forgets every success. */
  double longestGapMillisAfter(long from) {
    long longest = 0;
    synchronized (successes) {
      long gapEnd = Long.MIN_VALUE;
      for (int i = 1; i < successes.size(); i++) {
        if (successes.get(i) > from && successes.get(i) - successes.get(i - 1) > longest) {
          longest = successes.get(i) - successes.get(i - 1);
          gapEnd = successes.get(i);
        }
      }
      StringBuilder story = new StringBuilder();
      for (Attempt a : attempts) {
        if (gapEnd != Long.MIN_VALUE && a.end > gapEnd - longest && a.end <= gapEnd) {
          story.append(' ').append(a.relativeTo(from));
        }
      }
      lastGapStory = story.toString();
      lastGapStart = gapEnd - longest;
      lastGapEnd = gapEnd;
      attempts.clear();
      long last = successes.isEmpty() ? Long.MIN_VALUE : successes.get(successes.size() - 1);
      successes.clear();
      if (last != Long.MIN_VALUE) {
        successes.add(last);
      }
    }
    return longest / 1e6;
  }

  @Override
  public void close() throws Exception {
    running = false;
    thread.interrupt();
    thread.join(30_000);
    fs.close();
  }
}
