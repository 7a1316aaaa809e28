package lab.fanout.bench.report;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.RunResult;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.model.TailTest;
import lab.fanout.bench.model.TestCells;
import lab.fanout.bench.model.TestCells.Rep;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.style.AxesChartStyler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportTest {

    /** Two cells that differ in pool size; the virtual-thread metric present, the pool metrics absent. */
    static List<CellResult> cells() {
        return List.of(result(1, 100, 480, 500), result(2, 10, 1.5, 1.67));
    }

    static CellResult result(int index, int pool, double rps, double bound) {
        Cell cell = Cell.custom().block("pool").strategy(Strategy.VIRTUAL_THREAD_PER_TASK).tomcatThreads(10)
                .poolSize(pool).requests(1000).warmupSeconds(3).build();
        Deployment d = new Deployment("virtual", true, 10, pool, pool, 1, 2, 200);
        Load load = new Load(URI.create("http://localhost:1/x?concurrency=virtual"), 100, 1000, null, null, 20);
        Histogram h = new Histogram(3);
        h.recordValue(200_000);
        h.recordValue(250_000);
        var reps = List.of(1, 2, 3).stream().map(i -> new Repetition(i, load,
                new DriverRun(1000, 1000, (long) (rps * 2), new TreeMap<>(Map.of("HTTP 503", 3L)), 2.0, h),
                new ServerFigures(40.0, 12.0, null, null, 0.5, 4), 97.0, null, Map.<String, Double>of())).toList();
        return new CellResult(index, cell, d, new Bound(bound, "clients"), reps, Map.of(1, 80e6),
                "hey -n 1000 -c 100 'http://localhost:1/x'");
    }

    /**
     * Issue 23: RSS and OS threads in every table; heap after GC and stacks, and their slope, where NMT ran; issue 38:
     * the off-heap memory (NMT's Other: direct buffers) beside them, with its own slope.
     */
    @Test
    void memorySnapshotsGiveAColumnAndTheSlopePerRequestInFlight() {
        // heap after GC grows 50 KiB, committed stacks 10 KiB and off-heap 20 KiB per client, from 100, 2 and 4 MiB
        List<CellResult> cells = List.of(100, 1000).stream().map(c -> {
            Memory memory = new Memory(300.0 + c, 40.0 + c, new Memory.Snapshot(100 + c * 50 / 1024.0, c,
                    2 + c * 10 / 1024.0, (double) c, 4 + c * 20 / 1024.0));
            return footprint(c, List.of(Map.entry(1, memory), Map.entry(1, memory), Map.entry(1, memory)));
        }).toList();
        String md = ResultsMarkdown.render("t", List.of(), cells, Map.of(), false);
        assertThat(md).contains("| Heap after GC · stacks committed / reserved (MiB) · live virtual threads |")
                .contains("| 400 (400–400) · 140 (140–140) | 97 (97–97) · n/a | 104.9 (104.9–104.9) · 3.0 (3.0–3.0)"
                        + " / 100 (100–100) · 100 (100–100) |")
                .contains("- virtual-thread executor / virtual: 60.0 (n=1) KiB per request in flight (2 concurrencies,"
                        + " 1 fork)")
                .contains("| Off-heap committed (MiB, NMT Other: direct buffers) |")
                .contains(" / 100 (100–100) · 100 (100–100) | 6.0 (6.0–6.0) |")
                .containsSubsequence("Off-heap memory per request in flight:", "- virtual-thread executor / virtual:"
                        + " 20.0 (n=1) KiB per request in flight (2 concurrencies, 1 fork)");
        assertThat(ResultsMarkdown.render("t", List.of(), cells(), Map.of(), false))
                .doesNotContain("| Heap after GC ·").doesNotContain("per request in flight (");
        // the chart of memory against requests in flight: live (heap after GC + committed) and reserved stacks
        var memory = (org.knowm.xchart.XYChart) Charts.charts("footprint", cells).get("footprint-memory");
        assertThat(memory.getSeriesMap().values()).extracting(s -> s.getYData()[1])
                .containsExactly((100 + 1000 * 50 / 1024.0) + (2 + 1000 * 10 / 1024.0), 1000.0);
        assertThat(Charts.charts("b", cells())).doesNotContainKey("b-memory");
    }

    /** Issue 23, item 2: the slope per request in flight once per start of the services, with its interval. */
    @Test
    void theSlopeIsOnePerForkAndTheirMedianWithAnInterval() {
        // forks 1, 2, 3 grow 40, 70 and 55 KiB per client (heap after GC; no stacks), from 100 MiB
        List<CellResult> cells = List.of(100, 1000).stream().map(c -> footprint(c, List.of(40, 70, 55).stream()
                .map(kib -> Map.entry(kib == 40 ? 1 : kib == 70 ? 2 : 3, new Memory(null, null,
                        new Memory.Snapshot(100 + c * kib / 1024.0, 0, 0, null, null)))).toList())).toList();
        assertThat(ResultsMarkdown.render("t", List.of(), cells, Map.of(), false))
                .contains("- virtual-thread executor / virtual: 55.0 (40.0–70.0 · 75 %) KiB per request in flight"
                        + " (2 concurrencies, 3 forks)")
                // results from before the off-heap figure was read: neither its column nor its slope
                .doesNotContain("Off-heap");
    }

    /**
     * Issue 39: what a request waiting for a db connection holds in orders-service, per driver: its own column and
     * slope, apart from main-service's (which took no snapshot here), and the same after a trip through results.csv.
     */
    @Test
    void ordersServicesSnapshotsGiveTheirOwnColumnAndSlopePerDriver(@TempDir Path dir) {
        // orders-service grows 30 KiB per client on JDBC, 6 on R2DBC, from 80 MiB; 12 live virtual threads per 10
        List<CellResult> cells = List.of("postgres", "r2dbc").stream().flatMap(store -> List.of(50, 400).stream()
                .map(c -> ordersMemory(c, store, new Memory.Snapshot(80 + c * (store.equals("postgres") ? 30 : 6)
                        / 1024.0, 20, 2, store.equals("postgres") ? 1.2 * c : 0.0, null)))).toList();
        String md = ResultsMarkdown.render("t", List.of(), cells, Map.of(), false);
        assertThat(md).contains("Memory per request in orders-service:")
                .contains("- virtual-thread executor / virtual / db pool 20 postgres: 30.0 (n=1) KiB per request in"
                        + " flight (2 concurrencies, 1 fork)")
                .contains("- virtual-thread executor / virtual / db pool 20 r2dbc: 6.0 (n=1) KiB per request")
                .contains("| orders-service: heap after GC · stacks committed (MiB) · live virtual threads |")
                .contains("| 91.7 (n=1) · 2.0 (n=1) · 480 (n=1) |").contains("| 80.3 (n=1) · 2.0 (n=1) · 0 (n=1) |")
                // main-service read no memory: neither its column nor its slope
                .doesNotContain("| Heap after GC ·").doesNotContain("Memory per request in flight:");
        assertThat(ResultsMarkdown.render("t", List.of(), cells(), Map.of(), false))
                .doesNotContain("orders-service: heap after GC").doesNotContain("in orders-service:");
        ResultsJson.write(dir, new RunResult(null, List.of(), null, cells));
        List<CellResult> read = ResultsJson.cells(dir);
        assertThat(read).extracting(r -> r.cell().ordersJvmOptions()).allMatch(o -> o.equals(ORDERS_NMT));
        assertThat(ResultsMarkdown.render("t", List.of(), read, Map.of(), false))
                .contains("- virtual-thread executor / virtual / db pool 20 postgres: 30.0 (n=1) KiB per request");
    }

    private static final List<String> ORDERS_NMT = List.of("-Xmx1g", "-XX:NativeMemoryTracking=summary");

    /** A database-memory cell: c clients on a db pool of 20 through {@code store}, orders-service's snapshot. */
    static CellResult ordersMemory(int c, String store, Memory.Snapshot orders) {
        CellResult r = result(c, 100, 95, 100);
        Cell cell = Cell.custom().block("database-memory").strategy(r.cell().strategy()).tomcatThreads(10).poolSize(100)
                .dbPool(20).ordersStore(store).ordersJvmOptions(ORDERS_NMT).concurrency(c).requests(1000)
                .warmupSeconds(3).repetitions(1).build();
        Repetition p = r.repetitions().getFirst();
        Repetition rep = new Repetition(p.index(), p.load(), p.run(), new ServerFigures(40.0, 12.0, null, null, 0.5, 4,
                null, Memory.NONE, null, 350.0, orders), 97.0, null, Map.<String, Double>of());
        return new CellResult(c + (store.equals("r2dbc") ? 1000 : 0), cell, r.deployment().withDbPool(20),
                r.littlesLaw(), List.of(rep),
                r.heapAfterBytes(), r.command());
    }

    /** A footprint cell at {@code c} clients: one repetition per entry, in that fork, with that memory. */
    static CellResult footprint(int c, List<Map.Entry<Integer, Memory>> forkAndMemory) {
        CellResult r = result(c, 100, 480, 500);
        Cell cell = Cell.custom().block("footprint").strategy(r.cell().strategy()).tomcatThreads(10).poolSize(100)
                .concurrency(c).requests(1000).warmupSeconds(3).build();
        Repetition p = r.repetitions().getFirst();
        List<Repetition> reps = forkAndMemory.stream().map(e -> new Repetition(p.index(), p.load(), p.run(),
                new ServerFigures(40.0, 12.0, null, null, 0.5, 4, null, e.getValue()), 97.0, null,
                Map.<String, Double>of(), e.getKey(), true)).toList();
        return new CellResult(r.index(), cell, r.deployment(), r.littlesLaw(), reps, r.heapAfterBytes(), r.command());
    }

    /** Issue 23, item 5: cells that ask for pinning show Micrometer's pinned count, in all and per request. */
    @Test
    void aPinningCellShowsHowManyVirtualThreadsPinned() {
        CellResult r = result(1, 100, 480, 500);
        Cell cell = Cell.custom().block("pinning").strategy(r.cell().strategy()).tomcatThreads(10).poolSize(100)
                .query("pinning=native").requests(1000).warmupSeconds(3).build();
        CellResult pinned = new CellResult(1, cell, r.deployment(), r.littlesLaw(), r.repetitions().stream()
                .map(p -> new Repetition(p.index(), p.load(), p.run(), new ServerFigures(40.0, 12.0, null, null, 0.5, 4,
                        null, Memory.NONE, 3000.0), 97.0, null, Map.<String, Double>of())).toList(),
                r.heapAfterBytes(), r.command());
        // 3 repetitions of 1,000 answers, 3,000 pins each: 3 per request, one per call
        assertThat(ResultsMarkdown.render("t", List.of(), List.of(pinned), Map.of(), false))
                .contains("| Virtual threads pinned · per request |").contains("| 3000 (3000–3000) · 3.0 (3.0–3.0) |");
        assertThat(ResultsMarkdown.render("t", List.of(), cells(), Map.of(), false))
                .doesNotContain("| Virtual threads pinned");
    }

    /**
     * ./lab report: the tables come from the cells (a stale row is replaced), while what the CSV does not hold stays
     * as the run wrote it: title, intro, each block's knobs header (the JVM's collectors and heap, which the CSV read
     * back lacks) and chart links; a second rewrite changes nothing.
     */
    @Test
    void aRewriteTakesTheTablesFromTheCellsAndKeepsWhatTheCsvDoesNotHold() {
        List<CellResult> tuned = List.of(withJvm(cells().get(0), 1, List.of()), withJvm(cells().get(1), 1, List.of()));
        String run = ResultsMarkdown.render("fanout-lab benchmark: pool", List.of("Command: `./lab bench x`",
                "Note: a word from the run"), tuned, Map.of("pool", List.of("pool-throughput.png")), true);
        assertThat(run).contains("max heap 512 MB").contains("| 480 (480–480");
        String stale = run.replace("| 480 (480–480", "| 999 (999–999");
        List<CellResult> readBack = cells();   // as a migrated results.json gives them: no collectors, no heap
        String rewritten = Report.rewrite(stale, readBack);
        assertThat(rewritten).startsWith("# fanout-lab benchmark: pool\n\nCommand: `./lab bench x`  \nNote: a word"
                        + " from the run  \n" + Report.REWRITTEN + "  \n")
                .contains(ResultsMarkdown.INTERRUPTED).contains("| 480 (480–480").doesNotContain("999 (999")
                .contains("GC and heap          : G1 Young Generation, G1 Old Generation; max heap 512 MB")
                .contains("![pool-throughput.png](pool-throughput.png)");
        assertThat(Report.rewrite(rewritten, readBack)).isEqualTo(rewritten);
        assertThatThrownBy(() -> Report.rewrite("## Past capacity\n", readBack))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a ./lab bench report");
    }

    /** gh-13 part 3: main-service's JVM as it reported itself, in the header, or as columns when it varies. */
    @Test
    void markdownShowsMainServicesJvmInTheHeaderOrAsColumnsWhenItVaries() {
        List<CellResult> same = cells();
        String md = ResultsMarkdown.render("t", List.of(), same, Map.of(), false);
        assertThat(md).contains("JVM options          : none (JVM defaults)")
                .contains("Common pool          : parallelism 1")
                .contains("Carriers (virtual)   : n/a").contains("Cores                : 2");

        List<CellResult> tuned = List.of(
                withJvm(same.get(0), 1, List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=1")),
                withJvm(same.get(1), 8, List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=8")));
        md = ResultsMarkdown.render("t", List.of(), tuned, Map.of(), false);
        assertThat(md).contains("| Strategy (?concurrency=) | Executor | Pool size | JVM options | Common pool"
                + " | Req./Sec.")
                .contains("| -Djava.util.concurrent.ForkJoinPool.common.parallelism=8 | parallelism 8 |")
                .contains("Carriers (virtual)   : parallelism 2, maxPoolSize 256, minRunnable 1")
                .contains("GC and heap          : G1 Young Generation, G1 Old Generation; max heap 512 MB");
        // the bars of a chart stay apart by the options
        var bars = (org.knowm.xchart.CategoryChart) Charts.charts("b", tuned).get("b-throughput");
        assertThat(bars.getSeriesMap().values().iterator().next().getXData()).map(Object::toString)
                .containsExactly("virtual-thread executor / virtual pool=100 commonPool parallelism=1",
                        "virtual-thread executor / virtual pool=10 commonPool parallelism=8");
        assertThat(Report.mainServiceJvms(tuned)).hasSize(2).first().asString()
                .startsWith("main_service_jvm: options: -Djava.util.concurrent.ForkJoinPool.common.parallelism=1;"
                        + " commonPoolParallelism: 1; carriers: parallelism 2, maxPoolSize 256, minRunnable 1;"
                        + " gc: G1 Young Generation");
    }

    private static CellResult withJvm(CellResult r, int parallelism, List<String> options) {
        Deployment d = r.deployment();
        Deployment tuned = new Deployment(d.profile(), d.virtual(), d.tomcatThreads(), d.poolTotal(), d.poolPerRoute(),
                parallelism, d.cores(), d.latencyMs(), new Deployment.Jvm(2, 256, 1,
                List.of("G1 Young Generation", "G1 Old Generation"), 512L * 1024 * 1024, options));
        return new CellResult(r.index(), r.cell(), tuned, r.littlesLaw(), r.repetitions(), r.heapAfterBytes(),
                r.command());
    }

    @Test
    void markdownShowsVaryingKnobsAsColumnsAndAbsentFiguresAsNa() {
        String md = ResultsMarkdown.render("t", List.of("Machine: test"), cells(),
                Map.of("pool", List.of("pool-throughput.png")), false);
        assertThat(md).contains("| Strategy (?concurrency=) | Executor | Pool size | Req./Sec. median (CI · its"
                        + " confidence) | Bound (limit) | Efficiency % (CI)")
                .contains("Tomcat Thread Count  : 10").doesNotContain("Http Conn. Pool Size :")
                .contains("| completableFutureWithVirtualTaskExecutor | newVirtualThreadPerTaskExecutor | 100"
                        + " | 480 (480–480 · 75 %) | 500 (clients) | 96 (96–96) | 500 (clients) · n/a"
                        + " | 200 (200–200) / 250 (250–250) / 250 (250–250) / 250 (250–250) | 9 (HTTP 503: 9)")
                // no /proc figures (as for --base-url): main-service from its own counter, the rest n/a and why;
                // the heap after the cell is one reading (one fork)
                .contains("| 40 (40–40) / 12 (12–12) | n/a / n/a | 0.50 (0.50–0.50) · n/a / n/a / n/a · n/a"
                        + " | 80 (n=1) | n/a · n/a | 97 (97–97) · n/a |")
                .contains(ResultsMarkdown.CPU_UNKNOWN)
                .contains("![pool-throughput.png](pool-throughput.png)")
                .contains("Reproduce one repetition: `hey -n 1000 -c 100");
    }

    @Test
    void whereTheCpuBindsTheTableSaysCpuAndShowsWhereItWent(@TempDir Path dir) throws Exception {
        // 480 req/s (960 answers in 2 s); per repetition main 1.0 s, downstreams 0.2 / 0.25 / 0.3 s, driver 0.35 s:
        // D = (1.0 + 0.2 + 0.25 + 0.3 + 0.35) s ÷ 1,000 answers = 2.1 ms, so 2 cores allow 952 req/s:
        // tighter than 3,333
        Map<String, Double> cpu = Map.of("main-service", 1.0, "orders-service", 0.2, "products-service", 0.25,
                "accounts-service", 0.3, Repetition.DRIVER, 0.35, Repetition.HARNESS, 0.1);
        CellResult r = result(1, 2000, 480, 3333);
        r = new CellResult(1, r.cell(), r.deployment(), new Bound(3333, "pool"), r.repetitions().stream()
                .map(p -> new Repetition(p.index(), p.load(), p.run(), p.server(), 99.0, 1.0, cpu)).toList(),
                r.heapAfterBytes(), r.command());
        String md = ResultsMarkdown.render("t", List.of(), List.of(r), Map.of(), false);
        assertThat(md).contains("| " + ResultsMarkdown.CPU_COLUMN + " |")
                .contains("| 480 (480–480 · 75 %) | 952 (CPU) | 50 (50–50) | 3333 (pool) · 952 |")
                .contains("| 1.00 (1.00–1.00) · 0.20 (0.20–0.20) / 0.25 (0.25–0.25) / 0.30 (0.30–0.30)"
                        + " · 0.35 (0.35–0.35) |")
                .doesNotContain(ResultsMarkdown.CPU_UNKNOWN);
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        csv.append(r);
        CSVRecord row = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(dir.resolve("results.csv"))).getRecords().getFirst();
        assertThat(row.get("bound_limit")).isEqualTo("CPU");
        assertThat(row.get("bound_req_per_s")).isEqualTo("952.381");
        assertThat(row.get("littles_bound_limit")).isEqualTo("pool");
        assertThat(row.get("cpu_demand_ms_per_req")).isEqualTo("2.1");
        assertThat(row.get("cpu_ms_per_call_accounts")).isEqualTo("0.3");
        assertThat(row.get("cpu_ms_per_req_driver")).isEqualTo("0.35");
        assertThat(row.get("driver_cpu_s")).isEqualTo("0.35");
        assertThat(row.get("efficiency_pct")).isEqualTo("50.4");
    }

    @Test
    void csvHasARowPerRepetitionEveryColumnAndEmptyForAbsent(@TempDir Path dir) throws Exception {
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        cells().forEach(csv::append);
        List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(dir.resolve("results.csv"))).getRecords();
        assertThat(rows).hasSize(6);
        assertThat(rows.getFirst().toMap().keySet()).containsExactlyElementsOf(ResultsCsv.header());
        CSVRecord first = rows.getFirst();
        assertThat(first.get("pool_max_total")).isEqualTo("100");
        assertThat(first.get("throughput_req_per_s")).isEqualTo("480");
        assertThat(first.get("efficiency_pct")).isEqualTo("96");
        assertThat(first.get("peak_pool_leased")).isEmpty();
        assertThat(first.get("error_kinds")).isEqualTo("HTTP 503=3");
    }

    @Test
    void aTailShowsTheSlowShareBesideOneMinusOneMinusPToTheNAndDrawsIt(@TempDir Path dir) throws Exception {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(60_000, 970);
        h.recordValueWithCount(1_060_000, 30);
        List<CellResult> tail = List.of(TailTest.cell("width=1&tailRate=0.01&tailMs=1000", h, 0.0),
                TailTest.cell("width=1&tailRate=0.01&tailMs=1000&hedgeAfterMs=100", h, 12.0));
        String md = ResultsMarkdown.render("t", List.of(), tail, Map.of(), false);
        assertThat(md).contains("| Strategy (?concurrency=) | Executor | Query | Slow share (95 % CI) | "
                        + "1 − (1 − p)^N (hedged: 1 − (1 − p²)^N) | p50 / p99 / p99.9 (ms) | Hedges: extra calls % |")
                .contains("| width=1&tailRate=0.01&tailMs=1000&hedgeAfterMs=100 | 3.0 % (2.1–4.3) | "
                        + "3.0 % (N=3) → 0.03 % | 60 (n=1) / 1061 (n=1) / 1061 (n=1) | 0.4 (n=1) |");
        assertThat(Charts.write(dir, "tail", tail)).contains("tail-slow-share.png");
        // the hedged cell's bar expects 1 − (1 − p²)^N, not the unhedged 3.0 %, on a log axis where 0.03 % shows
        var chart = (org.knowm.xchart.CategoryChart) Charts.charts("tail", tail).get("tail-slow-share");
        assertThat(chart.getStyler().isYAxisLogarithmic()).isTrue();
        assertThat(chart.getSeriesMap().get("expected: 1 − (1 − p)^N, hedged 1 − (1 − p²)^N").getYData())
                .extracting(Number::doubleValue).satisfiesExactly(
                        unhedged -> assertThat(unhedged).isCloseTo(100 * (1 - Math.pow(0.99, 3)), within(1e-9)),
                        hedged -> assertThat(hedged).isCloseTo(100 * (1 - Math.pow(1 - 1e-4, 3)), within(1e-9)));
        // without a tail, no tail columns
        assertThat(ResultsMarkdown.render("t", List.of(), cells(), Map.of(), false)).doesNotContain("| Slow share");
    }

    /** Issue 70 item 2: a cell that degrades at the deadline shows its partial answers' share, the others none. */
    @Test
    void aCellThatDegradesAtTheDeadlineShowsItsPartialAnswersShare() {
        String partial = "width=1&tailRate=0.01&tailMs=1000&onDeadline=partial";
        List<CellResult> cells = List.of(
                TestCells.cell("scopeFork", "virtual").block("tail-partial").clients(8).query(partial)
                        .rep(Rep.of(1, 100).partial(2.5)).rep(Rep.of(1, 100).partial(3.5)).build(1),
                TestCells.cell("scopeFork", "virtual").block("tail-partial").clients(8)
                        .query("width=1&tailRate=0.01&tailMs=1000").rep(Rep.of(1, 100)).build(2));
        String md = ResultsMarkdown.render("t", List.of(), cells, Map.of(), false);
        assertThat(md).contains("| Query | Partial answers % (onDeadline=partial) | Slow share (95 % CI) |")
                .contains("| " + partial + " | 3.0 (2.5–3.5) |")
                .contains("| width=1&tailRate=0.01&tailMs=1000 | n/a |");
        assertThat(ResultsMarkdown.render("t", List.of(), cells.subList(1, 2), Map.of(), false))
                .doesNotContain("Partial answers");
    }

    /** The reactive strategy's client is main-service's to say: its default moved to Reactor Netty's on 2026-12-07. */
    @Test
    void aReactiveCellsExecutorNamesTheClientMainServiceReported() {
        List<CellResult> cells = List.of(
                TestCells.cell("reactive", "virtual").reactiveClient("reactor-netty").rep(Rep.of(1, 100)).build(1),
                TestCells.cell("reactive", "virtual").clients(200).reactiveClient("httpclient5").rep(Rep.of(1, 100))
                        .build(2),
                TestCells.cell("reactive", "virtual").clients(300).rep(Rep.of(1, 100)).build(3),
                TestCells.cell("scopeFork", "virtual").reactiveClient("reactor-netty").rep(Rep.of(1, 100)).build(4));
        assertThat(ResultsMarkdown.render("t", List.of(), cells, Map.of(), false))
                .contains("| reactive | WebClient (Reactor Netty) | 100 |")
                .contains("| reactive | WebClient (HttpClient 5 async) | 200 |")
                .contains("| reactive | WebClient (client not recorded) | 300 |")
                .contains("| scopeFork | StructuredTaskScope | 100 |");
    }

    @Test
    void aConcurrencySweepIsDrawnAgainstConcurrency(@TempDir Path dir) throws Exception {
        List<CellResult> sweep = List.of(result(1, 100, 48, 50), result(2, 100, 90, 100)).stream()
                .map(r -> new CellResult(r.index(), Cell.custom().block("scale").strategy(r.cell().strategy())
                        .tomcatThreads(10).poolSize(100).concurrency(r.index() * 10).requests(1000).warmupSeconds(3)
                        .build(), r.deployment(), r.littlesLaw(), r.repetitions(), r.heapAfterBytes(), r.command()))
                .toList();
        assertThat(Charts.write(dir, "scale", sweep)).hasSize(3)
                .allSatisfy(f -> assertThat(dir.resolve(f)).isNotEmptyFile());
        assertThat(ResultsMarkdown.render("t", List.of(), sweep, Map.of(), false))
                .contains("| Strategy (?concurrency=) | Executor | Concurrency Level | Req./Sec.");
    }

    @Test
    void latencyIsDrawnOnALogarithmicAxisSoThatTenSecondAnswersDoNotFlattenTheRest() {
        // the common pool answers after 2.4 s at 4 clients (10 s at 100: the deadline), the parallel strategies
        // after 0.2 s
        List<CellResult> bars = List.of(result(1, 100, 480, 500), withLatency(result(2, 100, 1.6, 1.67), 10_000_000));
        List<CellResult> sweep = List.of(result(1, 100, 48, 50), result(2, 100, 90, 100)).stream()
                .map(r -> new CellResult(r.index(), Cell.custom().block("scale").strategy(r.cell().strategy())
                        .tomcatThreads(10).poolSize(100).concurrency(r.index() * 10).requests(1000).warmupSeconds(3)
                        .build(), r.deployment(), r.littlesLaw(), r.repetitions(), r.heapAfterBytes(), r.command()))
                .toList();
        for (List<CellResult> cells : List.of(bars, sweep)) {
            var charts = Charts.charts("b", cells);
            assertThat(((AxesChartStyler) charts.get("b-latency").getStyler()).isYAxisLogarithmic()).isTrue();
            assertThat(((AxesChartStyler) charts.get("b-throughput").getStyler()).isYAxisLogarithmic()).isFalse();
        }
    }

    /** A cell with no answered request: its latency is NaN, which a log axis cannot draw (and must not fail on). */
    @Test
    void aCellWithoutAnswersStillDraws(@TempDir Path dir) {
        CellResult silent = withLatency(result(2, 100, 0, 1.67), 0);
        assertThat(silent.latencyMs(50)).isNaN();
        assertThat(Charts.write(dir, "b", List.of(result(1, 100, 480, 500), silent))).hasSize(3);
    }

    /** {@code r} with every request answered after {@code micros} µs (none when 0). */
    static CellResult withLatency(CellResult r, long micros) {
        Histogram h = new Histogram(3);
        if (micros > 0) {
            h.recordValue(micros);
        }
        List<Repetition> reps = r.repetitions().stream().map(p -> new Repetition(p.index(), p.load(),
                new DriverRun(p.run().requested(), micros > 0 ? p.run().answered() : 0, p.run().ok(), p.run().errors(),
                        p.run().windowSeconds(), h), p.server(), p.machineBusyPercent(), p.othersCpuPercent(),
                p.cpuSeconds())).toList();
        return new CellResult(r.index(), r.cell(), r.deployment(), r.littlesLaw(), reps, r.heapAfterBytes(),
                r.command());
    }

    @Test
    void chartsArePngs(@TempDir Path dir) throws Exception {
        List<String> files = Charts.write(dir, "pool", cells());
        assertThat(files).containsExactly("pool-throughput.png", "pool-latency.png", "pool-efficiency.png");
        for (String f : files) {
            byte[] png = Files.readAllBytes(dir.resolve(f));
            assertThat(png).hasSizeGreaterThan(1000).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
        }
    }
}
