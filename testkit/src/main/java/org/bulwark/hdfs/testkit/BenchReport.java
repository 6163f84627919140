package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.util.VersionInfo;

/**
 * The JSON document a benchmark leaves in {@code target/bench/<name>.json} under the repository root
 * (product.md): the fields every benchmark has ({@code benchmark}, {@code hadoop_version},
 * {@code java_version}, {@code cores}, {@code started_at}, {@code runs}) plus its own; and what
 * {@code docs/benchmarks.md} shows of it ({@link BenchmarksPage}): the machine, the commit, readable tables and a
 * chart ({@code <name>.svg} beside the JSON).
 */
public final class BenchReport {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final String name;
  private final ObjectNode root = JSON.createObjectNode();
  private BenchChart chart;

  private BenchReport(String name, int runs) {
    this.name = name;
    root.put("benchmark", name);
    root.put("hadoop_version", VersionInfo.getVersion());
    root.put("java_version", System.getProperty("java.version"));
    root.put("cores", Runtime.getRuntime().availableProcessors());
    root.put("started_at", Instant.now().toString());
    root.put("runs", runs);
    root.put("machine", cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
        + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB heap");
    root.put("commit", commit());
    root.put("options", options());
  }

  /** The run's {@code -Dbench.*} options, sorted: with the benchmark's name, the command that repeats it. */
  static String options() {
    java.util.TreeMap<String, String> given = new java.util.TreeMap<>();
    for (String key : System.getProperties().stringPropertyNames()) {
      if (key.startsWith("bench.")) {
        given.put(key, System.getProperty(key));
      }
    }
    StringBuilder out = new StringBuilder();
    given.forEach((k, v) -> out.append(out.length() == 0 ? "" : " ").append("-D").append(k).append('=').append(v));
    return out.toString();
  }

  /** A report for benchmark {@code name} whose figures each stand on {@code runs} repetitions. */
  public static BenchReport start(String name, int runs) {
    return new BenchReport(name, runs);
  }

  /** The document, to add the benchmark's own fields to. */
  public ObjectNode root() {
    return root;
  }

  /**
   * A table of the run for the benchmarks page, also printed: {@code rows} of cells under {@code header}. A benchmark
   * may add several; they appear in the order added.
   */
  public void table(String title, List<String> header, List<List<String>> rows) {
    ArrayNode tables = root.has("tables") ? (ArrayNode) root.get("tables") : root.putArray("tables");
    ObjectNode table = tables.addObject();
    table.put("title", title);
    ArrayNode h = table.putArray("header");
    header.forEach(h::add);
    ArrayNode r = table.putArray("rows");
    for (List<String> row : rows) {
      ArrayNode cells = r.addArray();
      row.forEach(cells::add);
    }
    System.out.println(title);
    System.out.println(String.join(" | ", header));
    rows.forEach(row -> System.out.println(String.join(" | ", row)));
  }

  /** The chart of the run, written beside the JSON as {@code <name>.svg}. */
  public void chart(BenchChart chartOfRun) {
    this.chart = chartOfRun;
    root.put("chart", name + ".svg");
    root.put("chart_title", chartOfRun.title());
  }

  /** Writes the document (atomically), and the chart if there is one, and returns the JSON file. */
  public File write() throws IOException {
    File dir = new File(System.getProperty("bulwark.bench.dir", "target/bench"));
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    if (chart != null) {
      chart.write(dir.toPath().resolve(name + ".svg"));
    }
    File out = new File(dir, name + ".json");
    File tmp = new File(dir, name + ".json.tmp");
    JSON.writeValue(tmp, root);
    Files.move(tmp.toPath(), out.toPath(), StandardCopyOption.REPLACE_EXISTING);
    return out;
  }

  /** The CPU the figures were measured on, from /proc/cpuinfo where there is one. */
  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux: the architecture stands in
    }
    return System.getProperty("os.arch");
  }

  /** The commit the benchmark ran on ({@code git describe}: with "-dirty" when the tree had changes), or "unknown". */
  private static String commit() {
    try {
      Process git = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return git.waitFor(10, TimeUnit.SECONDS) && git.exitValue() == 0 && !out.isEmpty() ? out : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
