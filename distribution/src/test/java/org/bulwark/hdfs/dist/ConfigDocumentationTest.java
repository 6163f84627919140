package org.bulwark.hdfs.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.common.conf.ConfigKey;
import org.bulwark.hdfs.common.conf.ConfigKeyCatalog;
import org.junit.jupiter.api.Test;

/**
 * Every key the shipped modules declare is in the generated {@code bulwark-site.xml.example} with its
 * default, and in the README's key table, so neither can fall behind the code.
 */
class ConfigDocumentationTest {
  private static final Path EXAMPLE = Path.of(System.getProperty("bulwark.example.config",
      "target/generated/etc/hadoop/bulwark-site.xml.example"));
  private static final Path README = Path.of(System.getProperty("bulwark.readme", "../README.md"));

  @Test
  void exampleConfigurationHoldsEveryKeyWithItsDefault() throws Exception {
    assertTrue(Files.isRegularFile(EXAMPLE), EXAMPLE + " is generated during the build");
    Configuration example = new Configuration(false);
    example.addResource(new org.apache.hadoop.fs.Path(EXAMPLE.toUri()));
    ConfigKeyCatalog catalog = ConfigKeyCatalog.load(getClass().getClassLoader());
    int properties = 0;
    for (java.util.Map.Entry<String, String> ignored : example) {
      properties++;
    }
    assertEquals(catalog.keys().size(), properties, "one property per declared key");
    for (ConfigKey<?> key : catalog.keys()) {
      assertEquals(key.getDefaultText(), example.get(key.getName()), key.getName());
    }
  }

  @Test
  void readmeTableListsEveryKeyWithItsDefault() throws Exception {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    for (ConfigKey<?> key : ConfigKeyCatalog.load(getClass().getClassLoader()).keys()) {
      String row = "| `" + key.getName() + "` | `" + key.getDefaultText() + "` |";
      assertTrue(readme.contains(row), "README.md needs the row " + row + " (then its meaning)");
    }
  }
}
