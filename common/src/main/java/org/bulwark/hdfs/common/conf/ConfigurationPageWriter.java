package org.bulwark.hdfs.common.conf;

import java.io.IOException;
import java.io.Writer;

/**
 * Writes {@code docs/configuration.md} from the {@link ConfigKeyCatalog}: per daemon ({@link KeyReader}) the hosts
 * that need its keys, the Hadoop keys that switch its feature on, and every {@code bulwark.*} key with its default,
 * valid values and meaning, so the page has one source, the code. The distribution's tests compare the page in the
 * repository with this writer's text and, where they differ, leave the text to copy over it.
 */
public final class ConfigurationPageWriter {
  private ConfigurationPageWriter() {
  }

  /** The page's text for {@code catalog}. */
  public static void write(ConfigKeyCatalog catalog, Writer w) throws IOException {
    w.write("# Configuration keys\n\n");
    w.write("Bulwark's own keys start with `bulwark.`. Each is declared once in code (`org.bulwark.hdfs.common.conf"
        + ".ConfigKey`)\nwith its default, meaning and validation; this page and `etc/hadoop/bulwark-site.xml.example`"
        + " in the tarball\nare generated from those declarations (`ConfigurationPageWriter`, `ExampleConfigWriter`), and"
        + " a test fails when\nthis page falls behind them. A bad value stops the component with one line naming the"
        + " key, the value and\nwhat would be valid. Keys are grouped by the daemon that reads them; set them in"
        + " `hdfs-site.xml` on the hosts\neach group names.\n");
    for (KeyReader reader : KeyReader.values()) {
      w.write("\n## " + reader.title() + "\n\n");
      w.write("Read on " + reader.hosts() + ".\n");
      if (!reader.hadoopKeys().isEmpty()) {
        w.write("\nThe Hadoop keys that switch it on:\n\n");
        w.write("| Hadoop key | value | meaning |\n| --- | --- | --- |\n");
        for (KeyReader.HadoopKey hadoop : reader.hadoopKeys()) {
          w.write("| `" + hadoop.name() + "` | `" + hadoop.value() + "` | " + cell(hadoop.meaning()) + " |\n");
        }
      }
      StringBuilder rows = new StringBuilder();
      for (ConfigKey<?> key : catalog.keys()) {
        if (KeyReader.of(key) == reader) {
          String unset = key.getDefaultText().isEmpty() ? "not set" : "`" + key.getDefaultText() + "`";
          rows.append("| `").append(key.getName()).append("` | ").append(unset).append(" | ")
              .append(cell(key.getExpected())).append(" | ").append(cell(key.getDescription())).append(" |\n");
        }
      }
      if (rows.length() > 0) {
        w.write("\n| key | default | valid values | meaning |\n| --- | --- | --- | --- |\n");
        w.write(rows.toString());
      }
    }
  }

  /** Text in a table cell: a pipe would end the cell. */
  private static String cell(String s) {
    return s.replace("|", "\\|");
  }
}
