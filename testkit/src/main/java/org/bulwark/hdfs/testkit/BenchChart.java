package org.bulwark.hdfs.testkit;

import java.awt.Color;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGGraphics2D;

/**
 * A grouped bar chart of one benchmark figure, ours beside the stock peers per case, written as SVG for
 * {@code docs/benchmarks.md}: drawn by JFreeChart, serialised by JFreeSVG, so no benchmark draws SVG by hand.
 */
public final class BenchChart {
  private static final int WIDTH = 760;
  private static final int ROW_HEIGHT = 34;

  private final String title;
  private final String valueLabel;
  /** Case, then contender, then value: the order given is the order drawn. */
  private final Map<String, Map<String, Double>> values = new LinkedHashMap<>();

  /**
   * @param title what is measured, as the chart's heading
   * @param valueLabel the value axis, with its unit
   */
  public BenchChart(String title, String valueLabel) {
    this.title = title;
    this.valueLabel = valueLabel;
  }

  /** One bar: {@code contender}'s value in case {@code caseName}. */
  public BenchChart bar(String caseName, String contender, double value) {
    values.computeIfAbsent(caseName, k -> new LinkedHashMap<>()).put(contender, value);
    return this;
  }

  public String title() {
    return title;
  }

  /** The chart as an SVG document. */
  public String svg() {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    int bars = 0;
    for (Map.Entry<String, Map<String, Double>> c : values.entrySet()) {
      for (Map.Entry<String, Double> v : c.getValue().entrySet()) {
        data.addValue(v.getValue(), v.getKey(), c.getKey());
        bars++;
      }
    }
    JFreeChart chart = ChartFactory.createBarChart(title, null, valueLabel, data, PlotOrientation.HORIZONTAL, true,
        false, false);
    chart.setBackgroundPaint(Color.WHITE);
    CategoryPlot plot = chart.getCategoryPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    BarRenderer renderer = (BarRenderer) plot.getRenderer();
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    renderer.setItemMargin(0.05);
    int height = 120 + ROW_HEIGHT * Math.max(bars, 2);
    SVGGraphics2D g = new SVGGraphics2D(WIDTH, height);
    chart.draw(g, new Rectangle(0, 0, WIDTH, height));
    return g.getSVGDocument();
  }

  /** Writes the SVG to {@code file} (aside first, so a failed run leaves the last chart whole). */
  public void write(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, svg(), StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
  }
}
