package lab.fanout.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import lab.fanout.bench.run.CellResult;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts per block (XChart): throughput with its bound, latency percentiles, efficiency. Against concurrency
 * (log axis) when the block sweeps it, else as bars per strategy and profile.
 */
public final class Charts {

    static final int WIDTH = 1000;
    static final int HEIGHT = 560;

    private Charts() {
    }

    /**
     * Loads AWT and its fonts now and turns off ImageIO's file cache: both register a JVM shutdown hook, which fails once a Ctrl-C has
     * started the shutdown, and the charts of an interrupted run are drawn exactly then.
     */
    public static void initialize() {
        System.setProperty("java.awt.headless", "true");
        javax.imageio.ImageIO.setUseCache(false);   // its file cache registers a shutdown hook per image written
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(8, 8, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = image.createGraphics();
        g.setFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 12));
        g.drawString("0", 0, 8);
        g.dispose();
    }

    /** @return the file names written into {@code dir} for {@code block} */
    public static List<String> write(Path dir, String block, List<CellResult> cells) {
        System.setProperty("java.awt.headless", "true");
        boolean sweep = cells.stream().map(r -> r.cell().concurrency()).distinct().count() > 1;
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (sweep) {
            charts.put(block + "-throughput", xy(block + ": throughput (solid) and Little's-law bound (dashed)", "req/s", cells,
                    CellResult::throughputMedian, r -> r.bound().requestsPerSecond()));
            charts.put(block + "-latency", xy(block + ": p99 (solid) and p50 (dashed) latency", "ms", cells,
                    r -> r.latencyMs(99), r -> r.latencyMs(50)));
            charts.put(block + "-efficiency", xy(block + ": efficiency = measured ÷ bound", "%", cells,
                    r -> 100 * r.efficiency(), null));
        } else {
            charts.put(block + "-throughput", bars(block + ": throughput and Little's-law bound", "req/s", cells,
                    Map.of("measured", CellResult::throughputMedian, "bound", r -> r.bound().requestsPerSecond())));
            charts.put(block + "-latency", bars(block + ": latency percentiles", "ms", cells,
                    Map.of("p50", r -> r.latencyMs(50), "p90", r -> r.latencyMs(90), "p99", r -> r.latencyMs(99))));
            charts.put(block + "-efficiency", bars(block + ": efficiency = measured ÷ bound", "%", cells,
                    Map.of("efficiency", r -> 100 * r.efficiency())));
        }
        List<String> files = new ArrayList<>();
        charts.forEach((name, chart) -> {
            try {
                BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write chart " + name, e);
            }
            files.add(name + ".png");
        });
        return files;
    }

    /** One solid line per strategy and profile (and one dashed for {@code dashed}, if given) over concurrency. */
    private static XYChart xy(String title, String unit, List<CellResult> cells, ToDoubleFunction<CellResult> solid,
                              ToDoubleFunction<CellResult> dashed) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("concurrency (clients, log scale)").yAxisTitle(unit).build();
        chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.OutsideS)
                .setLegendLayout(Styler.LegendLayout.Horizontal);
        seriesKeys(cells).forEach((key, rows) -> {
            double[] x = rows.stream().mapToDouble(r -> r.cell().concurrency()).toArray();
            chart.addSeries(key, x, rows.stream().mapToDouble(solid).map(Charts::finite).toArray());
            if (dashed != null) {
                XYSeries s = chart.addSeries(key + " (dashed)", x, rows.stream().mapToDouble(dashed).map(Charts::finite).toArray());
                s.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
                        10f, new float[] {6f, 4f}, 0f));
                s.setMarker(SeriesMarkers.NONE).setShowInLegend(false);
            }
        });
        return chart;
    }

    /** Bars per category (strategy, profile and whatever else varies), one series per figure. */
    private static CategoryChart bars(String title, String unit, List<CellResult> cells,
                                      Map<String, ToDoubleFunction<CellResult>> figures) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).yAxisTitle(unit).build();
        chart.getStyler().setXAxisLabelRotation(20);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        List<String> categories = cells.stream().map(r -> category(r, cells)).toList();
        figures.entrySet().stream().sorted(Map.Entry.comparingByKey(Charts::figureOrder)).forEach(f -> chart.addSeries(
                f.getKey(), categories, cells.stream().map(r -> (Number) finite(f.getValue().applyAsDouble(r))).toList()));
        return chart;
    }

    private static int figureOrder(String a, String b) {
        List<String> order = List.of("measured", "bound", "p50", "p90", "p99", "efficiency");
        return Integer.compare(order.indexOf(a), order.indexOf(b));
    }

    private static Map<String, List<CellResult>> seriesKeys(List<CellResult> cells) {
        return cells.stream().collect(Collectors.groupingBy(
                r -> r.cell().strategy().shortName() + " / " + r.deployment().profile() + extra(r, cells),
                LinkedHashMap::new, Collectors.toList()));
    }

    private static String category(CellResult r, List<CellResult> all) {
        return r.cell().strategy().shortName() + " / " + r.deployment().profile() + extra(r, all);
    }

    /** Pool size, threads or latency when they vary too, so that series stay apart. */
    private static String extra(CellResult r, List<CellResult> all) {
        StringBuilder s = new StringBuilder();
        if (all.stream().map(c -> c.deployment().poolTotal()).distinct().count() > 1) {
            s.append(" pool=").append(r.deployment().poolTotal());
        }
        if (all.stream().map(c -> c.deployment().tomcatThreads()).distinct().count() > 1) {
            s.append(" threads=").append(r.deployment().tomcatThreads());
        }
        if (all.stream().map(c -> c.deployment().latencyMs()).distinct().count() > 1) {
            s.append(" latency=").append(r.deployment().latencyMs());
        }
        return s.toString();
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : 0;
    }
}
