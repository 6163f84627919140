package org.bulwark.hdfs.common.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    assertEquals(List.of("bulwark.sample.enabled", "bulwark.sample.poll.interval",
        "bulwark.sample.priority.<ns>.<nn>"), names);
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
      assertEquals(key.getDefaultText(), parsed.get(key.getName()), key.getName());
    }
    assertTrue(xml.contains("Whether the sample &lt;runs&gt; &amp; reports. Valid: true or false."), xml);
  }
}
