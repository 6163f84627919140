package org.bulwark.hdfs.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class BenchmarksPageTest {
  @TempDir
  Path dir;

  private Path run(String name, String figure) throws Exception {
    Path bench = dir.resolve("bench-" + name + "-" + figure);
    System.setProperty("bulwark.bench.dir", bench.toString());
    try {
      BenchReport report = BenchReport.start(name, 3);
      report.table("Seconds | per switch", List.of("policy", "seconds"), List.of(List.of("ours", figure),
          List.of("stock", "9.0")));
      report.chart(new BenchChart("Seconds to repair", "seconds").bar("switch", "ours", Double.parseDouble(figure))
          .bar("switch", "stock", 9.0));
      report.write();
    } finally {
      System.clearProperty("bulwark.bench.dir");
    }
    return bench;
  }

  @Test
  void theCommandOnThePageCarriesTheRunsBenchOptions() throws Exception {
    Path docs = dir.resolve("docs");
    System.setProperty("bench.alpha.rows", "7");
    System.setProperty("bench.alpha.variants", "a,b");
    Path bench;
    try {
      bench = run("alpha", "1.5");
    } finally {
      System.clearProperty("bench.alpha.rows");
      System.clearProperty("bench.alpha.variants");
    }
    BenchmarksPage.update(bench, docs);
    String page = Files.readString(docs.resolve("benchmarks.md"), StandardCharsets.UTF_8);
    assertTrue(page.contains("`mvn -B -T 1 -Pbench -Dbench=alpha -Dbench.alpha.rows=7 -Dbench.alpha.variants=a,b verify`"),
        page);
  }

  @Test
  void thePageHoldsTheLatestRunOfEveryBenchmarkWithItsTableAndChart() throws Exception {
    Path docs = dir.resolve("docs");
    BenchmarksPage.update(run("zeta", "4.0"), docs);
    BenchmarksPage.update(run("alpha", "1.5"), docs);
    BenchmarksPage.update(run("zeta", "3.0"), docs);
    String page = Files.readString(docs.resolve("benchmarks.md"), StandardCharsets.UTF_8);

    assertTrue(page.indexOf("\n## alpha\n") < page.indexOf("\n## zeta\n"), page);
    assertTrue(page.contains("| ours | 3.0 |"), "zeta's latest run: " + page);
    assertFalse(page.contains("| ours | 4.0 |"), "zeta's older run is gone from the page: " + page);
    assertTrue(page.contains("**Seconds | per switch**"), page);
    assertTrue(page.contains("![Seconds to repair](bench/zeta.svg)"), page);
    assertTrue(page.contains("3 runs per figure: `mvn -B -T 1 -Pbench -Dbench=zeta verify`."), page);
    assertTrue(Files.isRegularFile(docs.resolve("bench/alpha.json")));

    String svg = Files.readString(docs.resolve("bench/zeta.svg"), StandardCharsets.UTF_8);
    DocumentBuilderFactory parsing = DocumentBuilderFactory.newInstance();
    parsing.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false); // no network here
    Document xml = parsing.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertEquals("svg", xml.getDocumentElement().getNodeName());
    assertTrue(svg.contains("Seconds to repair"), "the chart's title is drawn");
  }
}
