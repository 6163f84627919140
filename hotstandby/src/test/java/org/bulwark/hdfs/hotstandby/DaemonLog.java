package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a controller in its own JVM logged (pattern {@code HH:mm:ss,SSS LEVEL logger (thread) - message}):
 * the benchmark learns a forked controller's state and its {@code transitionToActive} time from its log,
 * as an operator would, since it cannot ask the object.
 */
final class DaemonLog {
  private static final Pattern TIME = Pattern.compile("^(\\d\\d):(\\d\\d):(\\d\\d),(\\d\\d\\d) ");

  private DaemonLog() {
  }

  static List<String> lines(File log) {
    try {
      return log.exists() ? Files.readAllLines(log.toPath(), StandardCharsets.UTF_8) : Collections.emptyList();
    } catch (IOException e) {
      return Collections.emptyList();
    }
  }

  /** Lines containing any of {@code needles}, in order. */
  static List<String> matching(File log, String... needles) {
    List<String> out = new ArrayList<>();
    for (String line : lines(log)) {
      for (String n : needles) {
        if (line.contains(n)) {
          out.add(line);
          break;
        }
      }
    }
    return out;
  }

  /** Milliseconds since midnight of the line's timestamp, or -1. */
  static long millisOfDay(String line) {
    Matcher m = TIME.matcher(line);
    if (!m.find()) {
      return -1;
    }
    return ((Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2))) * 60 + Long.parseLong(m.group(3))) * 1000
        + Long.parseLong(m.group(4));
  }

  /** The last {@code group(1)} of {@code pattern} in the log, or null. */
  static String lastGroup(File log, Pattern pattern) {
    String found = null;
    for (String line : lines(log)) {
      Matcher m = pattern.matcher(line);
      if (m.find()) {
        found = m.group(1);
      }
    }
    return found;
  }
}
