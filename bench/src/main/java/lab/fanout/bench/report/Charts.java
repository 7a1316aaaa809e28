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

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Stats;
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

    /** File name of the open-vs-closed chart ({@link #openVsClosed}). */
    public static final String OPEN_VS_CLOSED = "open-vs-closed";

    /**
     * The coordinated-omission lesson as a picture, when the run has both open-model cells (a rate: vegeta) and
     * closed-loop cells (hey, ab): left, p50 (dashed) and p99 (solid) latency, ms (log scale); right, achieved
     * throughput, req/s; both against the offered load, req/s: the open model's arrival rate, and for the closed loop
     * c ÷ W, the rate its c clients would offer at the ideal latency W (Little's law, the "clients" ceiling of
     * {@link CellResult#littlesLaw()}). The open model's latency counts from each request's due time, the closed
     * loop's from the send: past the bound the first climbs with the queue, the second barely moves.
     *
     * @return the PNG's file name, or empty when the run lacks either model
     */
    public static java.util.Optional<String> openVsClosed(Path dir, List<CellResult> cells) {
        var pair = openVsClosedCharts(cells);
        if (pair.isEmpty()) {
            return java.util.Optional.empty();
        }
        java.awt.image.BufferedImage left = BitmapEncoder.getBufferedImage(pair.get().get(0));
        java.awt.image.BufferedImage right = BitmapEncoder.getBufferedImage(pair.get().get(1));
        java.awt.image.BufferedImage both = new java.awt.image.BufferedImage(left.getWidth() + right.getWidth(),
                Math.max(left.getHeight(), right.getHeight()), java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = both.createGraphics();
        g.drawImage(left, 0, 0, null);
        g.drawImage(right, left.getWidth(), 0, null);
        g.dispose();
        String file = OPEN_VS_CLOSED + ".png";
        try {
            javax.imageio.ImageIO.write(both, "png", dir.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + file, e);
        }
        return java.util.Optional.of(file);
    }

    /** @return the latency and the throughput panel of {@link #openVsClosed}, or empty */
    static java.util.Optional<List<XYChart>> openVsClosedCharts(List<CellResult> cells) {
        List<CellResult> open = cells.stream().filter(r -> r.cell().ratePerSecond() != null)
                .sorted(java.util.Comparator.comparingDouble(Charts::offered)).toList();
        List<CellResult> closed = cells.stream().filter(r -> r.cell().ratePerSecond() == null)
                .sorted(java.util.Comparator.comparingDouble(Charts::offered)).toList();
        if (open.isEmpty() || closed.isEmpty()) {
            return java.util.Optional.empty();
        }
        String x = "offered load, req/s (open: arrival rate; closed: c ÷ ideal latency)";
        XYChart latency = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Latency: open model (from due time) vs closed loop (from send)")
                .xAxisTitle(x).yAxisTitle("ms (log scale)").build();
        latency.getStyler().setYAxisLogarithmic(true).setYAxisLogarithmicDecadeOnly(false).setYAxisDecimalPattern("#,##0.#")
                .setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        XYChart throughput = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Achieved throughput: open model vs closed loop")
                .xAxisTitle(x).yAxisTitle("req/s").build();
        throughput.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        // one colour per model (open blue, closed red), p99 solid and p50 dashed
        for (var model : List.of(java.util.Map.entry("open model (vegeta)", open), java.util.Map.entry("closed loop", closed))) {
            List<CellResult> rows = model.getValue();
            java.awt.Color colour = rows == open ? new java.awt.Color(0x1f77b4) : new java.awt.Color(0xd62728);
            double[] xs = rows.stream().mapToDouble(Charts::offered).toArray();
            XYSeries p99 = latency.addSeries(model.getKey() + " p99", xs,
                    rows.stream().mapToDouble(r -> drawable(r.latencyMs(99), true)).toArray());
            p99.setLineColor(colour);
            p99.setMarkerColor(colour);
            XYSeries p50 = latency.addSeries(model.getKey() + " p50", xs,
                    rows.stream().mapToDouble(r -> drawable(r.latencyMs(50), true)).toArray());
            p50.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
                    10f, new float[] {6f, 4f}, 0f));
            p50.setLineColor(colour);
            p50.setMarkerColor(colour);
            XYSeries achieved = throughput.addSeries(model.getKey(), xs,
                    rows.stream().mapToDouble(r -> drawable(r.throughputMedian() == null ? Double.NaN : r.throughputMedian(), false)).toArray());
            achieved.setLineColor(colour);
            achieved.setMarkerColor(colour);
        }
        List<Double> all = cells.stream().map(Charts::offered).toList();
        double[] range = {Stats.min(all), Stats.max(all)};
        XYSeries offered = throughput.addSeries("offered", range, range.clone());
        offered.setLineColor(java.awt.Color.GRAY);
        offered.setMarker(SeriesMarkers.NONE).setLineStyle(new java.awt.BasicStroke(1f, java.awt.BasicStroke.CAP_BUTT,
                java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f}, 0f));
        return java.util.Optional.of(List.of(latency, throughput));
    }

    /** @return the offered load of a cell, req/s: its rate (open), or c ÷ ideal latency (closed, Little's law) */
    static double offered(CellResult r) {
        return r.cell().ratePerSecond() != null ? r.cell().ratePerSecond()
                : r.littlesLaw().ceilings().getOrDefault("clients", Double.NaN);
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
            s.append(' ').append(r.deployment().jvm().chartLabel());
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
