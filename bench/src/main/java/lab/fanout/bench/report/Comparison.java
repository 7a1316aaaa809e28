package lab.fanout.bench.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Tail;

/**
 * {@code ./lab compare A B}, after Go's benchstat: per cell present in both results and per figure, A's and B's
 * median and confidence interval ({@link Stats#interval}) over their samples (one per fork; with one fork, one per
 * repetition), the change in %, the two-sided p-value of the
 * Mann-Whitney U rank test ({@link RankTest}), and "~" where the difference is not significant at α = 0.05, or where
 * the samples are too few for any difference to be.
 * A cell whose warm-up ended on its time cap, or whose main-service spent under 80 % of its {@code cpuMs}
 * ({@code cpu_spent} false: it did not measure the work it names), gets no verdict. {@link #renderBy} compares
 * within one result instead: each strategy (or profile) against the first one, cell by cell. A tail cell (a
 * {@code slow_answers} column) adds its slow share: each repetition's slow answers ÷ its answers, %. Beside p, the
 * ratio of B's median to A's with its hierarchical-bootstrap interval and its word against a band of practical
 * equivalence ({@link Bootstrap}: forks, then repetitions within each; one fork: repetitions only): "decided"
 * (B faster or slower: higher req/s, lower p99 and slow share are faster), "~" or "unclear".
 */
public final class Comparison {

    /** The columns that say which cell a row of results.csv belongs to; a knob a cell has no value for reads "". */
    static final List<String> KEY = List.of("block", "strategy", "profile", "tomcat_threads_max", "pool_max_total",
            "db_pool", "orders_store", "jvm_options", "concurrency", "latency_ms", "offered_rate_req_per_s", "query");
    /** A tail cell's answers past its slow threshold, % of its answers: not a column, from slow_answers ÷ answered. */
    static final String SLOW_SHARE = "slow_share_pct";
    /** Figure column to its label, the direction that is better left to the reader; in the order the rows show. */
    static final Map<String, String> FIGURES = new LinkedHashMap<>();

    static {
        FIGURES.put("throughput_req_per_s", "req/s");
        FIGURES.put("p99_ms", "p99 ms");
        FIGURES.put(SLOW_SHARE, "slow share %");
    }

    /** {@code --by hedge}: the query's hedgeAfterMs, "none" without it; the cell is the rest of the query. */
    private static final String HEDGE = "hedge";

    private static MarkdownTable table() {
        return new MarkdownTable(HEADER, MarkdownTable.align(2, MarkdownTable.LEFT, MarkdownTable.RIGHT, 7));
    }

    private static final List<String> HEADER = List.of("cell", "figure", "A: median (CI · its confidence), n",
            "B: median (CI · its confidence), n", "change", "p (Mann-Whitney U)", "B ÷ A [95 % bootstrap CI] verdict");

    /**
     * A cell's samples per figure column, and why it gets no verdict: {@code null} when every warm-up settled and
     * main-service spent the CPU the query asks for; {@code runs}: per figure, each fork's repetitions' values.
     */
    record Samples(Map<String, List<Double>> figures, Map<String, List<List<Double>>> runs, String unfit) {
    }

    private Comparison() {
    }

    /**
     * @param a a results folder (holding results.csv) or a results CSV
     * @return the comparison as a markdown table, one row per cell and figure
     * @throws IllegalArgumentException when a file is missing or is not a results CSV, or no cell is in both
     */
    public static String render(Path a, Path b) {
        return render(a, b, Bootstrap.DEFAULT);
    }

    /** {@link #render(Path, Path)} with the bootstrap's resamples and equivalence band given. */
    public static String render(Path a, Path b, Bootstrap bootstrap) {
        Map<String, Samples> left = samples(a, row -> cellKey(row, KEY));
        Map<String, Samples> right = samples(b, row -> cellKey(row, KEY));
        List<String> both = left.keySet().stream().filter(right::containsKey).toList();
        if (both.isEmpty()) {
            throw new IllegalArgumentException("no cell is in both " + a + " and " + b
                    + " (a cell is its block, strategy, profile and knobs)");
        }
        MarkdownTable md = table();
        both.forEach(cell -> rows(md, cell, left.get(cell), right.get(cell), bootstrap));
        return md.toString();
    }

    /** The knobs {@link #renderBy} compares within one result. */
    public static final List<String> BY = List.of("strategy", "profile", "orders_store", HEDGE);

    /**
     * {@code ./lab compare R --by strategy|profile|orders_store|hedge}: within one result, each value of that knob
     * against the first one in it, per cell (the cell's other knobs the same), e.g. each server profile against the
     * first for the same strategy and clients, R2DBC against JDBC at the same db pool, or a hedged tail cell
     * ({@code hedgeAfterMs=100}) against the same query without a hedge.
     *
     * @param knob one of {@link #BY}
     * @throws IllegalArgumentException when the file is missing or not a results CSV, or no cell has two values
     */
    public static String renderBy(Path result, String knob) {
        return renderBy(result, knob, Bootstrap.DEFAULT);
    }

    /** {@link #renderBy(Path, String)} with the bootstrap's resamples and equivalence band given. */
    public static String renderBy(Path result, String knob, Bootstrap bootstrap) {
        boolean hedge = knob.equals(HEDGE);
        // by profile, Tomcat's threads go with it: Reactor Netty has none (an empty column), yet the same cell
        List<String> others = KEY.stream().filter(k -> !k.equals(knob) && !(hedge && k.equals("query"))
                && !(knob.equals("profile") && k.equals("tomcat_threads_max"))).toList();
        Function<ResultRow, String> cellOf = hedge ? row -> (cellKey(row, others) + " " + unhedgedQuery(row)).strip()
                : row -> cellKey(row, others);
        Function<ResultRow, String> valueOf = hedge ? Comparison::hedgeAfter : row -> row.get(knob);
        Map<String, Map<String, Samples>> byValue = new LinkedHashMap<>();
        samples(result, row -> cellOf.apply(row) + "\t" + valueOf.apply(row)).forEach((key, samples) -> {
            String[] cellAndValue = key.split("\t");
            byValue.computeIfAbsent(cellAndValue[0], k -> new LinkedHashMap<>()).put(cellAndValue[1], samples);
        });
        MarkdownTable md = table();
        byValue.forEach((cell, values) -> {
            String baseline = values.keySet().iterator().next();
            values.forEach((value, samples) -> {
                if (!value.equals(baseline)) {
                    rows(md, cell + ": " + baseline + " → " + value, values.get(baseline), samples, bootstrap);
                }
            });
        });
        if (md.isEmpty()) {
            throw new IllegalArgumentException(result + " has no cell (" + others + ") with two "
                    + (knob.equals("strategy") ? "strategies" : hedge ? "hedgeAfterMs (none is one)" : knob + "s"));
        }
        return md.toString();
    }

    /** @return the query's {@code hedgeAfterMs} (ms, or p95 and the like), "none" when it sends no hedge */
    private static String hedgeAfter(ResultRow row) {
        return Tail.params(query(row)).getOrDefault("hedgeAfterMs", "none");
    }

    /** @return {@code query=…} without its hedgeAfterMs, the rest in its order; "" for no query left */
    private static String unhedgedQuery(ResultRow row) {
        String rest = Arrays.stream(query(row).split("&")).filter(p -> !p.isEmpty() && !p.startsWith("hedgeAfterMs="))
                .collect(Collectors.joining("&"));
        return rest.isEmpty() ? "" : "query=" + rest;
    }

    private static String query(ResultRow row) {
        return row.get("query");
    }

    private static void rows(MarkdownTable md, String cell, Samples a, Samples b, Bootstrap bootstrap) {
        for (String figure : FIGURES.keySet()) {
            List<Double> left = a.figures().get(figure);
            List<Double> right = b.figures().get(figure);
            if (left.isEmpty() || right.isEmpty()) {
                continue;   // a slow share outside a tail cell
            }
            String unfit = a.unfit() != null ? a.unfit() : b.unfit();
            Verdict verdict = unfit == null ? verdict(left, right) : new Verdict("⚠ " + unfit, "no verdict");
            md.row(List.of(cell, FIGURES.get(figure), summary(left), summary(right), verdict.change(), verdict.p(),
                    unfit == null ? ratio(figure, bootstrap.ratio(a.runs().get(figure), b.runs().get(figure)))
                            : "no verdict"));
        }
    }

    /**
     * A figure's two verdict columns.
     *
     * @param change B's median against A's, {@code +4.2 %} when significant ({@code from 0 to 189.8} when A's median
     *               is 0), {@code ~} when not
     * @param p      the rank test's two-sided p, {@code 0.029}, or why there is none ({@code too few: …})
     */
    record Verdict(String change, String p) {
    }

    /**
     * @return {@code +4.2 %, 0.029} when significant, {@code ~, 0.34} when not, or {@code ~, too few: … needs k + k}
     *         when the samples are too few for p to go below {@link RankTest#ALPHA}
     */
    static Verdict verdict(List<Double> a, List<Double> b) {
        if (!RankTest.canReach(a.size(), b.size())) {
            return new Verdict("~", "too few: n = " + a.size() + " + " + b.size() + " cannot give p < "
                    + RankTest.ALPHA + ", needs " + RankTest.needed() + " + " + RankTest.needed());
        }
        double p = RankTest.p(a, b);
        String pText = String.format(Locale.ROOT, "%.3f", p);
        if (p >= RankTest.ALPHA) {
            return new Verdict("~", pText);
        }
        if (Stats.median(a) == 0) {   // no ratio to 0 (a stall's 0 req/s): the change as a difference
            return new Verdict("from 0 to " + Fmt.num(Stats.median(b), 1), pText);
        }
        double change = 100 * (Stats.median(b) - Stats.median(a)) / Stats.median(a);
        return new Verdict(String.format(Locale.ROOT, "%+.1f %%", change), pText);
    }

    /** @return e.g. {@code 1.204 [1.151, 1.262] decided: B faster}; "no ratio" where A's median is 0 */
    private static String ratio(String figure, Bootstrap.Ratio ratio) {
        if (ratio == null) {
            return "no ratio (A's median 0)";
        }
        boolean faster = figure.equals("throughput_req_per_s") == ratio.ratio() > 1;
        return ratio.text() + (ratio.word().equals("decided") ? ": B " + (faster ? "faster" : "slower") : "");
    }

    private static String summary(List<Double> v) {
        return Fmt.estimate(Stats.interval(v), 1) + ", " + v.size();
    }

    /**
     * @param key a row's cell, e.g. {@link #cellKey} of {@link #KEY}
     * @return cell key (its knobs as text) to its samples: one per fork (its repetitions' median) where the result
     *         has several forks of the cell, else one per row (repetition)
     */
    static Map<String, Samples> samples(Path result, Function<ResultRow, String> key) {
        Map<String, List<ResultRow>> cells = ResultsJson.rows(result).stream().collect(Collectors.groupingBy(key,
                LinkedHashMap::new, Collectors.toList()));
        Map<String, Samples> samples = new LinkedHashMap<>();
        cells.forEach((cell, rows) -> samples.put(cell, samples(rows)));
        return samples;
    }

    /**
     * A figure as compare reads it, for the README's front-page figures (ReadmeFiguresTest): per cell of the results
     * (runs of one matrix: their forks join, fork 1 of each its own JVM start), the median over the forks of each
     * fork's repetitions' median.
     *
     * @param column a results.csv column, e.g. {@code throughput_req_per_s}
     * @param keep   which rows count, by their columns (name to value)
     * @return cell ({@link #KEY}'s values) to median, in first-seen order; rows without the figure left out
     * @throws IllegalArgumentException as {@link ResultsJson#cells}
     */
    public static Map<String, Double> cellMedians(List<Path> results, String column,
                                                  Predicate<Map<String, String>> keep) {
        Map<String, List<Map.Entry<String, ResultRow>>> cells = new LinkedHashMap<>();
        for (int i = 0; i < results.size(); i++) {
            for (ResultRow row : ResultsJson.rows(results.get(i))) {
                if (keep.test(row.columns()) && !Double.isNaN(number(row, column))) {
                    cells.computeIfAbsent(cellKey(row, KEY), k -> new ArrayList<>()).add(Map.entry(i + "#" + fork(row),
                            row));
                }
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        cells.forEach((cell, rows) -> medians.put(cell, Stats.median(forkMedians(rows, Map.Entry::getKey,
                r -> number(r.getValue(), column)))));
        return medians;
    }

    /** @return e.g. {@code quick scopeFork virtual concurrency=100}: the columns' values; absent ones left out */
    static String cellKey(ResultRow row, List<String> columns) {
        return columns.stream().filter(k -> !row.get(k).isEmpty())
                .map(k -> k.equals("block") || k.equals("strategy") || k.equals("profile") ? row.get(k)
                        : k + "=" + row.get(k)).collect(Collectors.joining(" "));
    }

    private static Samples samples(List<ResultRow> rows) {
        boolean forked = rows.stream().map(Comparison::fork).distinct().count() > 1;
        Map<String, List<Double>> figures = new LinkedHashMap<>();
        Map<String, List<List<Double>>> runs = new LinkedHashMap<>();
        FIGURES.keySet().forEach(f -> runs.put(f, forkRuns(rows, Comparison::fork,
                r -> f.equals(SLOW_SHARE) ? 100 * number(r, "slow_answers") / number(r, "answered") : number(r, f))));
        FIGURES.keySet().forEach(f -> figures.put(f, forked ? runs.get(f).stream().map(Stats::median).toList()
                : runs.get(f).stream().flatMap(List::stream).toList()));
        return new Samples(figures, runs, anyFalse(rows, "warmup_settled") ? "warm-up capped"
                : anyFalse(rows, "cpu_spent") ? "CPU under cpuMs" : unfit(rows));
    }

    /** @return per fork ({@code fork}: a row's JVM start), the median of its rows' figure (NaN: no sample) */
    static <R> List<Double> forkMedians(List<R> rows, Function<R, String> fork, ToDoubleFunction<R> figure) {
        return forkRuns(rows, fork, figure).stream().map(Stats::median).toList();
    }

    /** @return per fork, its rows' figure in their order (NaN: no sample, left out; a fork without any too) */
    static <R> List<List<Double>> forkRuns(List<R> rows, Function<R, String> fork, ToDoubleFunction<R> figure) {
        Map<String, List<Double>> forks = new LinkedHashMap<>();
        for (R row : rows) {
            double value = figure.applyAsDouble(row);
            if (!Double.isNaN(value)) {
                forks.computeIfAbsent(fork.apply(row), k -> new ArrayList<>()).add(value);
            }
        }
        return List.copyOf(forks.values());
    }

    /** @return the row's fork: which start of the services it ran in */
    static String fork(ResultRow row) {
        return row.get("fork");
    }

    /** @return the column's number, NaN where the row leaves it empty (not measured) */
    static double number(ResultRow row, String column) {
        return row.get(column).isEmpty() ? Double.NaN : Double.parseDouble(row.get(column));
    }

    /** @return why no verdict stands on these rows beyond warm-up and cpuMs, or null: the load side bound them */
    static String unfit(List<ResultRow> rows) {
        return rows.stream().anyMatch(r -> r.get("load_side_bound").equals("true"))
                ? LOAD_SIDE_BOUND : null;
    }

    /** A cell whose load side was busy past 85 %: what bound it may be the load side (SchedulerFigures). */
    public static final String LOAD_SIDE_BOUND = "load side bound: not main-service's figure";

    /** @return true when a row reads false in the column */
    private static boolean anyFalse(List<ResultRow> rows, String column) {
        return rows.stream().anyMatch(r -> r.get(column).equals("false"));
    }
}
