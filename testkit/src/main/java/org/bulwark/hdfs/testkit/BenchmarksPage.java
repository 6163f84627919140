package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Writes {@code docs/benchmarks.md}, the latest run of every benchmark: the runs in {@code target/bench} that carry
 * tables ({@link BenchReport#table}) are copied into {@code docs/bench/} (JSON and chart), replacing the older run of
 * the same benchmark, and the page is written again from every run kept there. History stays in git.
 * Usage: {@code BenchmarksPage BENCH_DIR DOCS_DIR} ({@code ./bulwark bench-page}).
 */
public final class BenchmarksPage {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BenchmarksPage() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: BenchmarksPage BENCH_DIR DOCS_DIR");
      System.exit(2);
    }
    Path page = update(Path.of(args[0]), Path.of(args[1]));
    System.out.println("wrote " + page);
  }

  /** Takes the new runs of {@code benchDir} into {@code docsDir/bench} and writes the page; returns its path. */
  public static Path update(Path benchDir, Path docsDir) throws IOException {
    Path kept = docsDir.resolve("bench");
    Files.createDirectories(kept);
    for (Path run : jsonFiles(benchDir)) {
      JsonNode doc = JSON.readTree(run.toFile());
      if (!doc.has("tables")) {
        continue; // a benchmark that does not describe itself for the page yet
      }
      copy(run, kept.resolve(run.getFileName()));
      if (doc.has("chart") && Files.isRegularFile(benchDir.resolve(doc.get("chart").asText()))) {
        copy(benchDir.resolve(doc.get("chart").asText()), kept.resolve(doc.get("chart").asText()));
      }
    }
    List<JsonNode> runs = new ArrayList<>();
    for (Path json : jsonFiles(kept)) {
      runs.add(JSON.readTree(json.toFile()));
    }
    runs.sort(Comparator.comparing(r -> r.path("benchmark").asText()));
    Path page = docsDir.resolve("benchmarks.md");
    Path tmp = docsDir.resolve("benchmarks.md.tmp");
    Files.writeString(tmp, render(runs), StandardCharsets.UTF_8);
    Files.move(tmp, page, StandardCopyOption.REPLACE_EXISTING);
    return page;
  }

  /** The page for {@code runs}, one section per benchmark in the order given. */
  static String render(List<JsonNode> runs) {
    StringBuilder out = new StringBuilder("# Benchmarks\n\n");
    out.append("The latest run of each benchmark, ours beside the stock peers in the same run (history is in git).\n")
        .append("Each runs from the repository root with `mvn -B -T 1 -Pbench -Dbench=NAME verify` and writes\n")
        .append("`target/bench/NAME.json` and a chart; `./bulwark bench-page` then takes the run into this page.\n");
    for (JsonNode run : runs) {
      String name = run.get("benchmark").asText();
      out.append("\n## ").append(name).append("\n\n");
      out.append("Run ").append(run.path("started_at").asText("?").replaceFirst("T.*", "")).append(" on ")
          .append(run.path("machine").asText(run.path("cores").asText("?") + " cores")).append(", Java ")
          .append(run.path("java_version").asText("?")).append(", Hadoop ").append(run.path("hadoop_version").asText("?"))
          .append(", commit `").append(run.path("commit").asText("unknown")).append("`, ")
          .append(run.path("runs").asInt(1)).append(run.path("runs").asInt(1) == 1 ? " run" : " runs")
          .append(" per figure: `mvn -B -T 1 -Pbench -Dbench=").append(name)
          .append(run.path("options").asText("").isEmpty() ? "" : " " + run.path("options").asText()).append(" verify`.\n");
      if (run.has("chart")) {
        out.append("\n![").append(run.path("chart_title").asText(name)).append("](bench/")
            .append(run.get("chart").asText()).append(")\n");
      }
      for (JsonNode table : run.path("tables")) {
        out.append("\n**").append(table.path("title").asText()).append("**\n\n");
        List<String> header = new ArrayList<>();
        table.path("header").forEach(h -> header.add(cell(h.asText())));
        out.append("| ").append(String.join(" | ", header)).append(" |\n");
        out.append("|").append(" --- |".repeat(header.size())).append("\n");
        for (JsonNode row : table.path("rows")) {
          List<String> cells = new ArrayList<>();
          row.forEach(c -> cells.add(cell(c.asText())));
          out.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
      }
    }
    return out.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }

  private static List<Path> jsonFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return new ArrayList<>();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
    Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
    Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING);
  }
}
