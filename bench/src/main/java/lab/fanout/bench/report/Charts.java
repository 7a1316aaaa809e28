package lab.fanout.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.font.FontRenderContext;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Tail;
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
 * PNG charts per block (XChart): throughput with its bound, latency percentiles, efficiency, and memory where
 * main-service's snapshots were taken; against concurrency (log axis) when the block sweeps it, else as bars per
 * strategy and profile. A measured figure is drawn at the median of
 * its samples with error bars from its confidence interval, as the table prints it. Latency has a log y axis, or the
 * common pool's 10 s answers would flatten the parallel strategies' 0.2 s to the floor.
 */
public final class Charts {

    static final int WIDTH = 1000;
    static final int HEIGHT = 560;
    /** The widest y axis, px, labels and title ({@link #fit}). */
    private static final int Y_AXIS = 100;
    /** A legend entry's width besides its label, px: its line and marker, and the paddings ({@link #fit}). */
    private static final int LEGEND_ENTRY = 50;
    /** Text is measured with integer glyph advances, as XChart draws it (wider than fractional ones). */
    private static final FontRenderContext TEXT = new FontRenderContext(null, true, false);
    /** Series colours: matplotlib's and Tableau's ten, all legible on white (XChart's own has a pale yellow). */
    private static final Color[] PALETTE = Arrays.stream(new int[] {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728,
            0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf}).mapToObj(Color::new).toArray(Color[]::new);
    /** The kind of chart of a tail's slow share: {@code <block>-slow-share.png}. */
    public static final String SLOW_SHARE = "slow-share";
    /** File name of the open-vs-closed chart ({@link #openVsClosed}). */
    public static final String OPEN_VS_CLOSED = "open-vs-closed";
    private static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);
    /** What tells cells of a block apart besides strategy and profile, when it varies. */
    private static final Map<String, Function<CellResult, Object>> EXTRA = new LinkedHashMap<>();

    static {
        EXTRA.put(" pool=", r -> r.deployment().poolTotal());
        EXTRA.put(" threads=", r -> r.deployment().tomcatThreads());
        EXTRA.put(" latency=", r -> r.deployment().latencyMs());
        EXTRA.put(" ", r -> r.deployment().jvm().chartLabel());
        EXTRA.put(" · ", r -> r.cell().tail().map(Tail::label).orElse(r.cell().query()));
    }

    private Charts() {
    }

    /**
     * Loads AWT and its fonts now and turns off ImageIO's file cache: both register a JVM shutdown hook, which fails
     * once a Ctrl-C has started the shutdown, and the charts of an interrupted run are drawn exactly then.
     */
    public static void initialize() {
        System.setProperty("java.awt.headless", "true");
        ImageIO.setUseCache(false);
        Graphics2D g = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB).createGraphics();
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        g.drawString("0", 0, 8);
        g.dispose();
    }

    /** @return the file names written into {@code dir} for {@code block}, e.g. {@code scale-throughput.png} */
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

    /**
     * The coordinated-omission lesson as one picture, when the run has open-model and closed-loop cells: p99 (solid)
     * and p50 (dashed) latency, ms (log), and achieved throughput, req/s (medians, error bars), against the offered
     * load: the open model's arrival rate, and for the closed loop c ÷ W, the rate its clients offer at the ideal
     * latency (Little's law). Past the bound the open model's latency (from the due time) climbs with the queue; the
     * closed loop's barely moves.
     *
     * @return the PNG's file name, or empty when the run lacks either model
     */
    public static Optional<String> openVsClosed(Path dir, List<CellResult> cells) {
        return openVsClosedCharts(cells).map(pair -> sideBySide(dir, pair.get(0), pair.get(1), OPEN_VS_CLOSED
                + ".png"));
    }

    /**
     * Writes two charts as one PNG, {@code left} beside {@code right}.
     *
     * @return {@code file}, its name in {@code dir}
     * @throws UncheckedIOException when it cannot be written
     */
    public static String sideBySide(Path dir, Chart<?, ?> left, Chart<?, ?> right, String file) {
        BufferedImage l = BitmapEncoder.getBufferedImage(left);
        BufferedImage r = BitmapEncoder.getBufferedImage(right);
        BufferedImage both = new BufferedImage(l.getWidth() + r.getWidth(), Math.max(l.getHeight(), r.getHeight()),
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = both.createGraphics();
        g.drawImage(l, 0, 0, null);
        g.drawImage(r, l.getWidth(), 0, null);
        g.dispose();
        try {
            ImageIO.write(both, "png", dir.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + file, e);
        }
        return file;
    }

    /** @return the latency and the throughput panel of {@link #openVsClosed}, or empty */
    static Optional<List<XYChart>> openVsClosedCharts(List<CellResult> cells) {
        Map<Boolean, List<CellResult>> byModel = cells.stream().sorted(Comparator.comparingDouble(Charts::offered))
                .collect(Collectors.partitioningBy(r -> r.cell().ratePerSecond() != null));
        if (byModel.get(true).isEmpty() || byModel.get(false).isEmpty()) {
            return Optional.empty();
        }
        String x = "offered load, req/s (open: arrival rate; closed: c ÷ ideal latency)";
        XYChart latency = xyChart("Latency: open model (from due time) vs closed loop (from send), medians ("
                + ERROR_BARS + ")", x, "ms (log scale)");
        latency.getStyler().setYAxisLogarithmic(true).setYAxisLogarithmicDecadeOnly(false)
                .setYAxisDecimalPattern("#,##0.#");
        XYChart throughput = xyChart("Achieved throughput: open model vs closed loop (" + ERROR_BARS + ")", x,
                "req/s");
        for (boolean open : List.of(true, false)) {
            List<CellResult> rows = byModel.get(open);
            String name = open ? "open model (vegeta)" : "closed loop";
            Color colour = open ? PALETTE[0] : PALETTE[3];
            double[] xs = rows.stream().mapToDouble(Charts::offered).toArray();
            colour(series(latency, name + " p99", xs, rows, r -> r.latencyEstimate(99), true), colour);
            colour(series(latency, name + " p50", xs, rows, r -> r.latencyEstimate(50), true), colour)
                    .setLineStyle(DASHED);
            colour(series(throughput, name, xs, rows, CellResult::throughput, false), colour);
        }
        List<Double> all = cells.stream().map(Charts::offered).toList();
        double[] range = {Stats.min(all), Stats.max(all)};
        colour(throughput.addSeries("offered", range, range.clone()), Color.GRAY).setMarker(SeriesMarkers.NONE)
                .setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                        new float[] {2f, 3f}, 0f));
        return Optional.of(List.of(fit(latency), fit(throughput)));
    }

    /** @return a cell's offered load, req/s: its rate (open), or c ÷ ideal latency (closed, Little's law) */
    static double offered(CellResult r) {
        return r.cell().ratePerSecond() != null ? r.cell().ratePerSecond()
                : r.littlesLaw().ceilings().getOrDefault("clients", Double.NaN);
    }

    /** @return file name (without .png) to chart, for {@code block} */
    static Map<String, Chart<?, ?>> charts(String block, List<CellResult> cells) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        Function<CellResult, Stats.Estimate> bound = r -> exact(r.bound().requestsPerSecond());
        if (cells.stream().map(r -> r.cell().concurrency()).distinct().count() > 1) {
            charts.put(block + "-throughput", xy(block + ": throughput (solid; " + ERROR_BARS + ") and bound (dashed:"
                    + " Little's law or CPU)", "req/s", false, cells, CellResult::throughput, bound));
            charts.put(block + "-latency", xy(block + ": p99 (solid) and p50 (dashed) latency, medians (" + ERROR_BARS
                    + ")", "ms (log scale)", true, cells, r -> r.latencyEstimate(99), r -> r.latencyEstimate(50)));
            charts.put(block + "-efficiency", xy(block + ": efficiency = measured ÷ bound (" + ERROR_BARS + ")", "%",
                    false, cells, Charts::efficiency, null));
            if (cells.stream().anyMatch(r -> r.liveMiB() != null)) {
                charts.put(block + "-memory", xy(block + ": heap after GC + committed stacks (solid), reserved stacks"
                        + " (dashed); medians (" + ERROR_BARS + ")", "MiB (log scale)", true,
                        cells, snapshot(Memory.Snapshot::liveMiB), snapshot(Memory.Snapshot::stackReservedMiB)));
            }
        } else {
            charts.put(block + "-throughput", bars(block + ": throughput (" + ERROR_BARS + ") and bound (Little's law"
                    + " or CPU)", "req/s", false, cells,
                    List.of(Map.entry("measured", CellResult::throughput), Map.entry("bound", bound))));
            charts.put(block + "-latency", bars(block + ": latency percentiles, medians (" + ERROR_BARS + ")",
                    "ms (log scale)", true, cells, List.of(Map.entry("p50", r -> r.latencyEstimate(50)),
                            Map.entry("p90", r -> r.latencyEstimate(90)),
                            Map.entry("p99", r -> r.latencyEstimate(99)))));
            charts.put(block + "-efficiency", bars(block + ": efficiency = measured ÷ bound (" + ERROR_BARS + ")", "%",
                    false, cells, List.of(Map.entry("efficiency", Charts::efficiency))));
        }
        if (cells.stream().anyMatch(r -> r.cell().tail().isPresent())) {
            // log: hedged cells' 0.2 % sit two decades below the unhedged 26 %; each cell's own expectation
            charts.put(block + "-" + SLOW_SHARE, bars(block + ": slow requests, measured and expected", "% (log scale)",
                    true, cells, List.of(
                            Map.entry("measured", r -> exact(r.slowShare().map(v -> 100 * v[1]).orElse(Double.NaN))),
                            Map.entry("expected: 1 − (1 − p)^N, hedged 1 − (1 − p²)^N", r -> exact(r.cell().tail()
                                    .map(t -> 100 * (t.hedged() ? t.expectedSlowShareHedged() : t.expectedSlowShare()))
                                    .orElse(Double.NaN))))));
        }
        return charts;
    }

    /**
     * One solid line per strategy and profile (and a dashed one for {@code dashed}, if given) over concurrency, through
     * the medians, with error bars ({@link #error}).
     */
    private static XYChart xy(String title, String unit, boolean logY, List<CellResult> cells,
                              Function<CellResult, Stats.Estimate> solid, Function<CellResult, Stats.Estimate> dashed) {
        XYChart chart = xyChart(title, "concurrency (clients, log scale)", unit);
        chart.getStyler().setXAxisLogarithmic(true).setXAxisDecimalPattern("#,##0").setYAxisLogarithmic(logY)
                .setYAxisLogarithmicDecadeOnly(false).setYAxisDecimalPattern(logY ? "#,##0.#" : null);
        Color[] colours = chart.getStyler().getSeriesColors();
        cells.stream().collect(Collectors.groupingBy(r -> series(r, cells), LinkedHashMap::new, Collectors.toList()))
                .forEach((key, rows) -> {
                    double[] x = rows.stream().mapToDouble(r -> r.cell().concurrency()).toArray();
                    // the dashed line has no legend entry of its own: its solid line's colour names it
                    Color colour = colours[chart.getSeriesMap().size() / (dashed == null ? 1 : 2) % colours.length];
                    colour(series(chart, key, x, rows, solid, logY), colour);
                    if (dashed != null) {
                        XYSeries line = colour(series(chart, key + " (dashed)", x, rows, dashed, logY), colour);
                        line.setLineStyle(DASHED);
                        line.setMarker(SeriesMarkers.NONE).setShowInLegend(false);
                    }
                });
        return fit(chart);
    }

    /**
     * Bars per category (strategy, profile and whatever else varies), one series per figure, in order, at the medians,
     * with error bars ({@link #error}).
     */
    private static CategoryChart bars(String title, String unit, boolean logY, List<CellResult> cells,
                                      List<Map.Entry<String, Function<CellResult, Stats.Estimate>>> figures) {
        List<String> categories = cells.stream().map(r -> series(r, cells)).toList();
        // labels upright: slanted ones end beside the next bar, and 32 of them overlap; the PNG grows by the longest
        // label, so that the plot keeps its height
        Font font = new CategoryChartBuilder().build().getStyler().getAxisTickLabelsFont();
        int longest = (int) categories.stream().mapToDouble(c -> font.getStringBounds(c, TEXT).getWidth()).max()
                .orElse(0);
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT + longest)
                .title(title).yAxisTitle(unit).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS)
                .setLegendLayout(Styler.LegendLayout.Horizontal).setSeriesColors(PALETTE);
        chart.getStyler().setXAxisLabelRotation(90);
        // a share of 0.03 % must not read "0"; decades only where they span more than two (the slow shares' five)
        chart.getStyler().setYAxisLogarithmic(logY).setYAxisLogarithmicDecadeOnly(logY && unit.startsWith("%"))
                .setYAxisDecimalPattern(logY ? "#,##0.###" : null);
        if (logY) {
            // XChart anchors bars at 0, which a log axis has not: start the axis at the decade below the smallest bar
            double smallest = figures.stream().flatMapToDouble(f -> cells.stream().mapToDouble(r -> median(f.getValue()
                            .apply(r))))
                    .filter(v -> v > 0 && Double.isFinite(v)).min().orElse(1);
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest))));
        }
        figures.forEach(f -> {
            List<Number> ys = cells.stream().map(r -> {
                double v = drawable(median(f.getValue().apply(r)), logY);
                return Double.isNaN(v) ? null : (Number) v;   // a bar left out is null: XChart skips it
            }).toList();
            List<Number> errors = cells.stream().map(r -> (Number) drawable(barError(f.getValue().apply(r), logY),
                    false)).toList();
            // none for a figure without an interval (a bound); XChart cannot draw one on a bar left out
            if (ys.contains(null) || errors.stream().allMatch(e -> e.doubleValue() == (logY ? 1 : 0))) {
                chart.addSeries(f.getKey(), categories, ys);
            } else {
                chart.addSeries(f.getKey(), categories, ys, errors);
            }
        });
        return fit(chart);
    }

    /** @return a line through the medians of {@code rows}' figure, with error bars ({@link #error}) */
    private static XYSeries series(XYChart chart, String name, double[] x, List<CellResult> rows,
                                   Function<CellResult, Stats.Estimate> figure, boolean logY) {
        return chart.addSeries(name, x, ys(rows, r -> median(figure.apply(r)), logY),
                ys(rows, r -> error(figure.apply(r), logY), false));
    }

    private static XYChart xyChart(String title, String x, String y) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(title).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS)
                .setLegendLayout(Styler.LegendLayout.Horizontal).setSeriesColors(PALETTE);
        return chart;
    }

    /**
     * XChart writes the title on one line centred over the plot, and a horizontal legend on one line, and cuts what
     * does not fit (6 strategy / profile pairs do not). A legend too wide goes right of the plot, an entry a line;
     * then the title's font shrinks (down to 8 pt) until it fits either side of the plot's centre.
     */
    private static <C extends Chart<?, ?>> C fit(C chart) {
        Styler styler = chart.getStyler();
        double[] entries = chart instanceof XYChart xy ? xy.getSeriesMap().values().stream()
                .filter(XYSeries::isShowInLegend).mapToDouble(s -> LEGEND_ENTRY + styler.getLegendFont()
                        .getStringBounds(s.getName(), TEXT).getWidth()).toArray() : new double[0];
        double padded = chart.getWidth() - 2.0 * (styler.getChartPadding() + styler.getChartTitlePadding());
        // the plot spans from the y axis (Y_AXIS px at most, Y_AXIS / 2 at least) to the right edge or the legend
        double room = padded - Y_AXIS;
        if (Arrays.stream(entries).sum() > padded) {
            styler.setLegendPosition(Styler.LegendPosition.OutsideE).setLegendLayout(Styler.LegendLayout.Vertical);
            room = padded + Y_AXIS / 2.0 - Arrays.stream(entries).max().orElse(0) - LEGEND_ENTRY;
        }
        Font font = styler.getChartTitleFont();
        while (font.getSize2D() > 8 && font.getStringBounds(chart.getTitle(), TEXT).getWidth() > room) {
            font = font.deriveFont(font.getSize2D() - 0.5f);
        }
        styler.setChartTitleFont(font);
        return chart;
    }

    private static XYSeries colour(XYSeries series, Color colour) {
        series.setLineColor(colour);
        series.setMarkerColor(colour);
        return series;
    }

    /** @return e.g. {@code thread-per-task / virtual pool=10}: pool, threads, latency or JVM options when they vary */
    private static String series(CellResult r, List<CellResult> all) {
        StringBuilder s = new StringBuilder(r.cell().strategy().proseName() + " / " + r.deployment().profile());
        EXTRA.forEach((prefix, value) -> {
            // a knob a cell does not have (Tomcat's threads on Reactor Netty) neither differs nor shows
            if (all.stream().map(value).filter(Objects::nonNull).distinct().count() > 1 && value.apply(r) != null) {
                s.append(prefix).append(value.apply(r));
            }
        });
        return s.toString();
    }

    private static double[] ys(List<CellResult> rows, ToDoubleFunction<CellResult> f, boolean logY) {
        return rows.stream().mapToDouble(f).map(v -> drawable(v, logY)).toArray();
    }

    /** XChart draws symmetric error bars only: the wider side of the confidence interval, never understating it. */
    static final String ERROR_BARS = "error bars: the wider side of the CI";

    /**
     * @return the half-width to draw around the median on a line: the larger of median − low and high − median; 0
     *         for one sample or none. A log axis has no 0, so there it stops at a tenth of the median (an upper end
     *         above 1.9 × the median is then drawn short; the table has the exact ends). Bars: {@link #barError}
     */
    static double error(Stats.Estimate e, boolean logY) {
        if (e.n() < 2) {
            return 0;
        }
        double half = Math.max(e.median() - e.low(), e.high() - e.median());
        return logY ? Math.min(half, 0.9 * e.median()) : half;
    }

    /**
     * @return {@link #error} for a bar chart; on a log axis XChart 3.8.8 draws a bar's error e as log10(e) decades
     *         either side of the bar's top, so there it is 10^d, d the wider side of the interval in decades (never 0
     *         or below, never understating)
     */
    static double barError(Stats.Estimate e, boolean logY) {
        if (!logY || e.n() < 2) {
            return logY ? 1 : error(e, false);
        }
        double up = Math.log10(e.high() / e.median());
        return Math.pow(10, e.low() > 0 ? Math.max(up, Math.log10(e.median() / e.low())) : up);
    }

    /** @return a figure of main-service's mid-run memory snapshot, MiB: median and interval over the samples */
    private static Function<CellResult, Stats.Estimate> snapshot(Function<Memory.Snapshot, Double> figure) {
        return r -> r.estimate(p -> Memory.snapshot(p, figure));
    }

    /** @return a figure that has no interval (a bound, a share over all requests) as an estimate without one */
    private static Stats.Estimate exact(double v) {
        return new Stats.Estimate(v, v, v, 1, 1);
    }

    /** @return efficiency, % ({@link CellResult#efficiencyEstimate}); absent when nothing bounds the cell */
    private static Stats.Estimate efficiency(CellResult r) {
        return Double.isNaN(r.efficiency()) ? exact(Double.NaN) : r.efficiencyEstimate();
    }

    private static double median(Stats.Estimate e) {
        return orNaN(e.median());
    }

    private static double orNaN(Double v) {
        return v == null ? Double.NaN : v;
    }

    /** An absent figure (NaN) is drawn as 0 on a linear axis; a log axis has no 0, so there it is left out (NaN). */
    private static double drawable(double v, boolean logY) {
        return logY ? (v > 0 && Double.isFinite(v) ? v : Double.NaN) : Double.isFinite(v) ? v : 0;
    }
}
