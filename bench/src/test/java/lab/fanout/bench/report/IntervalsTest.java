package lab.fanout.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.Stats;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 24, item 2: every figure of the tables is the median of its samples with the order-statistic interval. Nine
 * repetitions i = 1..9 (in a shuffled order) make each figure a + b·i, so its median is a + 5b and, with n = 9, its
 * 96 % interval [x(2), x(8)] = [a + 2b, a + 8b]: not min–max, and not the peak or the pooled value printed before.
 */
class IntervalsTest {

    static final List<Integer> SHUFFLED = List.of(5, 9, 1, 7, 3, 8, 2, 6, 4);

    /** Repetition i of fork {@code fork}: every figure grows with i; pool pending absent above i = 5. */
    static Repetition rep(Repetition template, int i, int fork) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount((100 + i) * 1000L, 9);      // p50 and p90: 100 + i ms
        h.recordValue((300 + 10 * i) * 1000L);             // p99 and max: 300 + 10 i ms
        Map<String, Double> cpu = Map.of("main-service", i / 10.0, "orders-service", i * 5 / 100.0,
                "products-service", i * 3 / 100.0, "accounts-service", i * 4 / 100.0, Repetition.DRIVER, i * 2 / 100.0);
        ServerFigures server = new ServerFigures(20.0 + i, 50.0 + 2 * i, 30.0 + i, i <= 5 ? (double) i : null, null,
                2, null, new Memory(400.0 + i, 40.0 + i, null));
        return new Repetition(i, template.load(), new DriverRun(1000, 1000, 2L * (400 + i), new TreeMap<>(), 2.0, h),
                server, 40.0 + i, (double) i, cpu, fork, true);
    }

    static CellResult nineRepetitions() {
        CellResult r = ReportTest.result(1, 100, 480, 500);
        return new CellResult(1, r.cell(), r.deployment(), r.littlesLaw(), SHUFFLED.stream()
                .map(i -> rep(r.repetitions().getFirst(), i, 1)).toList(), Map.of(1, 88e6), r.command());
    }

    @Test
    void everyFigureIsTheMedianWithTheOrderStatisticsOfItsSamples() {
        String md = ResultsMarkdown.render("t", List.of(), List.of(nineRepetitions()), Map.of(), false);
        // the coverage once, in Req./Sec.: 1 − 2·P(B ≤ 1), B ~ Bin(9, ½) = 96.1 %; the other figures of the row share
        // it, but pool pending, read in 5 repetitions only, has its own (min–max of 5: 94 %); the heap after is one
        // reading per fork: n = 1, no interval
        assertThat(md).contains("| 405 (402–408 · 96 %) | 500 (clients) | 81 (80–82) | 500 (clients) · 1667"
                + " | 105 (102–108) / 105 (102–108) / 350 (320–380) / 350 (320–380) | 0 | 2.0 (2.0–2.0)"
                + " | 25 (22–28) / 60 (54–66) | 35 (32–38) / 3 (1–5 · 94 %)"
                + " | 0.50 (0.20–0.80) · 0.25 (0.10–0.40) / 0.15 (0.06–0.24) / 0.20 (0.08–0.32) · 0.10 (0.04–0.16)"
                + " | 88 (n=1) | 405 (402–408) · 45 (42–48) | 45 (42–48) · 5 (2–8) |");
    }

    @Test
    void withForksTheSamplesAreTheForksMediansAndTheHeapAfterIsOnePerFork() {
        // 3 forks of 2 repetitions: fork f's repetitions are i = f and i = f + 6, so its median throughput is
        // 400 + f + 3; the heap after the cell was read once per fork
        CellResult r = nineRepetitions();
        Repetition t = r.repetitions().getFirst();
        CellResult forked = List.of(1, 2, 3).stream().map(f -> new CellResult(1, r.cell(), r.deployment(),
                r.littlesLaw(), List.of(rep(t, f, f), rep(t, f + 6, f)),
                Map.of(f, List.of(95e6, 88e6, 90e6).get(f - 1)), r.command())).reduce(CellResult::merge).orElseThrow();
        assertThat(forked.heapAfterMB()).isEqualTo(new Stats.Estimate(90.0, 88.0, 95.0, 0.75, 3));
        assertThat(ResultsMarkdown.render("t", List.of(), List.of(forked), Map.of(), false))
                .contains("| 405 (404–406 · 75 %) |").contains("| 90 (88–95) |");
    }

    @Test
    void oneSampleSaysNEqualsOneInsteadOfAnInterval() {
        assertThat(Fmt.estimate(Stats.interval(List.of(480.0)), -1)).isEqualTo("480 (n=1)");
        assertThat(Fmt.estimate(Stats.interval(List.of(480.0)), -1, 1)).isEqualTo("480 (n=1)");
        assertThat(Fmt.estimate(Stats.interval(List.of(1.0, 3.0, 2.0)), 1, 3)).isEqualTo("2.0 (1.0–3.0)");
        assertThat(Fmt.estimate(Stats.interval(List.of(1.0, 3.0)), 1, 3)).isEqualTo("2.0 (1.0–3.0 · 50 %)");
        assertThat(Fmt.estimate(Stats.interval(List.of()), 1, 3)).isEqualTo("n/a");
    }

    /** Item 2's "recompute it": each figure the table gives an interval for is a per-repetition column of the CSV. */
    @Test
    void theCsvHoldsEachIntervalsSamples(@TempDir Path dir) throws Exception {
        CellResult r = nineRepetitions();
        new ResultsCsv(dir.resolve("results.csv"), "local", "hey").append(r);
        List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(dir.resolve("results.csv"))).getRecords();
        Map<String, Stats.Estimate> printed = Map.ofEntries(Map.entry("throughput_req_per_s", r.throughput()),
                Map.entry("p50_ms", r.latencyEstimate(50)), Map.entry("p90_ms", r.latencyEstimate(90)),
                Map.entry("p99_ms", r.latencyEstimate(99)), Map.entry("max_ms", r.latencyEstimate(100)),
                Map.entry("window_s", r.estimate(p -> p.run().windowSeconds())),
                Map.entry("peak_pool_pending", r.estimate(p -> p.server().peakPoolPending())),
                Map.entry("cpu_ms_per_req_main", r.estimate(Repetition::mainCpuMsPerAnswer)),
                Map.entry("cpu_ms_per_call_products", r.estimate(p -> p.cpuMsPerAnswer("products-service"))),
                Map.entry("rss_peak_mib", r.estimate(p -> p.server().memory().peakRssMiB())),
                Map.entry("others_cpu_pct", r.estimate(Repetition::othersCpuPercent)),
                Map.entry("heap_after_cell_mb", r.heapAfterMB()));
        printed.forEach((column, estimate) -> {
            List<Double> csv = rows.stream().map(row -> row.get(column)).filter(v -> !v.isEmpty())
                    .map(Double::parseDouble).toList();
            // the heap after is the fork's: every row of the fork repeats it, one sample per fork
            Stats.Estimate again = Stats.interval(column.equals("heap_after_cell_mb") ? csv.subList(0, 1) : csv);
            assertThat(Fmt.estimate(again, 2)).as(column).isEqualTo(Fmt.estimate(estimate, 2));
        });
    }

    @Test
    void latencyChartsDrawTheIntervalAsErrorBars() {
        // bars on the log axis: the wider side of the interval in decades, log10(350 ÷ 320) for p99 and
        // log10(105 ÷ 102) for p50, which XChart draws as log10 of the value it is given
        var bars = (CategoryChart) Charts.charts("b", List.of(nineRepetitions())).get("b-latency");
        assertThat(bars.getSeriesMap().get("p99").getYData()).singleElement().satisfies(y -> assertThat(y
                .doubleValue()).isBetween(350.0, 351.0));
        assertThat(bars.getSeriesMap().get("p99").getExtraValues()).singleElement().satisfies(e -> assertThat(Math
                .log10(e.doubleValue())).isCloseTo(Math.log10(350.0 / 320), within(0.001)));
        assertThat(bars.getSeriesMap().get("p50").getExtraValues()).singleElement().satisfies(e -> assertThat(Math
                .log10(e.doubleValue())).isCloseTo(Math.log10(105.0 / 102), within(0.001)));
        // lines: the wider side in ms, 380 − 350 ms
        CellResult r = nineRepetitions();
        List<CellResult> sweep = List.of(r, new CellResult(2, lab.fanout.bench.model.Cell.custom().block("pool")
                .strategy(r.cell().strategy()).tomcatThreads(10).poolSize(100).concurrency(200).requests(1000)
                .warmupSeconds(3).build(), r.deployment(), r.littlesLaw(), r.repetitions(), r.heapAfterBytes(),
                r.command()));
        var xy = (XYChart) Charts.charts("b", sweep).get("b-latency");
        assertThat(java.util.Arrays.stream(xy.getSeriesMap().values().iterator().next().getExtraValues()).boxed()
                .toList()).hasSize(2).allSatisfy(e -> assertThat(e).isBetween(29.5, 30.5));
    }
}
