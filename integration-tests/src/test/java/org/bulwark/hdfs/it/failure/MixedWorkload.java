package org.bulwark.hdfs.it.failure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.FileContent;

/**
 * The steady mixed load the failure suite runs under, over every nameservice: writers on DataNode hosts
 * (as tasks) and off-cluster (as edge nodes), reads, appends and deletes. It remembers what every file
 * must hold, and how long a client went without a successful operation.
 *
 * <p>Each worker thread reads, appends to and deletes only the files it wrote, so no operation of one
 * worker can fail because of another's. A write or append that fails leaves its file as it is (open,
 * under the client's lease): what it must hold is then only a prefix of its content at least as long as
 * what was acknowledged before; the audit recovers the lease and checks that.
 */
final class MixedWorkload implements AutoCloseable {
  /** A file of nameservice {@code ns}. */
  record FileKey(int ns, String path) {
  }

  /** What a file must hold: exactly {@code length} bytes of its content, or a prefix of it at least that long. */
  record Expected(long length, boolean exact) {
  }

  /**
   * The longest time one worker's operations went without success, and what was going on then; for a
   * write, how that time split between create, data and close.
   */
  record Outage(long millis, String operation, String fault, String detail) {
  }

  private static final long MIN_FILE = 16 * 1024;
  /** Up to three blocks. */
  private static final long MAX_FILE = 5 * AllPluginsCluster.BLOCK_SIZE / 2;
  /** Files a worker keeps; beyond them it deletes, so the data set stays the same size however long it runs. */
  private static final int FILES_PER_WORKER = 25;
  /** Pause between two operations of a worker. */
  private static final long PACE_MILLIS = 50;

  private final BulwarkMiniCluster cluster;
  private final int nameservices;
  private final Map<FileKey, Expected> files = new ConcurrentHashMap<>();
  private final List<Worker> workers = new ArrayList<>();
  private final AtomicLong filesWritten = new AtomicLong();
  private final AtomicLong filesReadBack = new AtomicLong();
  private final AtomicLong bytesReadBack = new AtomicLong();
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final List<String> firstFailures = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, Outage> longestOutageByFault = new ConcurrentHashMap<>();
  private final SlowOperationWatch slow = new SlowOperationWatch();
  private volatile String fault = "none";
  private volatile boolean running;
  private int generation;

  MixedWorkload(BulwarkMiniCluster cluster, int nameservices) {
    this.cluster = cluster;
    this.nameservices = nameservices;
  }

  /** Starts the workers: two writing from DataNode hosts, one from off-cluster, one mostly reading. */
  synchronized void start() {
    if (running) {
      throw new IllegalStateException("the workload is running");
    }
    running = true;
    generation++;
    longestOutageByFault.clear();
    workers.clear();
    workers.add(new Worker("dn-a" + generation, true, 50, 25, 15, 10));
    workers.add(new Worker("dn-b" + generation, true, 50, 25, 15, 10));
    workers.add(new Worker("edge" + generation, false, 50, 25, 15, 10));
    workers.add(new Worker("reader" + generation, false, 15, 75, 5, 5));
    workers.forEach(Thread::start);
  }

  /** Stops the workers after their current operation. */
  synchronized void stop() throws InterruptedException {
    running = false;
    for (Worker w : workers) {
      w.join(120_000);
      if (w.isAlive()) {
        throw new IllegalStateException(w.getName() + " did not finish its operation in 2 minutes");
      }
    }
  }

  /** Names the fault under way, so that outages are told apart by what caused them. */
  void fault(String name) {
    fault = name;
  }

  Map<FileKey, Expected> files() {
    return Collections.unmodifiableMap(files);
  }

  long filesWritten() {
    return filesWritten.get();
  }

  /** Whole files the workload's own reads compared byte for byte while it ran. */
  long filesReadBack() {
    return filesReadBack.get();
  }

  long bytesReadBack() {
    return bytesReadBack.get();
  }

  long operations() {
    return operations.get();
  }

  long failures() {
    return failures.get();
  }

  List<String> firstFailures() {
    synchronized (firstFailures) {
      return new ArrayList<>(firstFailures);
    }
  }

  /** The longest outage under each fault named with {@link #fault}, since the workload last started. */
  Map<String, Outage> longestOutageByFault() {
    return Map.copyOf(longestOutageByFault);
  }

  Outage longestOutage() {
    return longestOutageByFault.values().stream().max((a, b) -> Long.compare(a.millis(), b.millis()))
        .orElse(new Outage(0, "none", "none", ""));
  }

  /** Where operations slower than a second were waiting (the first ten). */
  List<String> slowOperations() {
    return slow.samples();
  }

  @Override
  public void close() throws InterruptedException {
    stop();
    slow.close();
  }

  private final class Worker extends Thread {
    private final boolean onDataNodeHosts;
    private final int write;
    private final int read;
    private final int append;
    private final Random random;
    private final List<FileKey> mine = new ArrayList<>();
    private long sequence;
    private long failingSince;
    private String failingFault;
    /** How the last write's time split. */
    private String detail = "";

    Worker(String name, boolean onDataNodeHosts, int write, int read, int append, int delete) {
      super("workload-" + name);
      setDaemon(true);
      this.onDataNodeHosts = onDataNodeHosts;
      this.write = write;
      this.read = read;
      this.append = append;
      this.random = new Random(name.hashCode());
      if (write + read + append + delete != 100) {
        throw new IllegalArgumentException("operation shares must add up to 100");
      }
    }

    @Override
    public void run() {
      while (running) {
        int dice = random.nextInt(100);
        String op = mine.size() < 4 || dice < write ? "write" : dice < write + read ? "read"
            : dice < write + read + append ? "append" : "delete";
        if (mine.size() >= FILES_PER_WORKER && "write".equals(op)) {
          op = "delete";
        }
        long started = System.nanoTime();
        String faultAtStart = fault;
        boolean ok;
        slow.operationStarted(this);
        try {
          switch (op) {
            case "write" -> write();
            case "read" -> read();
            case "append" -> append();
            default -> delete();
          }
          ok = true;
        } catch (IOException | RuntimeException e) {
          ok = false;
          failures.incrementAndGet();
          if (firstFailures.size() < 20) {
            firstFailures.add(faultAtStart + " " + getName() + " " + op + ": " + oneLine(e));
          }
        } catch (AssertionError e) {
          // Content differs from what was written: that is data loss, not an outage.
          firstFailures.add(0, "CONTENT " + getName() + " " + op + ": " + e.getMessage());
          throw e;
        } finally {
          slow.operationEnded(this);
        }
        operations.incrementAndGet();
        long now = System.nanoTime();
        if (ok) {
          long since = failingSince != 0 ? failingSince : started;
          String cause = failingSince != 0 ? failingFault : faultAtStart;
          Outage o = new Outage((now - since) / 1_000_000, op, cause, failingSince != 0 ? "after failures" : detail);
          longestOutageByFault.merge(cause, o, (a, b) -> a.millis() >= b.millis() ? a : b);
          failingSince = 0;
        } else if (failingSince == 0) {
          failingSince = started;
          failingFault = faultAtStart;
        }
        pace();
      }
    }

    /** A short pause between operations: a steady load, not a saturating one. */
    private void pace() {
      try {
        Thread.sleep(PACE_MILLIS);
      } catch (InterruptedException e) {
        running = false;
      }
    }

    private DistributedFileSystem client(int ns) throws IOException {
      if (!onDataNodeHosts) {
        return cluster.fs(ns);
      }
      List<DataNodeHandle> dns = cluster.dataNodes();
      return cluster.fsOn(ns, dns.get(random.nextInt(dns.size())));
    }

    private void write() throws IOException {
      FileKey key = new FileKey(random.nextInt(nameservices), "/workload/" + getName() + "/f" + (sequence++));
      long length = MIN_FILE + (long) (random.nextDouble() * (MAX_FILE - MIN_FILE));
      // Known before the first byte goes out: a failed create leaves a prefix of the content behind.
      files.put(key, new Expected(0, false));
      mine.add(key);
      Path p = new Path(key.path());
      long t0 = System.nanoTime();
      long t1;
      long t2;
      detail = "";
      try (FSDataOutputStream out = client(key.ns()).createFile(p).recursive()
          .blockSize(AllPluginsCluster.BLOCK_SIZE).build()) {
        t1 = System.nanoTime();
        FileContent.write(key.path(), length, out);
        t2 = System.nanoTime();
      }
      detail = String.format("create %d ms, data %d ms, close %d ms", (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000,
          (System.nanoTime() - t2) / 1_000_000);
      files.put(key, new Expected(length, true));
      filesWritten.incrementAndGet();
    }

    /** One of this worker's files, if its content is known to the byte (no failed write or append left it uncertain). */
    private FileKey pickExact() {
      FileKey key = mine.get(random.nextInt(mine.size()));
      Expected e = files.get(key);
      return e != null && e.exact() ? key : null;
    }

    private void read() throws IOException {
      detail = "";
      FileKey key = pickExact();
      if (key != null) {
        try (InputStream in = client(key.ns()).open(new Path(key.path()))) {
          bytesReadBack.addAndGet(FileContent.verify(key.path(), files.get(key).length(), in));
          filesReadBack.incrementAndGet();
        }
      }
    }

    private void append() throws IOException {
      detail = "";
      FileKey key = pickExact();
      if (key == null) {
        return;
      }
      long length = files.get(key).length();
      long more = 4096 + random.nextInt(128 * 1024);
      files.put(key, new Expected(length, false));
      try (OutputStream out = client(key.ns()).append(new Path(key.path()))) {
        FileContent.write(key.path(), length, more, out);
      }
      files.put(key, new Expected(length + more, true));
    }

    private void delete() throws IOException {
      detail = "";
      FileKey key = mine.get(random.nextInt(mine.size()));
      // Whether a delete that failed reached the NameNode is unknown: the file is no longer checked.
      mine.remove(key);
      files.remove(key);
      client(key.ns()).delete(new Path(key.path()), false);
    }
  }

  static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
