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
import lab.fanout.bench.system.JvmOptions;
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
 * (log axis) when the block sweeps it, else as bars per strategy and profile. Latency has a logarithmic y axis: the
 * common pool's 10 s answers beside the parallel strategies' 0.2 s would otherwise flatten those to the floor.
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
        List<String> files = new ArrayList<>();
        charts(block, cells).forEach((name, chart) -> {
            try {
                BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write chart " + name, e);
            }
            files.add(name + ".png");
        });
        return files;
    }

    /** @return file name (without .png) to chart, for {@code block} */
    static Map<String, Chart<?, ?>> charts(String block, List<CellResult> cells) {
        boolean sweep = cells.stream().map(r -> r.cell().concurrency()).distinct().count() > 1;
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (sweep) {
            charts.put(block + "-throughput", xy(block + ": throughput (solid) and bound (dashed: Little's law or CPU)", "req/s",
                    false, cells, CellResult::throughputMedian, r -> r.bound().requestsPerSecond()));
            charts.put(block + "-latency", xy(block + ": p99 (solid) and p50 (dashed) latency", "ms (log scale)", true,
                    cells, r -> r.latencyMs(99), r -> r.latencyMs(50)));
            charts.put(block + "-efficiency", xy(block + ": efficiency = measured ÷ bound", "%", false, cells,
                    r -> 100 * r.efficiency(), null));
        } else {
            charts.put(block + "-throughput", bars(block + ": throughput and bound (Little's law or CPU)", "req/s", false,
                    cells, Map.of("measured", CellResult::throughputMedian, "bound", r -> r.bound().requestsPerSecond())));
            charts.put(block + "-latency", bars(block + ": latency percentiles", "ms (log scale)", true, cells,
                    Map.of("p50", r -> r.latencyMs(50), "p90", r -> r.latencyMs(90), "p99", r -> r.latencyMs(99))));
            charts.put(block + "-efficiency", bars(block + ": efficiency = measured ÷ bound", "%", false, cells,
                    Map.of("efficiency", r -> 100 * r.efficiency())));
        }
        return charts;
    }

    /** One solid line per strategy and profile (and one dashed for {@code dashed}, if given) over concurrency. */
    private static XYChart xy(String title, String unit, boolean logY, List<CellResult> cells,
                              ToDoubleFunction<CellResult> solid, ToDoubleFunction<CellResult> dashed) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("concurrency (clients, log scale)").yAxisTitle(unit).build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(logY).setYAxisLogarithmicDecadeOnly(false).setYAxisDecimalPattern(logY ? "#,##0.#" : null)
                .setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        seriesKeys(cells).forEach((key, rows) -> {
            double[] x = rows.stream().mapToDouble(r -> r.cell().concurrency()).toArray();
            chart.addSeries(key, x, rows.stream().mapToDouble(solid).map(v -> drawable(v, logY)).toArray());
            if (dashed != null) {
                XYSeries s = chart.addSeries(key + " (dashed)", x,
                        rows.stream().mapToDouble(dashed).map(v -> drawable(v, logY)).toArray());
                s.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
                        10f, new float[] {6f, 4f}, 0f));
                s.setMarker(SeriesMarkers.NONE).setShowInLegend(false);
            }
        });
        return chart;
    }

    /** Bars per category (strategy, profile and whatever else varies), one series per figure. */
    private static CategoryChart bars(String title, String unit, boolean logY, List<CellResult> cells,
                                      Map<String, ToDoubleFunction<CellResult>> figures) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).yAxisTitle(unit).build();
        chart.getStyler().setXAxisLabelRotation(20);
        chart.getStyler().setYAxisLogarithmic(logY).setYAxisLogarithmicDecadeOnly(false).setYAxisDecimalPattern(logY ? "#,##0.#" : null);
        if (logY) {
            // XChart anchors bars at 0, which a log axis has not: start the axis at the decade below the smallest bar
            double smallest = figures.values().stream().flatMapToDouble(f -> cells.stream().mapToDouble(f))
                    .filter(v -> v > 0 && Double.isFinite(v)).min().orElse(1);
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest))));
        }
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        List<String> categories = cells.stream().map(r -> category(r, cells)).toList();
        figures.entrySet().stream().sorted(Map.Entry.comparingByKey(Charts::figureOrder)).forEach(f -> chart.addSeries(
                f.getKey(), categories, cells.stream().map(r -> bar(f.getValue().applyAsDouble(r), logY)).toList()));
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

    /** Pool size, threads, latency or main-service's JVM options when they vary too, so that series stay apart. */
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
        if (all.stream().map(c -> c.deployment().jvm().options()).distinct().count() > 1) {
            List<String> options = r.deployment().jvm().options();
            s.append(' ').append(options.isEmpty() ? "JVM defaults" : JvmOptions.tag(options));
        }
        return s.toString();
    }

    /** An absent figure (NaN) drawn as 0 on a linear axis; a log axis has no 0, there it is left out (NaN). */
    private static double drawable(double v, boolean logY) {
        return logY ? (v > 0 && Double.isFinite(v) ? v : Double.NaN) : Double.isFinite(v) ? v : 0;
    }

    /** As {@link #drawable}, but a bar left out is null (XChart skips it). */
    private static Number bar(double v, boolean logY) {
        double d = drawable(v, logY);
        return Double.isNaN(d) ? null : d;
    }
}
