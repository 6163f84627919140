package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.bulwark.hdfs.hotstandby.warmup.ClassPreloader;
import org.bulwark.hdfs.testkit.ForkedJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The preload list matches the ZooKeeper and Curator clients on the class path, and preloading logs nothing. */
class ZooKeeperClientPreloadIT {
  @Test
  void everyListedClassIsOnTheClassPathAndNoneLogsTheEnvironment() throws Exception {
    List<String> names;
    try (InputStream in = ZooKeeperClientPreload.class.getResourceAsStream("zookeeper-client-classes.txt")) {
      assertNotNull(in, "the list ships in the jar");
      names = ClassPreloader.readNames(in);
    }
    assertTrue(names.size() > 400, "the client's classes: " + names.size());
    assertTrue(names.contains("org.apache.zookeeper.ClientCnxn"), "the connection's classes are listed");
    assertTrue(names.contains("org.apache.curator.framework.imps.CuratorFrameworkImpl"), "Curator's are listed");
    assertTrue(names.contains("org.apache.curator.framework.recipes.cache.CuratorCacheImpl"), "the cache's are listed");
    assertFalse(names.contains("org.apache.zookeeper.ZooKeeper"), "ZooKeeper's initialiser logs the environment");
    assertFalse(names.contains("org.apache.zookeeper.Environment"));
    assertTrue(names.containsAll(ZooKeeperClientPreload.LOGGING_INITIALISERS), "only listed classes are held back");
    ClassPreloader.Result r = ClassPreloader.load(names, getClass().getClassLoader(), n -> false);
    assertEquals(0, r.missing(), "every listed class is on the class path: " + r);
  }

  /**
   * In a fresh JVM logging at INFO, as a shell command does: the preload loads every listed class and nothing
   * logs a line (a client's {@code hdfs dfs -ls} would print it).
   */
  @Test
  void aFreshJvmPreloadsEveryClassWithoutALogLine(@TempDir Path dir) throws Exception {
    Path log4j = dir.resolve("log4j.properties");
    Files.write(log4j, List.of("log4j.rootLogger=INFO,stdout",
        "log4j.appender.stdout=org.apache.log4j.ConsoleAppender",
        "log4j.appender.stdout.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.stdout.layout.ConversionPattern=%p %c (%t) - %m%n"), StandardCharsets.UTF_8);
    File out = dir.resolve("preload.log").toFile();
    Process jvm = ForkedJvm.start(PreloadJvm.class, out, List.of("-Dlog4j.configuration=" + log4j.toUri()));
    assertTrue(jvm.waitFor(60, TimeUnit.SECONDS), "the preload JVM ended");
    List<String> lines = Files.readAllLines(out.toPath(), StandardCharsets.UTF_8);
    assertEquals(0, jvm.exitValue(), String.join("\n", lines));
    List<String> logged = lines.stream().filter(l -> !l.startsWith("preloaded ")).collect(Collectors.toList());
    assertEquals(List.of(), logged, "lines logged while preloading");
    assertTrue(lines.stream().anyMatch(l -> l.matches("preloaded (\\d+) of \\1 classes.*")), String.join("\n", lines));
  }

  /** The fresh JVM of {@link #aFreshJvmPreloadsEveryClassWithoutALogLine}. */
  public static final class PreloadJvm {
    public static void main(String[] args) throws Exception {
      System.out.println("preloaded " + ZooKeeperClientPreload.preload());
    }
  }
}
