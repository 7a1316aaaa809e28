package lab.fanout.bench.report;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import lab.fanout.bench.model.Stats;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.statistics.inference.MannWhitneyUTest;

/**
 * {@code ./lab compare A B}, after Go's benchstat: per cell present in both results and per figure, A's and B's
 * median (min–max) over their samples (one per repetition), the change in %, the two-sided p-value of the
 * Mann-Whitney U rank test (commons-statistics-inference), and "~" where the difference is not significant at
 * α = 0.05, or where the samples are too few for any difference to be (two-sided, exact, no ties: the smallest
 * p-value of n and m samples is 2 ÷ C(n + m, n), so 3 against 3 never goes below 0.1 and 4 against 4 is needed).
 */
public final class Comparison {

    public static final double ALPHA = 0.05;
    /** The columns that say which cell a row of results.csv belongs to; those a CSV lacks read "". */
    static final List<String> KEY = List.of("block", "strategy", "profile", "tomcat_threads_max", "pool_max_total",
            "jvm_options", "concurrency", "latency_ms", "offered_rate_req_per_s", "query");
    /** Figure column to its label, the direction that is better left to the reader. */
    static final Map<String, String> FIGURES = Map.of("throughput_req_per_s", "req/s", "p99_ms", "p99 ms");

    private Comparison() {
    }

    /**
     * @param a a results folder (holding results.csv) or a results CSV
     * @return the comparison as a markdown table, one row per cell and figure
     * @throws IllegalArgumentException when a file is missing or is not a results CSV, or no cell is in both
     */
    public static String render(Path a, Path b) {
        Map<String, Map<String, List<Double>>> left = samples(a);
        Map<String, Map<String, List<Double>>> right = samples(b);
        List<String> both = left.keySet().stream().filter(right::containsKey).toList();
        if (both.isEmpty()) {
            throw new IllegalArgumentException("no cell is in both " + a + " and " + b
                    + " (a cell is its block, strategy, profile and knobs)");
        }
        StringBuilder md = new StringBuilder("| cell | figure | A: median (min–max), n | B: median (min–max), n "
                + "| change | p (Mann-Whitney U) |\n|:---|:---|---:|---:|---:|---:|\n");
        for (String cell : both) {
            for (String figure : List.of("throughput_req_per_s", "p99_ms")) {
                md.append(row(cell, FIGURES.get(figure), left.get(cell).get(figure), right.get(cell).get(figure)));
            }
        }
        return md.toString();
    }

    static String row(String cell, String figure, List<Double> a, List<Double> b) {
        return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", cell, figure, summary(a), summary(b),
                verdict(a, b));
    }

    /**
     * @return {@code +4.2 % | 0.029} when significant, {@code ~ | 0.34} when not, or {@code ~ | needs ≥ k each} when
     *         the samples are too few for p to go below {@link #ALPHA}
     */
    static String verdict(List<Double> a, List<Double> b) {
        double smallest = 2 / binomial(a.size() + b.size(), a.size());
        if (smallest >= ALPHA) {
            return "~ | too few: n = " + a.size() + " + " + b.size() + " cannot give p < " + ALPHA + ", needs "
                    + needed() + " + " + needed();
        }
        double p = MannWhitneyUTest.withDefaults().test(array(a), array(b)).getPValue();
        double change = 100 * (Stats.median(b) - Stats.median(a)) / Stats.median(a);
        return String.format(Locale.ROOT, p < ALPHA ? "%+.1f %% | %.3f" : "~ | %2$.3f", change, p);
    }

    /** @return the fewest samples per side for which a two-sided exact test can reach p < {@link #ALPHA} */
    static int needed() {
        int n = 1;
        while (2 / binomial(2 * n, n) >= ALPHA) {
            n++;
        }
        return n;
    }

    private static double binomial(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }

    private static String summary(List<Double> v) {
        return Fmt.num(Stats.median(v), 1) + " (" + Fmt.num(Stats.min(v), 1) + "–" + Fmt.num(Stats.max(v), 1)
                + "), " + v.size();
    }

    private static double[] array(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** @return cell key (its knobs as text) to figure column to one sample per row (repetition) */
    static Map<String, Map<String, List<Double>>> samples(Path result) {
        Path csv = Files.isDirectory(result) ? result.resolve("results.csv") : result;
        Map<String, Map<String, List<Double>>> cells = new LinkedHashMap<>();
        try (Reader in = Files.newBufferedReader(csv)) {
            List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)
                    .getRecords();
            for (CSVRecord row : rows) {
                if (!row.isMapped("throughput_req_per_s") || !row.isMapped("p99_ms")) {
                    throw new IllegalArgumentException(csv + " is not a results.csv of ./lab bench (no "
                            + "throughput_req_per_s or p99_ms column)");
                }
                String key = KEY.stream().filter(k -> row.isMapped(k) && !row.get(k).isEmpty())
                        .map(k -> k.equals("block") || k.equals("strategy") || k.equals("profile") ? row.get(k)
                                : k + "=" + row.get(k)).collect(Collectors.joining(" "));
                Map<String, List<Double>> figures = cells.computeIfAbsent(key, k -> new LinkedHashMap<>());
                // an absent figure (an empty field) is no sample, not a 0
                FIGURES.keySet().forEach(f -> {
                    List<Double> values = figures.computeIfAbsent(f, x -> new ArrayList<>());
                    if (!row.get(f).isEmpty()) {
                        values.add(Double.parseDouble(row.get(f)));
                    }
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv + ": " + e.getMessage(), e);
        }
        return cells;
    }
}
