package org.bulwark.hdfs.hotstandby.warmup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Loads a list of classes ahead of need. Protocol-buffer classes are initialised too (their static
 * initialisers build descriptors and default instances, the costly part, and have no other effect), and so
 * are the few {@link #PURE_COSTLY_INITIALISERS}; any other class is only loaded, so no NameNode code runs
 * early. A name the class path lacks (another Hadoop line) is counted and skipped.
 */
public final class ClassPreloader {
  /**
   * Classes whose static initialiser is costly and touches nothing but the class's own fields.
   * {@code EditLogFileOutputStream} fills its 1 MB preallocation buffer one byte at a time, in the
   * interpreter: sampled every 2 ms, it was 12-19 % of a first {@code transitionToActive} in the failover
   * benchmark's process mode (the new active opens a local edits file, the first of its life).
   */
  static final Set<String> PURE_COSTLY_INITIALISERS = Collections.singleton(
      "org.apache.hadoop.hdfs.server.namenode.EditLogFileOutputStream");

  /** What one pass loaded. */
  public static final class Result {
    final int listed;
    final int loaded;
    final int missing;
    final long millis;

    Result(int listed, int loaded, int missing, long millis) {
      this.listed = listed;
      this.loaded = loaded;
      this.missing = missing;
      this.millis = millis;
    }

    /** Listed names the class path lacks. */
    public int missing() {
      return missing;
    }

    @Override
    public String toString() {
      return loaded + " of " + listed + " classes loaded (" + missing + " not on this class path) in " + millis + " ms";
    }
  }

  private ClassPreloader() {
  }

  /** Class names, one per line; blank lines and lines starting with '#' are skipped. */
  public static List<String> readNames(InputStream in) throws IOException {
    List<String> names = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String name = line.trim();
        if (!name.isEmpty() && !name.startsWith("#")) {
          names.add(name);
        }
      }
    }
    return names;
  }

  /** Loads {@code names} through {@code loader}; stops early, with what it did so far, when interrupted. */
  static Result load(List<String> names, ClassLoader loader) {
    return load(names, loader, ClassPreloader::initialises);
  }

  /** As {@link #load(List, ClassLoader)}, initialising the classes {@code initialise} accepts. */
  public static Result load(List<String> names, ClassLoader loader, Predicate<String> initialise) {
    long start = System.nanoTime();
    int loaded = 0;
    int missing = 0;
    for (String name : names) {
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
      try {
        Class.forName(name, initialise.test(name), loader);
        loaded++;
      } catch (ClassNotFoundException | LinkageError e) {
        missing++;
      }
    }
    return new Result(names.size(), loaded, missing, (System.nanoTime() - start) / 1_000_000);
  }

  /** Whether loading {@code name} ahead of need also runs its static initialiser. */
  static boolean initialises(String name) {
    return isProtocolBuffer(name) || PURE_COSTLY_INITIALISERS.contains(name);
  }

  /** Hadoop's generated protocol-buffer classes: {@code ...Protos} and the classes nested in them. */
  static boolean isProtocolBuffer(String name) {
    int nested = name.indexOf('$');
    String outer = nested < 0 ? name : name.substring(0, nested);
    return outer.endsWith("Protos");
  }
}
