package org.bulwark.hdfs.hotstandby.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicInteger;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalExitWitness} and {@link ProcessTable} on a {@code /proc} tree written by the test: the
 * witness speaks only when the process it found listening has ended and nothing listens on the port.
 */
class LocalExitWitnessTest {
  private static final int PORT = 8020;
  private static final String HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";

  @TempDir
  Path proc;

  @Test
  void listeningSocketsOfAPortAreReadFromBothTables() {
    assertEquals(Collections.singleton(4242L), ProcessTable.listeningInodes(Arrays.asList(HEADER,
        "   0: 00000000:1F54 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0 100 0 0 10 0",
        "   1: 0100007F:1F54 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 5151 1 0 20 4 30 10 -1",
        "   2: 00000000:1F55 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 6161 1 0 100 0 0 10 0"),
        PORT), "LISTEN (0A) on port 8020 only, not an established connection nor another port");
    assertEquals(Collections.singleton(7373L), ProcessTable.listeningInodes(Collections.singletonList(
        "   0: 00000000000000000000000000000000:1F54 00000000000000000000000000000000:0000 0A 00000000:00000000 "
            + "00:00000000 00000000     0        0 7373 1 0 100 0 0 10 0"), PORT), "IPv6");
  }

  @Test
  void aStatLineIsReadAfterTheCommandNameWhateverItHolds() {
    ProcessTable.Stat s = ProcessTable.parseStat("4711 (java) (x) y) S 1 4711 4711 0 -1 4194560 1 0 0 0 5 3 0 0 20 0 "
        + "60 0 987654 123 456");
    assertEquals('S', s.state);
    assertEquals(987654L, s.startTicks);
    assertEquals(4194560L, s.flags);
    assertTrue(!s.exiting());
    assertTrue(ProcessTable.parseStat("9 (z) R 1 9 9 0 -1 4194564 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0").exiting(), "PF_EXITING");
    assertTrue(ProcessTable.parseStat("9 (z) Z 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0").finished());
  }

  @Test
  void aKilledNameNodesExitIsWitnessedOnlyOnceItsProcessEndedAndThePortIsFree() throws Exception {
    process(100, 'S', 5000, 4242);
    listening(4242);
    try (LocalExitWitness w = witness()) {
      w.answered();
      Await.until("the NameNode's process found", Duration.ofSeconds(10), () -> w.known() != null);
      assertEquals(100, w.known().pid);
      assertNull(w.exitedProcess(0), "alive and listening");

      listening();
      assertNull(w.exitedProcess(20), "port closed but the process still runs (shutting down)");
      process(100, 'Z', 5000);
      assertEquals("pid 100", w.exitedProcess(0), "a zombie has ended");
      rm(100);
      assertEquals("pid 100", w.exitedProcess(0), "reaped");

      process(100, 'S', 9000);
      assertEquals("pid 100", w.exitedProcess(0), "its pid reused by a later process");
      listening(5555);
      process(200, 'S', 9100, 5555);
      assertNull(w.exitedProcess(0), "another process listens on the port (a restarted NameNode)");
      process(201, 'S', 9200, 5555);
      w.answered();
      assertNull(w.known(), "the exited process is forgotten once the restarted NameNode answers");
      w.lookUp();
      assertNull(w.known(), "two processes hold the new socket: none is known");
      assertNull(w.exitedProcess(0));
      rm(201);
      clock[0] += LocalExitWitness.LOOKUP_RETRY_MILLIS;
      w.answered();
      Await.until("the restarted NameNode's process found", Duration.ofSeconds(10),
          () -> w.known() != null && w.known().pid == 200);
    }
  }

  @Test
  void onlyAProcessOnItsWayOutIsWaitedFor() throws Exception {
    process(100, 'S', 5000, 4242);
    listening(4242);
    try (LocalExitWitness w = witness()) {
      w.lookUp();
      listening();
      long started = System.nanoTime();
      assertNull(w.exitedProcess(60_000), "alive, not exiting: the port closed, the process runs on");
      assertTrue(System.nanoTime() - started < 30_000_000_000L, "answered without waiting for an exit that no sign announces");

      processWithFlags(100, 'R', PF_EXITING, 5000);
      thread(100, 101, 'S', RUNNING);
      Thread zombie = new Thread(() -> {
        try {
          Thread.sleep(100);
          rm(100, "task", "101");
          process(100, 'Z', 5000);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      zombie.start();
      // Seen either with its last thread gone (every thread exiting) or as the zombie it then becomes.
      String exited = w.exitedProcess(600_000);
      assertTrue(exited != null && exited.startsWith("pid 100"), "exiting: waited for until it had ended: " + exited);
      zombie.join();
    }
  }

  @Test
  void aKillIsSeenByItsFirstExitingThreadAndEndsTheProcessOnceEveryThreadExits() throws Exception {
    process(100, 'S', 5000, 4242);
    thread(100, 100, 'S', RUNNING);
    thread(100, 101, 'S', RUNNING);
    listening(4242);
    AtomicInteger leaving = new AtomicInteger();
    try (LocalExitWitness w = witness()) {
      w.lookUp();
      w.pollLeaving(leaving::incrementAndGet);
      assertEquals(0, leaving.get(), "running");

      // kill -9: the main thread has exited, another is still being torn down, the port still listens
      processWithFlags(100, 'Z', PF_EXITING, 5000);
      thread(100, 100, 'Z', PF_EXITING);
      w.pollLeaving(leaving::incrementAndGet);
      assertEquals(1, leaving.get(), "the main thread's exit is the first sign");
      w.pollLeaving(leaving::incrementAndGet);
      assertEquals(1, leaving.get(), "reported once per process");
      assertNull(w.exitedProcess(0), "one thread still runs the program, and the port still listens");

      thread(100, 101, 'R', PF_EXITING);
      assertEquals("pid 100, every thread exiting", w.exitedProcess(0),
          "no thread will run the program again, though its port has not closed yet");
    }
  }

  @Test
  void aMainThreadThatLeftAloneWhileOthersRunIsNotAnExit() throws Exception {
    process(100, 'S', 5000, 4242);
    listening(4242);
    try (LocalExitWitness w = witness()) {
      w.lookUp();
      processWithFlags(100, 'Z', PF_EXITING, 5000);
      thread(100, 100, 'Z', PF_EXITING);
      thread(100, 101, 'S', RUNNING);
      listening();
      assertNull(w.exitedProcess(0), "a program whose main thread ended (pthread_exit) and whose others run on");
    }
  }

  @Test
  void aProcessLifeIsReadFromItsMainThreadAndThenItsOthers() throws Exception {
    ProcessTable table = new ProcessTable(proc);
    ProcessTable.Process p = new ProcessTable.Process(100, 5000);
    process(100, 'S', 5000);
    thread(100, 100, 'S', RUNNING);
    thread(100, 101, 'S', RUNNING);
    assertEquals(ProcessTable.Life.RUNNING, table.lifeOf(p));

    processWithFlags(100, 'R', PF_EXITING, 5000);
    thread(100, 100, 'R', PF_EXITING);
    assertEquals(ProcessTable.Life.EXITING, table.lifeOf(p), "killed: the main thread first");
    thread(100, 101, 'D', PF_EXITING);
    assertEquals(ProcessTable.Life.EVERY_THREAD_EXITING, table.lifeOf(p));
    processWithFlags(100, 'Z', PF_EXITING, 5000);
    assertEquals(ProcessTable.Life.FINISHED, table.lifeOf(p));
    rm(100, "task");
    assertEquals(ProcessTable.Life.FINISHED, table.lifeOf(p), "its threads reaped");
    thread(100, 101, 'S', RUNNING);
    assertEquals(ProcessTable.Life.MAIN_THREAD_ENDED, table.lifeOf(p), "a zombie main thread, another running");
    process(100, 'S', 9000);
    assertEquals(ProcessTable.Life.GONE, table.lifeOf(p), "its pid reused");
    rm(100);
    assertEquals(ProcessTable.Life.GONE, table.lifeOf(p));

    for (ProcessTable.Life life : ProcessTable.Life.values()) {
      assertEquals(life == ProcessTable.Life.FINISHED || life == ProcessTable.Life.GONE, life.exited(), life.name());
      assertEquals(life != ProcessTable.Life.RUNNING, life.leaving(), life.name());
    }
  }

  @Test
  void noEvidenceWhenTheListenerCannotBeToldApart() throws Exception {
    process(100, 'S', 5000, 4242);
    process(101, 'S', 5001, 4242);
    listening(4242);
    try (LocalExitWitness w = witness()) {
      w.lookUp();
      assertNull(w.known(), "two processes hold the socket (a forked child): neither is taken for the NameNode");
      rm(101);
      w.answered();
      Thread.sleep(200);
      assertNull(w.known(), "a lookup that found nothing is not repeated at every health check");
      clock[0] += LocalExitWitness.LOOKUP_RETRY_MILLIS;
      w.answered();
      Await.until("looked up again after the retry interval", Duration.ofSeconds(10), () -> w.known() != null);
      assertEquals(100, w.known().pid);
      rm(100);
      listening();
      assertEquals("pid 100", w.exitedProcess(0), "once found, its exit is witnessed");
    }
  }

  /** Added to the witness's clock: the test moves time on. */
  private final long[] clock = {0};

  private LocalExitWitness witness() {
    ProcessTable table = new ProcessTable(proc);
    return new LocalExitWitness(table, PORT, () -> !table.listeners(PORT).isEmpty(), "ns1.nn0",
        () -> System.currentTimeMillis() + clock[0]);
  }

  /** The kernel flags of a running JVM's main thread, as read on this machine. */
  private static final long RUNNING = 4194560;
  private static final long PF_EXITING = RUNNING | 0x4;

  private void process(long pid, char state, long start, long... sockets) throws IOException {
    processWithFlags(pid, state, RUNNING, start, sockets);
  }

  /** Writes the process's stat whole, as the kernel serves it: the witness may be reading it meanwhile. */
  private void processWithFlags(long pid, char state, long flags, long start, long... sockets) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
    Path written = Files.write(dir.resolve("stat.new"), (pid + " (java) " + state + " 1 " + pid + " " + pid
        + " 0 -1 " + flags + " 1 0 0 0 5 3 0 0 20 0 60 0 " + start + " 123 456\n").getBytes(StandardCharsets.US_ASCII));
    Files.move(written, dir.resolve("stat"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    Path fd = Files.createDirectories(dir.resolve("fd"));
    int n = 3;
    for (long inode : sockets) {
      Files.deleteIfExists(fd.resolve(Integer.toString(n)));
      Files.createSymbolicLink(fd.resolve(Integer.toString(n++)), Paths.get("socket:[" + inode + "]"));
    }
  }

  /** Thread {@code tid} of process {@code pid}, as {@code /proc/<pid>/task/<tid>/stat} shows it. */
  private void thread(long pid, long tid, char state, long flags) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)).resolve("task").resolve(Long.toString(tid)));
    Path written = Files.write(dir.resolve("stat.new"), (tid + " (java) " + state + " 1 " + pid + " " + pid
        + " 0 -1 " + flags + " 1 0 0 0 5 3 0 0 20 0 60 0 5000 123 456\n").getBytes(StandardCharsets.US_ASCII));
    Files.move(written, dir.resolve("stat"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private void listening(long... inodes) throws IOException {
    StringBuilder table = new StringBuilder(HEADER).append('\n');
    int sl = 0;
    for (long inode : inodes) {
      table.append(String.format("   %d: 00000000:1F54 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0"
          + "        0 %d 1 0 100 0 0 10 0%n", sl++, inode));
    }
    Files.createDirectories(proc.resolve("net"));
    Files.write(proc.resolve("net").resolve("tcp"), table.toString().getBytes(StandardCharsets.US_ASCII));
  }

  private void rm(long pid, String... under) throws IOException {
    Path dir = proc.resolve(Long.toString(pid));
    for (String name : under) {
      dir = dir.resolve(name);
    }
    try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
