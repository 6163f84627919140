package org.bulwark.hdfs.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every relative link of {@code README.md} and {@code docs/*.md} reaches a file of the repository, and every
 * {@code #anchor} a heading of its page (as GitHub makes anchors of headings): a guide moved or a heading renamed
 * fails the build, not a reader.
 */
class DocumentationLinksTest {
  private static final Path ROOT = Path.of(System.getProperty("bulwark.root.dir", ".."));
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

  @Test
  void everyRelativeLinkAndAnchorResolves() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      pages.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
    }
    assertTrue(pages.size() > 5, "the guides are under docs/: " + pages);
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path page : pages) {
      for (String url : links(page)) {
        if (url.matches("^[a-z]+:.*")) {
          continue; // http(s), mailto: outside the repository
        }
        links++;
        String file = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
        String anchor = url.contains("#") ? url.substring(url.indexOf('#') + 1) : null;
        Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(target)) {
          broken.add(ROOT.relativize(page) + ": " + url + " (no such file)");
        } else if (anchor != null && target.toString().endsWith(".md") && !anchors(target).contains(anchor)) {
          broken.add(ROOT.relativize(page) + ": " + url + " (no such heading)");
        }
      }
    }
    assertTrue(links > 20, links + " relative links");
    assertEquals(List.of(), broken);
  }

  /** The link targets of a page, outside code blocks. */
  private static List<String> links(Path page) throws IOException {
    List<String> out = new ArrayList<>();
    boolean code = false;
    for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
      if (line.startsWith("```")) {
        code = !code;
      }
      if (!code) {
        Matcher m = LINK.matcher(line);
        while (m.find()) {
          out.add(m.group(1));
        }
      }
    }
    return out;
  }

  /** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens. */
  private static Set<String> anchors(Path page) throws IOException {
    Set<String> out = new HashSet<>();
    boolean code = false;
    for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
      if (line.startsWith("```")) {
        code = !code;
      }
      Matcher m = HEADING.matcher(line);
      if (!code && m.matches()) {
        out.add(m.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
      }
    }
    return out;
  }
}
