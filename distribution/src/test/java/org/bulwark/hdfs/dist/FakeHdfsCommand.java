package org.bulwark.hdfs.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Hadoop install laid out in a temporary directory (no Hadoop inside, only the directories a shell
 * profile meets) and {@code src/test/shell/fake-hdfs.sh} run against it, which does what bin/hdfs
 * does up to the point of starting Java and prints the outcome.
 */
final class FakeHdfsCommand {
  static final Path SHELL_DIR = Path.of(System.getProperty("bulwark.shell.dir", "src/main/shell"));
  static final Path SHELL_TEST_DIR = Path.of(System.getProperty("bulwark.shell.test.dir", "src/test/shell"));
  static final Path PROFILE = SHELL_DIR.resolve("libexec/shellprofile.d/bulwark.sh");

  final Path hadoopHome;
  final Path libexec;
  final Path confDir;
  final Path hdfsLib;
  final Map<String, String> env = new HashMap<>();

  FakeHdfsCommand(Path root) throws IOException {
    hadoopHome = root.resolve("hadoop");
    libexec = Files.createDirectories(hadoopHome.resolve("libexec"));
    confDir = Files.createDirectories(hadoopHome.resolve("etc/hadoop"));
    hdfsLib = Files.createDirectories(hadoopHome.resolve("share/hadoop/hdfs/lib"));
    Files.createFile(hdfsLib.resolve("hadoop-hdfs-3.4.3.jar"));
    env.put("HADOOP_HOME", hadoopHome.toString());
    env.put("HADOOP_HDFS_HOME", hadoopHome.toString());
    env.put("HADOOP_LIBEXEC_DIR", libexec.toString());
    env.put("HADOOP_CONF_DIR", confDir.toString());
  }

  /** Copies {@code profile} into {@code dir}/shellprofile.d, where Hadoop looks for profiles. */
  void installProfile(Path profile, Path dir) throws IOException {
    Path target = Files.createDirectories(dir.resolve("shellprofile.d")).resolve("bulwark.sh");
    Files.copy(profile, target, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Creates (empty) module jars named as the distribution names them. */
  static List<Path> createModuleJars(Path dir, String... modules) throws IOException {
    Files.createDirectories(dir);
    List<Path> jars = new ArrayList<>();
    for (String module : modules) {
      jars.add(Files.createFile(dir.resolve("bulwark-" + module + "-0.1.0.jar")));
      if ("monitor".equals(module)) {
        Files.createDirectories(dir.resolve("bulwark-monitor-lib")); // its JDBC drivers, as the tarball lays them out
      }
    }
    return jars;
  }

  Outcome run(String... hdfsArgs) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", SHELL_TEST_DIR.resolve("fake-hdfs.sh").toString()));
    cmd.addAll(List.of(hdfsArgs));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().keySet().removeIf(k -> k.startsWith("HADOOP_") || k.startsWith("BULWARK_") || k.equals("CLASSPATH"));
    pb.environment().putAll(env);
    Path out = Files.createTempFile("fake-hdfs", ".out");
    Path err = Files.createTempFile("fake-hdfs", ".err");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("fake-hdfs.sh did not finish in 30 s");
    }
    Outcome o = new Outcome(p.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return o;
  }

  /** What fake-hdfs.sh printed: exit code, VAR=value lines (USAGE lines kept apart), standard error. */
  static final class Outcome {
    final int exitCode;
    final Map<String, String> vars = new LinkedHashMap<>();
    final List<String> usage = new ArrayList<>();
    final String stderr;

    Outcome(int exitCode, List<String> lines, String stderr) {
      this.exitCode = exitCode;
      this.stderr = stderr;
      for (String line : lines) {
        int eq = line.indexOf('=');
        if (eq < 0) {
          continue;
        }
        if (line.startsWith("USAGE=")) {
          usage.add(line.substring(eq + 1));
        } else {
          vars.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    }

    String get(String var) {
      return vars.get(var);
    }

    List<String> classpath() {
      String cp = vars.getOrDefault("CLASSPATH", "");
      return cp.isEmpty() ? List.of() : List.of(cp.split(":"));
    }

    @Override
    public String toString() {
      return "exit " + exitCode + " " + vars + " usage " + usage + " stderr [" + stderr.trim() + "]";
    }
  }
}
