package org.bulwark.hdfs.common.conf;

import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;

/**
 * Writes {@code bulwark-site.xml.example}: every key of the {@link ConfigKeyCatalog} as a Hadoop
 * configuration property with its default and one-line meaning, grouped by {@link KeyReader}. Run by the distribution
 * build;
 * usage: {@code ExampleConfigWriter OUTPUT_FILE}.
 */
public final class ExampleConfigWriter {
  private ExampleConfigWriter() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ExampleConfigWriter OUTPUT_FILE");
      System.exit(2);
    }
    ConfigKeyCatalog catalog = ConfigKeyCatalog.load(Thread.currentThread().getContextClassLoader());
    File out = new File(args[0]);
    File dir = out.getAbsoluteFile().getParentFile();
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    // Written aside and moved into place, so a failed build never leaves half a file.
    File tmp = new File(dir, out.getName() + ".tmp");
    try (Writer w = new OutputStreamWriter(Files.newOutputStream(tmp.toPath()), StandardCharsets.UTF_8)) {
      write(catalog, w);
    }
    Files.move(tmp.toPath(), out.toPath(), StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * The example file's text for {@code catalog}: the keys grouped by the daemon that reads them, each group opened by
   * the hosts that need it and the Hadoop keys that switch its feature on (as comments: an example must switch
   * nothing on). A key whose name has placeholders is a comment too, with its form spelled out.
   */
  public static void write(ConfigKeyCatalog catalog, Writer w) throws IOException {
    w.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    w.write("<!--\n");
    w.write("  Bulwark configuration keys with their defaults, grouped by the daemon that reads them. Generated from\n");
    w.write("  the code at build time. Copy the properties you want to change into hdfs-site.xml on the hosts each\n");
    w.write("  group names; a key left out keeps the default shown here.\n");
    w.write("-->\n");
    w.write("<configuration>\n");
    for (KeyReader reader : KeyReader.values()) {
      w.write("\n  <!-- ===== " + comment(reader.title()) + ", read on " + comment(reader.hosts()) + ". -->\n");
      for (KeyReader.HadoopKey hadoop : reader.hadoopKeys()) {
        w.write("  <!-- Hadoop's " + comment(hadoop.name()) + " = " + comment(hadoop.value()) + ": "
            + comment(hadoop.meaning()) + " -->\n");
      }
      for (ConfigKey<?> key : catalog.keys()) {
        if (KeyReader.of(key) != reader) {
          continue;
        }
        String description = key.getDescription() + " Valid: " + key.getExpected() + ".";
        if (key.getName().contains("<")) {
          w.write("\n  <!-- " + comment(key.getName()) + " (default " + comment(key.getDefaultText()) + "), one property"
              + " per value of each <...> part: " + comment(description) + " -->\n");
          continue;
        }
        w.write("\n  <property>\n");
        w.write("    <name>" + escape(key.getName()) + "</name>\n");
        w.write("    <value>" + escape(key.getDefaultText()) + "</value>\n");
        w.write("    <description>" + escape(description) + "</description>\n");
        w.write("  </property>\n");
      }
    }
    w.write("</configuration>\n");
  }

  /** Text inside an XML comment, which must not hold a double hyphen. */
  private static String comment(String s) {
    return s.replace("--", "- -");
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
