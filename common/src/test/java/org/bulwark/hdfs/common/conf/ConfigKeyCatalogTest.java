package org.bulwark.hdfs.common.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ConfigKeyCatalogTest {

  @Test
  void collectsThePublicKeysOfEveryListedHolderSortedByName() throws Exception {
    ConfigKeyCatalog catalog = ConfigKeyCatalog.load(getClass().getClassLoader());
    List<String> names = catalog.keys().stream().map(ConfigKey::getName).collect(Collectors.toList());
    assertEquals(List.of("bulwark.monitor.sample.enabled", "bulwark.monitor.sample.poll.interval",
        "bulwark.monitor.sample.priority.<ns>.<nn>"), names);
  }

  @Test
  void exampleFileIsAHadoopConfigurationHoldingEveryDefault() throws Exception {
    ConfigKeyCatalog catalog = ConfigKeyCatalog.load(getClass().getClassLoader());
    StringWriter out = new StringWriter();
    ExampleConfigWriter.write(catalog, out);
    String xml = out.toString();

    Configuration parsed = new Configuration(false);
    parsed.addResource(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "example");
    for (ConfigKey<?> key : catalog.keys()) {
      if (!key.getName().contains("<")) {
        assertEquals(key.getDefaultText(), parsed.get(key.getName()), key.getName());
      }
    }
    assertTrue(xml.contains("Whether the sample &lt;runs&gt; &amp; reports. Valid: true or false."), xml);
    assertTrue(xml.contains("<!-- ===== Block monitor, read on "), "grouped by the daemon that reads them: " + xml);
    assertTrue(xml.contains("<!-- bulwark.monitor.sample.priority.<ns>.<nn> (default 0), one property per value of"),
        "a key with placeholders is a comment, not a property: " + xml);
    assertEquals(2, xml.split("<property>", -1).length - 1, xml);
  }

  @Test
  void everyKeyHasTheDaemonThatReadsIt() {
    assertEquals(KeyReader.BLOCKMONITOR, KeyReader.of(SampleKeys.INTERVAL));
    assertEquals(KeyReader.HOTSTANDBY_CLIENT, KeyReader.of(ConfigKey.flag("bulwark.hotstandby.client.x", true, "X.")));
    assertEquals(KeyReader.HOTSTANDBY, KeyReader.of(ConfigKey.flag("bulwark.hotstandby.x", true, "X.")));
    assertThrows(IllegalArgumentException.class, () -> KeyReader.of(ConfigKey.flag("bulwark.unknown.x", true, "X.")));
  }
}
