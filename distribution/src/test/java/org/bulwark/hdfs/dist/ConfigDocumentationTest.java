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
 * default, and in the key table of {@code docs/configuration.md}, so neither can fall behind the code.
 */
class ConfigDocumentationTest {
  private static final Path EXAMPLE = Path.of(System.getProperty("bulwark.example.config",
      "target/generated/etc/hadoop/bulwark-site.xml.example"));
  private static final Path KEYS_PAGE = Path.of(System.getProperty("bulwark.root.dir", ".."), "docs", "configuration.md");

  @Test
  void exampleConfigurationHoldsEveryKeyWithItsDefault() throws Exception {
    assertTrue(Files.isRegularFile(EXAMPLE), EXAMPLE + " is generated during the build");
    Configuration example = new Configuration(false);
    example.addResource(new org.apache.hadoop.fs.Path(EXAMPLE.toUri()));
    ConfigKeyCatalog catalog = ConfigKeyCatalog.load(getClass().getClassLoader());
    // Counted in the text: Configuration drops a property whose value is empty ("not set" defaults).
    String text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
    int properties = text.split("<name>", -1).length - 1;
    assertEquals(catalog.keys().size(), properties, "one property per declared key");
    for (ConfigKey<?> key : catalog.keys()) {
      String escaped = key.getName().replace("<", "&lt;").replace(">", "&gt;");
      assertTrue(text.contains("<name>" + key.getName() + "</name>") || text.contains("<name>" + escaped + "</name>"), key.getName());
      assertEquals(key.getDefaultText(), java.util.Objects.toString(example.get(key.getName()), ""), key.getName());
    }
  }

  @Test
  void keyTableListsEveryKeyWithItsDefault() throws Exception {
    String page = Files.readString(KEYS_PAGE, StandardCharsets.UTF_8);
    for (ConfigKey<?> key : ConfigKeyCatalog.load(getClass().getClassLoader()).keys()) {
      String row = "| `" + key.getName() + "` | `" + key.getDefaultText() + "` |";
      assertTrue(page.contains(row), "docs/configuration.md needs the row " + row + " (then its meaning)");
    }
  }
}
