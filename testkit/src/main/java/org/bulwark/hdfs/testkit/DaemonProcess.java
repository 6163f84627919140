package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A daemon (NameNode, controller, ZKFC) in a JVM of its own, with the three ways a real one stops
 * serving: killed ({@code kill -9}), frozen ({@code kill -STOP}: the process keeps its sockets open and
 * answers nothing, as a hung daemon or, with its neighbours frozen too, a host that vanished), and
 * closed. A frozen daemon is never thawed: it is killed, as a fencing method or an operator would.
 */
public final class DaemonProcess implements AutoCloseable {
  private static final int REPORTED_LINES = 4;
  private final String name;
  private final Process process;
  private final File log;

  private DaemonProcess(String name, Process process, File log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** Starts {@code mainClass} with {@code args} in its own JVM; its output goes to {@code log}. */
  public static DaemonProcess start(String name, Class<?> mainClass, File log, List<String> jvmOptions, String... args)
      throws IOException {
    return start(name, List.of(), mainClass, log, jvmOptions, args);
  }

  /**
   * As {@link #start(String, Class, File, List, String...)}, the JVM run by {@code launcher} (e.g.
   * {@code ip netns exec host0}, to run it on a host of its own: {@code ip netns exec} replaces itself with the
   * JVM, so the pid is the JVM's).
   */
  public static DaemonProcess start(String name, List<String> launcher, Class<?> mainClass, File log,
      List<String> jvmOptions, String... args) throws IOException {
    return new DaemonProcess(name, ForkedJvm.start(launcher, mainClass, log, jvmOptions, args), log);
  }

  public String name() {
    return name;
  }

  public File log() {
    return log;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits until {@code condition} holds, as {@link Await#until}; fails at once with {@link #endedReport} if this
   * process ends first (a daemon that died at its start would otherwise be waited on for the whole timeout).
   */
  public void awaitWhileAlive(String what, Duration timeout, Await.Condition condition) throws Exception {
    Await.until(what + " or " + this + " ended", timeout, () -> !isAlive() || condition.holds());
    if (!isAlive()) {
      throw new IllegalStateException(endedReport());
    }
  }

  /**
   * For a process that ended on its own: its exit code, its log's path and what the log says went wrong (its first
   * ERROR, FATAL or exception lines, else its last lines). Why: CI shows a failed test's message, not the daemon
   * logs under {@code target/}, which a fresh clone's run does not keep.
   */
  public String endedReport() {
    String exit = process.isAlive() ? "has not ended" : "ended with exit code " + process.exitValue();
    List<String> lines;
    try {
      lines = Files.readAllLines(log.toPath(), StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      return this + " " + exit + "; its log " + log + " cannot be read: " + e;
    }
    List<String> told = new ArrayList<>();
    for (String line : lines) {
      if (told.size() < REPORTED_LINES && (line.contains("ERROR") || line.contains("FATAL") || line.contains("Exception:"))) {
        told.add(line);
      }
    }
    if (told.isEmpty()) {
      told = lines.subList(Math.max(0, lines.size() - REPORTED_LINES), lines.size());
    }
    return this + " " + exit + "; " + log + " says: " + String.join(" | ", told);
  }

  /** {@code kill -9}: the process is gone when this returns. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException(name + " (pid " + pid() + ") survived kill -9");
    }
  }

  /**
   * {@code kill -TERM}, as {@code hdfs --daemon stop} sends it: the daemon's shutdown hooks run. Waits for the process
   * to end; one that outlives 30 s is killed, as the stop command's {@code HADOOP_STOP_TIMEOUT} would, and reported.
   */
  public void stop() throws IOException, InterruptedException {
    signal("TERM");
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
      throw new IllegalStateException(name + " (pid " + pid() + ") did not end within 30 s of kill -TERM");
    }
  }

  /** {@code kill -STOP}: the process stops answering but keeps every connection open. */
  public void freeze() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** {@code kill -CONT}: a frozen process runs on, as one back from a long pause does. */
  public void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  /** {@code kill -STOP} of several processes in one signal call, so none runs on after the others stopped. */
  public static void freezeTogether(DaemonProcess... daemons) throws IOException, InterruptedException {
    signal("STOP", daemons);
  }

  private void signal(String signal) throws IOException, InterruptedException {
    signal(signal, this);
  }

  private static void signal(String signal, DaemonProcess... daemons) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
    for (DaemonProcess d : daemons) {
      cmd.add(Long.toString(d.pid()));
    }
    Process kill = new ProcessBuilder(cmd).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException(String.join(" ", cmd) + " exited " + kill.exitValue());
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + pid() + ")";
  }
}
