package org.bulwark.hdfs.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.common.conf.ConfigKey;
import org.bulwark.hdfs.common.conf.ConfigKeyCatalog;
import org.bulwark.hdfs.common.conf.ConfigurationPageWriter;
import org.junit.jupiter.api.Test;

/**
 * Every key the shipped modules declare is in the generated {@code bulwark-site.xml.example} with its
 * default, and {@code docs/configuration.md} is the page the code writes, so neither can fall behind it; and every
 * {@code bulwark.*} key the README, the guides and the module READMEs name is one the code declares (or a prefix of
 * some, a name the main code reads, or a build property of the POM), so a renamed or removed key cannot live on in the
 * docs.
 */
class ConfigDocumentationTest {
  private static final Path EXAMPLE = Path.of(System.getProperty("bulwark.example.config",
      "target/generated/etc/hadoop/bulwark-site.xml.example"));
  private static final Path ROOT = Path.of(System.getProperty("bulwark.root.dir", ".."));
  private static final Path KEYS_PAGE = ROOT.resolve("docs").resolve("configuration.md");
  /** A {@code bulwark.} name in prose: not part of a package, path or file name. */
  private static final Pattern NAMED_KEY = Pattern.compile("(?<![\\w./-])bulwark\\.[a-z0-9][a-zA-Z0-9.<>-]*[a-zA-Z0-9>]");
  private static final Pattern POM_PROPERTY = Pattern.compile("<(bulwark\\.[a-zA-Z0-9.-]+)>");

  @Test
  void exampleConfigurationHoldsEveryKeyWithItsDefault() throws Exception {
    assertTrue(Files.isRegularFile(EXAMPLE), EXAMPLE + " is generated during the build");
    Configuration example = new Configuration(false);
    example.addResource(new org.apache.hadoop.fs.Path(EXAMPLE.toUri()));
    ConfigKeyCatalog catalog = ConfigKeyCatalog.load(getClass().getClassLoader());
    // Counted in the text: Configuration drops a property whose value is empty ("not set" defaults).
    String text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
    int properties = text.split("<name>", -1).length - 1;
    long placeholders = catalog.keys().stream().filter(k -> k.getName().contains("<")).count();
    assertEquals(catalog.keys().size() - placeholders, properties, "one property per declared key without placeholders");
    for (ConfigKey<?> key : catalog.keys()) {
      if (key.getName().contains("<")) {
        assertTrue(text.contains("<!-- " + key.getName() + " (default "), key.getName() + " is described in a comment");
        continue;
      }
      assertTrue(text.contains("<name>" + key.getName() + "</name>"), key.getName());
      assertEquals(key.getDefaultText(), java.util.Objects.toString(example.get(key.getName()), ""), key.getName());
    }
  }

  @Test
  void configurationPageIsTheOneTheCodeWrites() throws Exception {
    StringWriter expected = new StringWriter();
    ConfigurationPageWriter.write(ConfigKeyCatalog.load(getClass().getClassLoader()), expected);
    String page = Files.readString(KEYS_PAGE, StandardCharsets.UTF_8);
    if (!page.equals(expected.toString())) {
      Path fresh = Path.of("target", "configuration.md");
      Files.createDirectories(fresh.getParent());
      Files.writeString(fresh, expected.toString(), StandardCharsets.UTF_8);
      assertEquals(expected.toString(), page, "docs/configuration.md is generated from the code: copy "
          + fresh.toAbsolutePath() + " over it");
    }
  }

  @Test
  void everyKeyTheDocsNameIsDeclared() throws Exception {
    List<Pattern> declared = new ArrayList<>();
    Set<String> prefixes = new TreeSet<>();
    for (ConfigKey<?> key : ConfigKeyCatalog.load(getClass().getClassLoader()).keys()) {
      declared.add(Pattern.compile(Pattern.quote(key.getName()).replaceAll("<[a-z]+>", "\\\\E[^.\\\\s]+\\\\Q")));
      declared.add(Pattern.compile(Pattern.quote(key.getName())));
      String name = key.getName();
      for (int dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
        prefixes.add(name.substring(0, dot));
      }
    }
    // Names the code reads other than as a ConfigKey (a credential alias such as bulwark.monitor.jdbc.password).
    Set<String> literals = new TreeSet<>();
    try (Stream<Path> sources = Files.walk(ROOT)) {
      for (Path source : sources.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
          .collect(Collectors.toList())) {
        Matcher literal = Pattern.compile("\"(bulwark\\.[a-z0-9.-]+)\"").matcher(Files.readString(source,
            StandardCharsets.UTF_8));
        while (literal.find()) {
          literals.add(literal.group(1));
        }
      }
    }
    Set<String> buildProperties = new TreeSet<>();
    Matcher property = POM_PROPERTY.matcher(Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8));
    while (property.find()) {
      buildProperties.add(property.group(1));
    }
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs")); Stream<Path> modules = Files.list(ROOT)) {
      pages.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
      pages.addAll(modules.map(m -> m.resolve("README.md")).filter(Files::isRegularFile).sorted()
          .collect(Collectors.toList()));
    }
    Set<String> unknown = new TreeSet<>();
    int named = 0;
    for (Path page : pages) {
      Matcher m = NAMED_KEY.matcher(Files.readString(page, StandardCharsets.UTF_8));
      while (m.find()) {
        String name = m.group();
        if (name.matches(".*\\.(sh|xml|jar|example|md|tar\\.gz)$")) {
          continue;
        }
        named++;
        if (!prefixes.contains(name) && !buildProperties.contains(name) && !literals.contains(name)
            && declared.stream().noneMatch(d -> d.matcher(name).matches())) {
          unknown.add(ROOT.relativize(page) + ": " + name);
        }
      }
    }
    assertTrue(named > 30, named + " keys named in " + pages.size() + " pages");
    assertEquals(Set.of(), unknown, "keys the docs name but no key holder declares");
  }
}
