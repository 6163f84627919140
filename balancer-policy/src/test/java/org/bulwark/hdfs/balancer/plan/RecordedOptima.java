package org.bulwark.hdfs.balancer.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Optima of {@link ExactBalanceReference}'s integer programs, solved once with a long time limit and kept in
 * {@code exact-optima.tsv} beside this class, keyed by a digest of the whole program (every node's capacity, use and
 * limits, every candidate move). The seeded model layouts pose the same programs on every run: solving them again
 * with a short limit cost minutes of CPU per build and, on a loaded host, left more optima unproven than the recorded
 * ones. A program whose digest is not recorded (a changed generator, a layout read from a cluster) is solved live.
 *
 * <p>{@code -Dbulwark.exact.record=true} solves every unrecorded program with
 * {@code bulwark.exact.record.seconds} per stage (default 20) and appends it to the file in the source tree (the
 * test's working directory is the module's).
 */
final class RecordedOptima {
  static final boolean RECORDING = Boolean.getBoolean("bulwark.exact.record");
  static final double RECORD_SECONDS = Double.parseDouble(System.getProperty("bulwark.exact.record.seconds", "20"));
  private static final String FILE = "exact-optima.tsv";
  private static final Path SOURCE = Path.of("src/test/resources/org/bulwark/hdfs/balancer/plan", FILE);

  /** One recorded optimum, in bytes and moves. */
  record Entry(long outsideBytes, long movedBytes, int adding, boolean proven) {}

  private static final Map<String, Entry> ENTRIES = load();

  private RecordedOptima() {
  }

  static synchronized Entry find(String digest) {
    return ENTRIES.get(digest);
  }

  /** Appends an optimum to the source tree's file (recording runs only). */
  static synchronized void record(String digest, Entry e) {
    if (ENTRIES.putIfAbsent(digest, e) != null) {
      return;
    }
    String line = String.join("\t", digest, Long.toString(e.outsideBytes()), Long.toString(e.movedBytes()),
        Integer.toString(e.adding()), Boolean.toString(e.proven())) + "\n";
    try {
      Files.writeString(SOURCE, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot record an exact optimum in " + SOURCE.toAbsolutePath(), ex);
    }
  }

  private static Map<String, Entry> load() {
    Map<String, Entry> entries = new HashMap<>();
    InputStream in = RecordedOptima.class.getResourceAsStream(FILE);
    if (in == null) {
      return entries;
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        entries.put(f[0], new Entry(Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3]),
            Boolean.parseBoolean(f[4])));
      }
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot read " + FILE, ex);
    }
    return entries;
  }
}
