package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.time.Instant;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.util.VersionInfo;

/**
 * The JSON document a benchmark leaves in {@code target/bench/<name>.json} under the repository root
 * (product.md): the fields every benchmark has ({@code benchmark}, {@code hadoop_version},
 * {@code java_version}, {@code cores}, {@code started_at}, {@code runs}) plus its own.
 */
public final class BenchReport {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final String name;
  private final ObjectNode root = JSON.createObjectNode();

  private BenchReport(String name, int runs) {
    this.name = name;
    root.put("benchmark", name);
    root.put("hadoop_version", VersionInfo.getVersion());
    root.put("java_version", System.getProperty("java.version"));
    root.put("cores", Runtime.getRuntime().availableProcessors());
    root.put("started_at", Instant.now().toString());
    root.put("runs", runs);
  }

  /** A report for benchmark {@code name} whose figures each stand on {@code runs} repetitions. */
  public static BenchReport start(String name, int runs) {
    return new BenchReport(name, runs);
  }

  /** The document, to add the benchmark's own fields to. */
  public ObjectNode root() {
    return root;
  }

  /** Writes the document (atomically) and returns the file. */
  public File write() throws IOException {
    File dir = new File(System.getProperty("bulwark.bench.dir", "target/bench"));
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    File out = new File(dir, name + ".json");
    File tmp = new File(dir, name + ".json.tmp");
    JSON.writeValue(tmp, root);
    Files.move(tmp.toPath(), out.toPath(), StandardCopyOption.REPLACE_EXISTING);
    return out;
  }
}
