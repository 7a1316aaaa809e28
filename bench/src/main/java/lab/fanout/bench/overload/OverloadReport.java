package lab.fanout.bench.overload;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.report.Charts;
import lab.fanout.bench.report.MarkdownTable;
import lab.fanout.bench.system.Environment;
import org.apache.commons.csv.CSVFormat;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The overload preset's results: {@code overload.csv}, a row per cell and fork written as each ends;
 * {@code overload.md}, a table per profile with each figure's median over the forks and its interval
 * ({@link Stats#interval}); and per profile {@code overload-<profile>.png}, goodput and the admitted requests' p99
 * against the offered rate.
 */
final class OverloadReport {

    static final String CSV = "overload.csv";
    static final String MARKDOWN = "overload.md";
    private static final List<String> HEADER = List.of("fork", "profile", "admission", "strategy", "shape",
            "offered_per_s", "bound_per_s", "sent", "ok", "shed", "other_errors", "errors", "goodput_per_s",
            "p50_ok_ms", "p99_ok_ms", "p99_shed_ms", "peak_heap_after_gc_mib", "survived", "oom_errors",
            "recovery_s", "drained", "machine_busy_percent", "others_cpu_percent");
    /** By admission mode, in {@link OverloadCell#MODES}' order (red is kept for the forks that died). */
    private static final Color[] MODE_COLOURS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
            new Color(0x9467bd), new Color(0x8c564b)};
    private static final Map<String, BasicStroke> MODE_LINES = Map.of(
            "off", new BasicStroke(2f),
            "fixed", new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 4f}, 0f),
            "adaptive", new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f},
                    0f),
            "littles-law", new BasicStroke(3.5f),
            "fixed-200", new BasicStroke(3.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {12f, 3f, 2f, 3f}, 0f));

    /**
     * One cell in one fork.
     *
     * @param drained       main-service held no request within 30 s of the load's end (else it got a new JVM)
     * @param busyPercent   the machine's cores busy during the load, %, or null
     * @param othersPercent the part of that not ours (services, vegeta, harness), %, or null
     */
    record Row(int fork, OverloadCell cell, Outcomes outcomes, Double peakHeapMiB, boolean survived, int oomErrors,
               boolean drained, Double busyPercent, Double othersPercent) {

        double shedShare() {
            return share(outcomes.shed());
        }

        double otherShare() {
            return share(outcomes.otherErrorCount());
        }

        private double share(long n) {
            return outcomes.sent() == 0 ? Double.NaN : (double) n / outcomes.sent();
        }

        String summary() {
            Outcomes o = outcomes;
            return String.format(Locale.ROOT, "goodput %.1f req/s of %.0f offered (bound %.0f), shed %.0f %%, other"
                            + " errors %.0f %% %s, admitted p99 %s ms, peak heap after GC %s, %s",
                    o.goodputPerSecond(), cell.offeredPerSecond(), cell.bound(), 100 * shedShare(), 100 * otherShare(),
                    o.otherErrors(), number(o.p99OkMs()), peakHeapMiB == null ? "n/a (no collection)"
                            : number(peakHeapMiB) + " MiB", survived ? drained ? "survived"
                            : "survived with a backlog" : "DIED (" + oomErrors + " OutOfMemoryError lines)")
                    + ", CPU " + number(busyPercent) + " % (others " + number(othersPercent) + " %)"
                    + (cell.spike() ? ", recovery " + (o.recoverySeconds() == null ? "not within the phase"
                            : number(o.recoverySeconds()) + " s") : "");
        }
    }

    private final Path dir;
    private final Path repo;
    private final List<Row> rows = new ArrayList<>();

    /** Takes in the rows of an earlier run's overload.csv in {@code dir}, if any, so that forks add up over runs. */
    OverloadReport(Path dir, Path repo) {
        this.dir = dir;
        this.repo = repo;
        rows.addAll(read(dir.resolve(CSV)));
    }

    private OverloadReport(Path dir, List<Row> rows) {
        this.dir = dir;
        this.repo = null;
        this.rows.addAll(rows);
    }

    /**
     * @return each profile's chart drawn anew into {@code out} from the rows of {@code csv}, its file name to its cells
     * @throws IllegalArgumentException {@code csv} of another header or bound ({@link #read})
     */
    static Map<String, Integer> redraw(Path csv, Path out) {
        var report = new OverloadReport(out, read(csv));
        Map<String, Integer> charts = new LinkedHashMap<>();
        report.rows.stream().map(r -> r.cell().profile()).distinct()
                .forEach(profile -> charts.put(report.chart(profile), report.byCell(profile).size()));
        return charts;
    }

    /** @return whether {@code csv} starts with an overload.csv's header (false for a missing file) */
    static boolean isOverloadCsv(Path csv) {
        try (var lines = Files.lines(csv)) {
            return lines.findFirst().map(l -> l.equals(String.join(",", HEADER))).orElse(false);
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    /** @return the highest fork number in the rows so far, 0 without any */
    int forksDone() {
        return rows.stream().mapToInt(Row::fork).max().orElse(0);
    }

    /**
     * @return the rows of an overload.csv as {@link #add} wrote them (figures rounded to 0.1), none without the file
     * @throws IllegalArgumentException a file of another header (another version of the preset) or knobs (its bound)
     */
    static List<Row> read(Path csv) {
        if (!Files.exists(csv)) {
            return List.of();
        }
        try (var parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(csv))) {
            if (!parser.getHeaderNames().equals(HEADER)) {
                throw new IllegalArgumentException(csv + " has the columns " + parser.getHeaderNames() + ", not this"
                        + " preset's " + HEADER + ": choose another --out");
            }
            List<Row> read = new ArrayList<>();
            for (var r : parser) {
                String shape = r.get("shape");
                var cell = new OverloadCell(r.get("profile"), r.get("admission"), Strategy.parse(r.get("strategy")),
                        shape.equals("spike") ? null : Double.valueOf(shape.replace("x", "")));
                if (Math.abs(cell.bound() - Double.parseDouble(r.get("bound_per_s"))) > 0.05) {
                    throw new IllegalArgumentException(csv + " was measured at a bound of " + r.get("bound_per_s")
                            + " req/s, this preset's is " + fixed(cell.bound()) + ": choose another --out");
                }
                SortedMap<String, Long> other = new TreeMap<>();
                for (String kind : r.get("errors").split(" ")) {
                    if (!kind.isEmpty()) {
                        int eq = kind.lastIndexOf('=');
                        other.put(kind.substring(0, eq).replace('_', ' '), Long.parseLong(kind.substring(eq + 1)));
                    }
                }
                var outcomes = new Outcomes(Long.parseLong(r.get("sent")), Long.parseLong(r.get("ok")),
                        Long.parseLong(r.get("shed")), other, Double.parseDouble(r.get("goodput_per_s")),
                        nullable(r.get("p50_ok_ms")), nullable(r.get("p99_ok_ms")), nullable(r.get("p99_shed_ms")),
                        nullable(r.get("recovery_s")));
                read.add(new Row(Integer.parseInt(r.get("fork")), cell, outcomes,
                        nullable(r.get("peak_heap_after_gc_mib")), Boolean.parseBoolean(r.get("survived")),
                        Integer.parseInt(r.get("oom_errors")), Boolean.parseBoolean(r.get("drained")),
                        nullable(r.get("machine_busy_percent")), nullable(r.get("others_cpu_percent"))));
            }
            return read;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv, e);
        }
    }

    private static Double nullable(String v) {
        return v.isEmpty() ? null : Double.valueOf(v);
    }

    /** Keeps the row and appends it to overload.csv at once (a run cut short keeps its finished cells). */
    void add(Row row) {
        rows.add(row);
        Path csv = dir.resolve(CSV);
        try {
            StringBuilder text = new StringBuilder();
            if (!Files.exists(csv)) {
                CSVFormat.DEFAULT.printRecord(text, HEADER.toArray());
            }
            Outcomes o = row.outcomes();
            CSVFormat.DEFAULT.printRecord(text, row.fork(), row.cell().profile(), row.cell().mode(),
                    row.cell().strategy(), row.cell().shape(), fixed(row.cell().offeredPerSecond()),
                    fixed(row.cell().bound()), o.sent(), o.ok(), o.shed(), o.otherErrorCount(),
                    String.join(" ", o.otherErrors().entrySet().stream().map(e -> e.getKey().replace(' ', '_') + "="
                            + e.getValue()).toList()), fixed(o.goodputPerSecond()), number(o.p50OkMs()),
                    number(o.p99OkMs()), number(o.p99ShedMs()), number(row.peakHeapMiB()), row.survived(),
                    row.oomErrors(), number(o.recoverySeconds()), row.drained(), number(row.busyPercent()),
                    number(row.othersPercent()));
            Files.writeString(csv, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + csv, e);
        }
    }

    /** Writes overload.md and the charts; @return the markdown */
    String write() {
        StringBuilder md = new StringBuilder("## Past capacity (`./lab bench --preset overload`)\n\n");
        int forks = (int) rows.stream().mapToInt(Row::fork).distinct().count();
        md.append("Open model (vegeta, a constant arrival rate; latency from each request's due time). Knobs: ")
                .append(String.join(", ", OverloadPreset.knobs().entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue()).toList()))
                .append(". ").append(forks).append(forks == 1 ? " fork" : " forks (all four services started afresh"
                        + " for each)").append("; a figure is the median over the forks with its interval"
                        + " (min–max with 5 or fewer). ").append(Environment.summary(repo)).append(".\n\n")
                .append("Columns: goodput = 2xx answers that ended while the load was offered (from one latency after"
                        + " its start), per second; shed = answers overloaded; other = every other failure by status"
                        + " and problem type (timeout: vegeta gave up after its timeout); p50/p99 admitted = the 2xx"
                        + " answers, from their due time;"
                        + " peak heap = the largest heap after a GC (-Xlog:gc); survived = forks whose main-service"
                        + " was alive after the cell; backlog left = forks where it still held requests 30 s after the"
                        + " load (the next cell got a new main-service); recovery = s from the spike's end to the first"
                        + " second all 2xx"
                        + " within 1.2 × the p99 before it.\n\n");
        for (String profile : rows.stream().map(r -> r.cell().profile()).distinct().toList()) {
            md.append("### ").append(profile.equals("netty") ? "netty: WebFlux on Reactor Netty" : profile
                    + " request threads").append("\n\n");
            MarkdownTable table = new MarkdownTable(TABLE, ALIGN);
            byCell(profile).forEach((cell, rs) -> table.row(cells(cell, rs)));
            md.append(table);
            String chart = chart(profile);
            md.append("\n![").append(profile).append("](").append(chart).append(")\n\n");
        }
        try {
            Files.writeString(dir.resolve(MARKDOWN), md);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(MARKDOWN), e);
        }
        return md.toString();
    }

    private Map<OverloadCell, List<Row>> byCell(String profile) {
        Map<OverloadCell, List<Row>> cells = new LinkedHashMap<>();
        rows.stream().filter(r -> r.cell().profile().equals(profile))
                .forEach(r -> cells.computeIfAbsent(r.cell(), c -> new ArrayList<>()).add(r));
        return cells;
    }

    private static final List<String> TABLE = List.of("admission", "strategy", "offered req/s", "goodput req/s",
            "of bound", "shed", "other errors", "p50 admitted ms", "p99 admitted ms", "p99 shed ms",
            "peak heap after GC MiB", "survived", "OOM lines", "backlog left", "recovery s", "CPU busy (others) %");
    /** Text columns (admission, strategy, other errors) left to the renderer, figures right. */
    private static final List<String> ALIGN = TABLE.stream().map(h -> List.of("admission", "strategy",
            "other errors").contains(h) ? MarkdownTable.DEFAULT : MarkdownTable.RIGHT).toList();

    /** @return a cell's row of the table: its knobs, then each figure's median over the forks with its interval */
    static List<String> cells(OverloadCell cell, List<Row> rs) {
        SortedMap<String, Long> kinds = new TreeMap<>();
        rs.forEach(r -> r.outcomes().otherErrors().forEach((k, v) -> kinds.merge(k, v, Long::sum)));
        long survived = rs.stream().filter(Row::survived).count();
        String recovery = !cell.spike() ? "" : rs.stream().anyMatch(r -> r.outcomes().recoverySeconds() == null)
                ? rs.stream().filter(r -> r.outcomes().recoverySeconds() != null).count() + "/" + rs.size()
                        + " within 30 s" : estimate(rs, r -> r.outcomes().recoverySeconds(), "%.0f");
        return List.of(cell.mode(), cell.strategy().proseName(),
                cell.shape() + " " + fixed(cell.offeredPerSecond()),
                estimate(rs, r -> r.outcomes().goodputPerSecond(), "%.1f"),
                estimate(rs, r -> r.outcomes().goodputPerSecond() / cell.bound() * 100, "%.0f") + " %",
                estimate(rs, r -> 100 * r.shedShare(), "%.0f") + " %",
                estimate(rs, r -> 100 * r.otherShare(), "%.0f") + " %" + (kinds.isEmpty() ? "" : " "
                        + kinds.toString().replace("=", " ").replace("{", "(").replace("}", ")")),
                estimate(rs, r -> r.outcomes().p50OkMs(), "%.0f"), estimate(rs, r -> r.outcomes().p99OkMs(), "%.0f"),
                estimate(rs, r -> r.outcomes().p99ShedMs(), "%.0f"), estimate(rs, Row::peakHeapMiB, "%.0f"),
                survived + "/" + rs.size(), String.valueOf(rs.stream().mapToInt(Row::oomErrors).sum()),
                rs.stream().filter(r -> r.survived() && !r.drained()).count() + "/" + rs.size(), recovery,
                estimate(rs, Row::busyPercent, "%.0f") + " (" + estimate(rs, Row::othersPercent, "%.0f") + ")");
    }

    /** @return the median over the rows, with its interval where it has a width: {@code 48.1 (47.0–49.3)} */
    static String estimate(List<Row> rs, Function<Row, Double> figure, String format) {
        Stats.Estimate e = Stats.interval(rs.stream().map(figure).toList());
        if (e.n() == 0) {
            return "–";
        }
        String median = String.format(Locale.ROOT, format, e.median());
        String low = String.format(Locale.ROOT, format, e.low());
        String high = String.format(Locale.ROOT, format, e.high());
        return low.equals(high) ? median : median + " (" + low + "–" + high + ")";
    }

    /**
     * @return the file name of the profile's chart: small multiples, a column per strategy, goodput above and the
     *         admitted p99 below against the offered rate, a line per admission mode (its colour and dash), the bound
     *         as a line, and a red cross on the cells where main-service died in a fork (≤ 6 series a panel)
     */
    String chart(String profile) {
        Charts.initialize();
        Map<OverloadCell, List<Row>> cells = byCell(profile);
        double bound = cells.keySet().iterator().next().bound();
        List<XYChart> goodputs = new ArrayList<>();
        List<XYChart> p99s = new ArrayList<>();
        for (var strategy : OverloadCell.STRATEGIES) {
            String name = profile + ", " + strategy.proseName();
            XYChart goodput = chart(name + ": goodput", "goodput, 2xx req/s");
            // linear: the admitted p99 spans 2 s to 15 s, within one decade, where a log axis shows a single label
            XYChart p99 = chart(name + ": p99 admitted", "p99 of 2xx answers, ms");
            goodput.getStyler().setYAxisMin(0.0).setYAxisMax(bound * 1.5).setLegendPosition(
                    Styler.LegendPosition.InsideNW);
            p99.getStyler().setYAxisMin(0.0).setYAxisMax(16_000.0).setLegendVisible(false);
            goodput.addAnnotation(new AnnotationLine(bound, false, false));
            plot(cells, strategy, goodput, p99);
            goodputs.add(goodput);
            p99s.add(p99);
        }
        List<XYChart> grid = new ArrayList<>(goodputs);
        grid.addAll(p99s);
        String file = "overload-" + profile + ".png";
        try {
            BitmapEncoder.saveBitmap(grid, 2, goodputs.size(), dir.resolve(file).toString(),
                    BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + file, e);
        }
        return file;
    }

    /** Draws one strategy's lines, a mode each, and its forks that died. */
    private static void plot(Map<OverloadCell, List<Row>> cells, Strategy strategy, XYChart goodput, XYChart p99) {
        List<Double> diedX = new ArrayList<>();
        List<Double> diedY = new ArrayList<>();
        for (int m = 0; m < OverloadCell.MODES.size(); m++) {
            String mode = OverloadCell.MODES.get(m);
            List<OverloadCell> line = cells.keySet().stream().filter(c -> !c.spike()
                    && c.strategy() == strategy && c.mode().equals(mode)).toList();
            if (line.isEmpty()) {
                continue;
            }
            List<Double> x = line.stream().map(OverloadCell::offeredPerSecond).toList();
            add(goodput, mode, x, line.stream().map(c -> median(cells.get(c), r -> r.outcomes()
                    .goodputPerSecond())).toList(), m, mode);
            add(p99, mode, x, line.stream().map(c -> median(cells.get(c), r -> r.outcomes().p99OkMs()))
                    .toList(), m, mode);
            line.stream().filter(c -> cells.get(c).stream().anyMatch(r -> !r.survived())).forEach(c -> {
                diedX.add(c.offeredPerSecond());
                diedY.add(median(cells.get(c), r -> r.outcomes().goodputPerSecond()));
            });
        }
        if (!diedX.isEmpty()) {
            XYSeries died = goodput.addSeries("died in a fork", diedX, diedY);
            died.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            died.setMarker(SeriesMarkers.CROSS).setMarkerColor(Color.RED);
        }
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(420).height(380).title(title).xAxisTitle("offered, req/s (log)")
                .yAxisTitle(yTitle).build();
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setXAxisMin(20.0);   // 0.5x to 10x a 50 req/s bound on every chart alike
        c.getStyler().setXAxisMax(600.0);
        return c;
    }

    /** Adds a series without its absent points (a cell whose requests all failed has no admitted p99). */
    private static void add(XYChart chart, String name, List<Double> x, List<Double> y, int colour, String mode) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int i = 0; i < x.size(); i++) {
            if (y.get(i) != null && !y.get(i).isNaN()) {
                xs.add(x.get(i));
                ys.add(y.get(i));
            }
        }
        if (xs.isEmpty()) {
            return;
        }
        XYSeries s = chart.addSeries(name, xs, ys);
        s.setLineColor(MODE_COLOURS[colour % MODE_COLOURS.length]);
        s.setMarkerColor(MODE_COLOURS[colour % MODE_COLOURS.length]);
        s.setLineStyle(MODE_LINES.get(mode));
    }

    private static Double median(List<Row> rs, Function<Row, Double> figure) {
        return Stats.median(rs.stream().map(figure).toList());
    }

    private static String fixed(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String number(Double v) {
        return v == null ? "" : String.format(Locale.ROOT, "%.1f", v);
    }
}
