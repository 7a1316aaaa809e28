package lab.fanout.bench.report;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Strategy;

/**
 * {@code ./lab verdicts RESULT...}: which approach (strategy × server profile) wins each scenario (a cell's knobs
 * but its strategy and profile, across every result given, so that per-profile results join; Reactor Netty, which has
 * no Tomcat threads, meets Tomcat at each thread count of the same other knobs) on each figure, and
 * only where the difference is no noise. Per scenario and figure the approaches are ranked by the median of their
 * samples, one per fork (its repetitions' median: repetitions within one JVM start are not independent); the best
 * is tested against the runner-up with the exact two-sided Mann-Whitney U test, and the p-values of all those tests
 * are corrected together with Benjamini-Hochberg's step-up procedure at q = 0.05 (Benjamini and Hochberg 1995,
 * JRSS B 57:289): at most 5 % of the winners named are expected to be false. Not Holm's family-wise correction: with
 * 5 forks the smallest exact p is 2 ÷ C(10, 5) = 0.0079, so past 6 tests no winner could ever be named.
 * A cell reads the winner and its lead over the runner-up, "~" and the two where the correction leaves no lead,
 * "too few forks" where the samples cannot reach p < 0.05 at all, and "no verdict" where a warm-up hit its cap.
 * Beside the test, the best's median ÷ the runner-up's with its hierarchical-bootstrap interval and its word against
 * the band of practical equivalence ({@link Bootstrap}: decided, ~ or unclear), which can decide a lead that 5 forks'
 * smallest p cannot carry through the correction (Kalibera and Jones 2013); the picture is coloured by that word.
 */
public final class Verdicts {

    public static final double Q = 0.05;
    private static final String TOMCAT_THREADS = "tomcat_threads_max";

    /** A figure of results.csv: its label, whether more is better, how a row gives it (NaN: absent). */
    record Figure(String label, boolean higherBetter, ToDoubleFunction<ResultRow> value) {
    }

    static final List<Figure> FIGURES = List.of(
            new Figure("req/s", true, row -> Comparison.number(row, "throughput_req_per_s")),
            new Figure("p99 ms", false, row -> Comparison.number(row, "p99_ms")),
            new Figure("CPU-ms per request", false, row -> Comparison.number(row, "cpu_ms_per_req_main")),
            new Figure("MiB held in flight", false, row -> Comparison.number(row, "heap_after_gc_mib")
                    + Comparison.number(row, "thread_stacks_committed_mib")));

    /**
     * One scenario × figure: the approaches ranked best first, its test's p-value (NaN: not tested) and the best's
     * median ÷ the runner-up's with its bootstrap interval (null: not tested or no ratio).
     */
    record Contest(String scenario, Figure figure, List<Entry> ranked, String undecided, double p,
                   Bootstrap.Ratio ratio) {
    }

    /**
     * An approach's values per fork (its repetitions') and why no verdict may stand on them: null when all of its
     * warm-ups settled and its load side had headroom, else the reason.
     */
    record Entry(String approach, List<List<Double>> runs, String unfit) {
        /** @return one sample per fork: its repetitions' median */
        List<Double> samples() {
            return runs.stream().map(Stats::median).toList();
        }

        double median() {
            return Stats.median(samples());
        }
    }

    /** A row and the result it came from: fork 1 of one result and fork 1 of another are two JVM starts. */
    private record Row(ResultRow csv, int source) {
        String fork() {
            return source + "/" + Comparison.fork(csv);
        }
    }

    private Verdicts() {
    }

    /**
     * One cell of the matrix: the bootstrap's word (decided, ~, unclear; null: not tested), the lead in %, its text
     * and the picture's text (the approaches' prose names).
     */
    record Cell(String word, double leadPct, String text, String shortText) {
    }

    /**
     * @param results results folders (holding results.csv) or results CSVs, e.g. one per profile
     * @param png       where to draw the matrix as a heatmap ({@link VerdictsChart}), or null for none
     * @param bootstrap the resamples and band of the ratio's interval and word
     * @return the verdict matrix as markdown: one row per scenario, one column per figure some scenario has, and
     *         the test and correction beside it
     * @throws IllegalArgumentException a file missing or not a results CSV, or no scenario with two approaches
     */
    public static String render(List<Path> results, Path png, Bootstrap bootstrap) {
        Map<String, String> common = new LinkedHashMap<>();
        List<Contest> contests = contests(results, common, bootstrap);
        if (contests.isEmpty()) {
            throw new IllegalArgumentException("no scenario of " + results + " has two approaches (strategy ×"
                    + " profile) to compare");
        }
        Map<Contest, Boolean> significant = benjaminiHochberg(contests);
        List<Figure> figures = FIGURES.stream().filter(f -> contests.stream().anyMatch(c -> c.figure() == f))
                .toList();
        Map<String, Map<Figure, Cell>> cells = new LinkedHashMap<>();
        contests.forEach(c -> cells.computeIfAbsent(c.scenario(), k -> new LinkedHashMap<>())
                .put(c.figure(), cell(c, significant.getOrDefault(c, false))));
        List<String> header = new ArrayList<>(List.of("scenario"));
        figures.forEach(f -> header.add(f.label()));
        MarkdownTable table = new MarkdownTable(header, Collections.nCopies(header.size(), MarkdownTable.LEFT));
        cells.forEach((scenario, row) -> {
            List<String> line = new ArrayList<>(List.of(scenario));
            figures.forEach(figure -> line.add(row.containsKey(figure) ? row.get(figure).text() : ""));
            table.row(line);
        });
        StringBuilder md = new StringBuilder(table.toString());
        long tested = contests.stream().filter(c -> !Double.isNaN(c.p())).count();
        md.append(footnote(tested, bootstrap));
        String every = common.entrySet().stream().map(k -> k.getKey() + "=" + k.getValue())
                .collect(Collectors.joining(", "));
        if (!common.isEmpty()) {
            md.append("Every scenario: ").append(every).append(".\n");
        }
        if (png != null) {
            VerdictsChart.draw(List.copyOf(cells.keySet()), figures, cells, "Which approach wins: best ÷ runner-up,"
                    + " 95 % bootstrap interval against ±" + pct(bootstrap.bandPct()) + " %"
                    + (common.isEmpty() ? "" : "; every scenario: " + every), png);
        }
        return md.toString();
    }

    private static String footnote(long tested, Bootstrap bootstrap) {
        return String.format(Locale.ROOT, "%nEach cell: the best approach by median over forks, tested against the"
                + " runner-up (exact two-sided Mann-Whitney U on fork medians); Benjamini-Hochberg over the %d tests"
                + " at q = %.2f. \"~\": no significant lead (p before correction); \"too few forks\": no p below"
                + " 0.05 possible with these samples. An approach with more than 1 %% of its answers errors"
                + " contests req/s only. Then the best's median ÷ the runner-up's, its 95 %% interval by"
                + " hierarchical bootstrap (forks, then repetitions; %d resamples) and its word against ±%s %%:"
                + " decided outside, ~ inside, unclear across.%n", tested, Q, bootstrap.resamples(),
                pct(bootstrap.bandPct()));
    }

    /** {@link #render(List, Path, Bootstrap)} without a picture, with the bootstrap's defaults. */
    public static String render(List<Path> results) {
        return render(results, null, Bootstrap.DEFAULT);
    }

    /**
     * @return every scenario × figure with at least two approaches that have the figure; a scenario is labelled by
     *         its block and the knobs that differ between scenarios (those all share are in {@code common})
     */
    static List<Contest> contests(List<Path> results, Map<String, String> common, Bootstrap bootstrap) {
        Map<String, Map<String, List<Row>>> scenarios = new LinkedHashMap<>();
        Map<String, Map<String, String>> knobsOf = new LinkedHashMap<>();
        List<Map.Entry<Row, Map<String, String>>> rows = rowsWithKnobs(results);
        // Reactor Netty has no Tomcat threads (an empty column): its rows join every Tomcat scenario of the same
        // other knobs (each thread count a matrix varies), and form their own only where there is none
        Map<String, List<Map<String, String>>> tomcat = new LinkedHashMap<>();
        rows.stream().map(Map.Entry::getValue).filter(k -> k.containsKey(TOMCAT_THREADS)).distinct()
                .forEach(k -> tomcat.computeIfAbsent(withoutThreads(k), x -> new ArrayList<>()).add(k));
        rows.forEach(row -> (row.getValue().containsKey(TOMCAT_THREADS) ? List.of(row.getValue())
                : tomcat.getOrDefault(withoutThreads(row.getValue()), List.of(row.getValue()))).forEach(knobs -> {
                    String key = knobs.toString();
                    knobsOf.putIfAbsent(key, knobs);
                    scenarios.computeIfAbsent(key, k -> new LinkedHashMap<>()).computeIfAbsent(row.getKey().csv()
                            .get("strategy") + " · " + row.getKey().csv().get("profile"), k -> new ArrayList<>())
                            .add(row.getKey());
                }));
        knobsOf.values().iterator().next().forEach((knob, value) -> {
            if (!knob.equals("block") && knobsOf.values().stream().allMatch(k -> value.equals(k.get(knob)))) {
                common.put(knob, value);
            }
        });
        List<Contest> contests = new ArrayList<>();
        scenarios.forEach((key, approaches) -> {
            String label = knobsOf.get(key).entrySet().stream().filter(k -> !common.containsKey(k.getKey()))
                    .map(k -> k.getKey().equals("block") ? k.getValue() : k.getKey() + "=" + k.getValue())
                    .collect(Collectors.joining(" "));
            FIGURES.forEach(figure -> {
                List<Entry> entries = entries(approaches, figure);
                if (entries.size() >= 2) {
                    contests.add(contest(label, figure, entries, bootstrap));
                }
            });
        });
        return contests;
    }

    /** @return every row of the results, with its knobs but strategy and profile (those it has a value for) */
    private static List<Map.Entry<Row, Map<String, String>>> rowsWithKnobs(List<Path> results) {
        List<Map.Entry<Row, Map<String, String>>> rows = new ArrayList<>();
        for (Path result : results) {
            int source = results.indexOf(result);
            for (ResultRow row : ResultsJson.rows(result)) {
                Map<String, String> knobs = new LinkedHashMap<>();
                Comparison.KEY.stream().filter(k -> !k.equals("strategy") && !k.equals("profile")
                        && !row.get(k).isEmpty()).forEach(k -> knobs.put(k, row.get(k)));
                rows.add(Map.entry(new Row(row, source), knobs));
            }
        }
        return rows;
    }

    private static String withoutThreads(Map<String, String> knobs) {
        Map<String, String> rest = new LinkedHashMap<>(knobs);
        rest.remove(TOMCAT_THREADS);
        return rest.toString();
    }

    /**
     * @return the approaches that have the figure, with their fork medians; past req/s (goodput) only those that
     *         answered all but 1 % of their requests without error ({@link #sheds})
     */
    private static List<Entry> entries(Map<String, List<Row>> approaches, Figure figure) {
        List<Entry> entries = new ArrayList<>();
        approaches.forEach((approach, rows) -> {
            if (figure != FIGURES.getFirst() && rows.stream().anyMatch(r -> sheds(r.csv()))) {
                return;
            }
            List<List<Double>> runs = Comparison.forkRuns(rows, Row::fork, r -> figure.value().applyAsDouble(r.csv()));
            if (!runs.isEmpty()) {
                List<ResultRow> csv = rows.stream().map(Row::csv).toList();
                entries.add(new Entry(approach, runs, csv.stream().anyMatch(r -> r.get("warmup_settled")
                        .equals("false")) ? "warm-up capped" : Comparison.unfit(csv)));
            }
        });
        return entries;
    }

    /**
     * @return whether more than 1 % of the row's answers were errors: its p99, CPU and memory are then those of the
     *         requests it did not refuse, a lighter workload than the others' (the bounded pool answered 82 % of 200
     *         clients' requests 503 in 8 ms, and "won" p99 and CPU per request; scale on netty, 2026-11-28)
     */
    static boolean sheds(ResultRow row) {
        return Comparison.number(row, "errors") > 0.01 * Comparison.number(row, "answered");
    }

    private static Contest contest(String scenario, Figure figure, List<Entry> entries, Bootstrap bootstrap) {
        Comparator<Entry> best = Comparator.comparingDouble(Entry::median);
        List<Entry> ranked = entries.stream().sorted(figure.higherBetter() ? best.reversed() : best).toList();
        Entry first = ranked.get(0);
        Entry second = ranked.get(1);
        String unfit = first.unfit() != null ? first.unfit() : second.unfit();
        if (unfit != null) {
            return new Contest(scenario, figure, ranked, "no verdict (" + unfit + ")", Double.NaN, null);
        }
        if (!RankTest.canReach(first.samples().size(), second.samples().size())) {
            return new Contest(scenario, figure, ranked, "too few forks (" + first.samples().size() + " + "
                    + second.samples().size() + ")", Double.NaN, null);
        }
        return new Contest(scenario, figure, ranked, null, RankTest.p(first.samples(), second.samples()),
                bootstrap.ratio(second.runs(), first.runs()));
    }

    /**
     * Benjamini-Hochberg's step-up: with the m p-values sorted ascending, every test up to the largest rank k with
     * p(k) ≤ k ÷ m × q is significant.
     */
    static Map<Contest, Boolean> benjaminiHochberg(List<Contest> contests) {
        List<Contest> tested = contests.stream().filter(c -> !Double.isNaN(c.p()))
                .sorted(Comparator.comparingDouble(Contest::p)).toList();
        int last = 0;
        for (int k = 1; k <= tested.size(); k++) {
            if (tested.get(k - 1).p() <= (double) k / tested.size() * Q) {
                last = k;
            }
        }
        Map<Contest, Boolean> significant = new LinkedHashMap<>();
        for (int k = 1; k <= tested.size(); k++) {
            significant.put(tested.get(k - 1), k <= last);
        }
        return significant;
    }

    private static Cell cell(Contest contest, boolean significant) {
        if (contest.undecided() != null) {
            return new Cell(null, 0, contest.undecided(), contest.undecided());
        }
        Entry first = contest.ranked().get(0);
        Entry second = contest.ranked().get(1);
        double lead = 100 * (first.median() - second.median()) / second.median();
        Bootstrap.Ratio ratio = contest.ratio();
        String interval = ratio == null ? "; no ratio (the runner-up's median is 0)" : "; " + ratio.text();
        String text = significant
                ? String.format(Locale.ROOT, "**%s** %+.1f %% vs %s (p %.3f)%s", first.approach(), lead,
                        second.approach(), contest.p(), interval)
                : String.format(Locale.ROOT, "~ %s vs %s (p %.3f)%s", first.approach(), second.approach(),
                        contest.p(), interval);
        String word = ratio == null ? "unclear" : ratio.word();
        String versus = String.format(Locale.ROOT, "%+.0f %%%s over %s", lead, word.equals("decided") ? "" : "?",
                prose(second.approach()));
        String picture = switch (word) {
            case "decided" -> prose(first.approach()) + "\n" + versus;
            case "~" -> "~ " + prose(first.approach()) + "\n≈ " + prose(second.approach());
            default -> "unclear: " + prose(first.approach()) + "\n" + versus;
        };
        return new Cell(word, lead, text, picture);
    }

    /** @return e.g. {@code 3} or {@code 2.5} */
    private static String pct(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** @return e.g. {@code virtual-thread executor, Tomcat virtual} for {@code completableFutureWith... · virtual} */
    static String prose(String approach) {
        String[] parts = approach.split(" · ");
        String server = switch (parts[1]) {
            case "netty" -> "Netty";
            case "virtual", "platform" -> "Tomcat " + parts[1];
            default -> parts[1];
        };
        String strategy;
        try {
            strategy = Strategy.parse(parts[0]).proseName();
        } catch (IllegalArgumentException notOneOfMainServices) {   // a result of an older or newer harness
            strategy = parts[0];
        }
        return strategy + ", " + server;
    }
}
