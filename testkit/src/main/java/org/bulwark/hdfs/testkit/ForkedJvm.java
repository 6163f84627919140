package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Starts a daemon's main class in a JVM of its own, with the test's classpath and logging, as the shell
 * profile would start it: the only way to kill it with kill -9 ({@link Process#destroyForcibly}) and see
 * what a crash leaves behind.
 */
public final class ForkedJvm {
  private ForkedJvm() {
  }

  /** Starts {@code mainClass} with {@code args}; its output goes to {@code log}. */
  public static Process start(Class<?> mainClass, File log, String... args) throws IOException {
    return start(mainClass, log, List.of(), args);
  }

  /** As {@link #start(Class, File, String...)}, with JVM options such as {@code -Dkey=value} (test seams). */
  public static Process start(Class<?> mainClass, File log, List<String> jvmOptions, String... args) throws IOException {
    return start(List.of(), mainClass, log, jvmOptions, args);
  }

  /**
   * As {@link #start(Class, File, List, String...)}, the JVM run by {@code launcher} (e.g. {@code taskset -c 1}, to
   * keep it off the cores of the daemons it talks to, as on a host of its own).
   */
  public static Process start(List<String> launcher, Class<?> mainClass, File log, List<String> jvmOptions,
      String... args) throws IOException {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(launcher);
    cmd.addAll(Arrays.asList(new File(System.getProperty("java.home"), "bin/java").getPath(),
        "-Xmx512m", "-Djava.net.preferIPv4Stack=true"));
    String log4j = System.getProperty("log4j.configuration");
    if (log4j != null) {
      cmd.add("-Dlog4j.configuration=" + log4j);
    }
    // The build's JVM options for daemons (the test tiers: C1 only, as their own JVMs; benchmarks: none).
    for (String option : System.getProperty("bulwark.test.forked-jvm-options", "").trim().split("\\s+")) {
      if (!option.isEmpty()) {
        cmd.add(option);
      }
    }
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass.getName());
    cmd.addAll(Arrays.asList(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
  }
}
