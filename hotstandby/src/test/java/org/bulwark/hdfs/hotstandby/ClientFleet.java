package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.ForkedJvm;

/**
 * Many {@link ClientJvm}s on this host, as the task JVMs of a busy worker node: started together from one
 * client configuration, stopped together, and their result lines read back.
 */
final class ClientFleet implements AutoCloseable {
  private static final Pattern RESULT = Pattern.compile(
      "result calls=(\\d+) failures=(\\d+) longestGapMs=(\\d+) lastServedMsAgo=(-?\\d+)");

  /** What one client JVM reported. */
  static final class Result {
    final long calls;
    final long failures;
    final long longestGapMillis;
    final long lastServedMillisAgo;

    Result(Matcher m) {
      calls = Long.parseLong(m.group(1));
      failures = Long.parseLong(m.group(2));
      longestGapMillis = Long.parseLong(m.group(3));
      lastServedMillisAgo = Long.parseLong(m.group(4));
    }

    @Override
    public String toString() {
      return "calls=" + calls + " failures=" + failures + " longestGapMs=" + longestGapMillis
          + " lastServedMsAgo=" + lastServedMillisAgo;
    }
  }

  private final File stop;
  private final List<Process> processes = new ArrayList<>();
  private final List<File> logs = new ArrayList<>();

  private ClientFleet(File stop) {
    this.stop = stop;
  }

  /**
   * Whether each client JVM samples its stalled calls ({@link StallSampler}): off unless asked for, since its
   * stack samples take CPU (measured: about 40% of the clients' CPU during a failover) from the very
   * NameNode whose transition they wait for.
   */
  static final String STALL_SAMPLER = "bench.failover.stallSampler";

  /**
   * Extra options for every client JVM, split at spaces, {@code {i}} replaced by the client's index: to profile
   * them, e.g. {@code -XX:StartFlightRecording:filename=target/client-{i}.jfr,settings=profile}.
   */
  static final String JVM_OPTIONS = "bench.failover.clientJvmOptions";

  /**
   * The CPUs the client JVMs may run on ({@code taskset -c} syntax, e.g. {@code 1}); unset, they share every CPU
   * with the daemons. Run the benchmark itself under {@code taskset -c 0} and the clients on {@code 1}, and the
   * clients cost the NameNodes no CPU, as when they run on worker hosts of their own.
   */
  static final String CPUS = "bench.failover.clientCpus";

  /** How many client JVMs start at once: tasks start on a worker over time, not 100 in the same second. */
  private static final int START_BATCH = 10;

  /**
   * Starts {@code count} client JVMs reading through {@code clientConf}, {@link #START_BATCH} at a time (each
   * batch once the one before was served); returns once every one was served.
   */
  static ClientFleet start(File dir, Configuration clientConf, int count, Duration wait)
      throws IOException, TimeoutException, InterruptedException {
    return start(dir, clientConf, count, wait, List.of());
  }

  /**
   * As {@link #start(File, Configuration, int, Duration)}, each client JVM also given {@code jvmOptions}, with
   * {@code {i}} replaced by its index (a YARN container's own {@code java.io.tmpdir}, say).
   */
  static ClientFleet start(File dir, Configuration clientConf, int count, Duration wait, List<String> jvmOptions)
      throws IOException, TimeoutException, InterruptedException {
    File site = ProcessHaCluster.writeSite(new File(dir, "client-site.xml"), clientConf);
    ClientFleet fleet = new ClientFleet(new File(dir, "clients.stop"));
    Files.deleteIfExists(fleet.stop.toPath()); // left by an earlier run in the same directory
    try {
      for (int i = 0; i < count; i++) {
        File log = new File(dir, "client-" + i + ".log");
        fleet.logs.add(log);
        List<String> options = new ArrayList<>(List.of("-Xmx96m", "-Xss256k", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-D" + ClientJvm.STALL_SAMPLER + "=" + Boolean.getBoolean(STALL_SAMPLER)));
        List<String> extra = new ArrayList<>(jvmOptions);
        extra.addAll(List.of(System.getProperty(JVM_OPTIONS, "").trim().split("\\s+")));
        for (String o : extra) {
          if (!o.isEmpty()) {
            options.add(o.replace("{i}", Integer.toString(i)));
          }
        }
        fleet.processes.add(ForkedJvm.start(launcher(), ClientJvm.class, log, options, site.getPath(),
            fleet.stop.getPath()));
        if (fleet.processes.size() % START_BATCH == 0 || i == count - 1) {
          Await.until(fleet.processes.size() + " client JVMs served", wait, fleet::allReady);
        }
      }
      return fleet;
    } catch (IOException | TimeoutException | InterruptedException | RuntimeException e) {
      fleet.close();
      throw e;
    }
  }

  /** The CPUs {@link #CPUS} gives the client JVMs, or "" when they may run on every CPU. */
  static String cpus() {
    return System.getProperty(CPUS, "").trim();
  }

  /** {@code taskset -c <cpus>} when {@link #CPUS} is set, else nothing. */
  private static List<String> launcher() {
    return cpus().isEmpty() ? List.of() : List.of("taskset", "-c", cpus());
  }

  private boolean allReady() throws IOException {
    for (File log : logs) {
      if (!log.exists() || !new String(Files.readAllBytes(log.toPath()), StandardCharsets.UTF_8).contains("ready")) {
        return false;
      }
    }
    return true;
  }

  /** The client JVMs' process ids. */
  List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    for (Process p : processes) {
      pids.add(p.pid());
    }
    return pids;
  }

  /** Stops every client and returns what each reported (in start order). */
  List<Result> stop() throws IOException, InterruptedException {
    Files.write(stop.toPath(), new byte[0]);
    List<Result> results = new ArrayList<>();
    for (int i = 0; i < processes.size(); i++) {
      if (!processes.get(i).waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("client " + i + " did not stop; see " + logs.get(i));
      }
      Matcher m = RESULT.matcher(new String(Files.readAllBytes(logs.get(i).toPath()), StandardCharsets.UTF_8));
      if (!m.find()) {
        throw new IllegalStateException("client " + i + " reported no result; see " + logs.get(i));
      }
      results.add(new Result(m));
    }
    return results;
  }

  @Override
  public void close() {
    for (Process p : processes) {
      p.destroyForcibly();
    }
  }
}
