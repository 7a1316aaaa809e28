package lab.fanout.bench.report;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.SchedulerFigures;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.model.Tail;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * {@code results.csv}: one row per cell and repetition, every knob a column, units in the column names. Appended
 * cell by cell, so an interrupted run keeps what it finished; read back ({@link #read}, {@link #rows}) only where no
 * results.json stands beside it ({@link ResultsJson#rows}).
 */
public final class ResultsCsv {

    /** Column name to value; the order is the file's. */
    private static final Map<String, Function<Row, Object>> COLUMNS = new LinkedHashMap<>();

    private record Row(CellResult cell, Repetition rep, String target, String driver) {
    }

    static {
        col("block", r -> r.cell.cell().block());
        col("cell", r -> r.cell.index());
        col("repetition", r -> r.rep.index());
        col("target", Row::target);
        col("driver", r -> r.rep.run().offeredPerSecond() != null ? "vegeta" : r.driver);
        col("model", r -> r.cell.cell().ratePerSecond() == null ? "closed" : "open");
        col("strategy", r -> r.cell.cell().strategy());
        col("profile", r -> r.cell.deployment().profile());
        col("virtual_request_threads", r -> r.cell.deployment().virtual());
        col("tomcat_threads_max", r -> r.cell.deployment().tomcatThreads());
        col("pool_max_total", r -> r.cell.deployment().poolTotal());
        col("pool_max_per_route", r -> r.cell.deployment().poolPerRoute());
        col("db_pool", r -> r.cell.deployment().dbPool());   // orders-service's db pool; empty: the memory store
        col("orders_store", r -> r.cell.cell().ordersStore());   // its driver: postgres (JDBC) or r2dbc
        col("bounded_pool_threads", r -> r.cell.deployment().boundedPool());   // empty: not reported
        col("common_pool_parallelism", r -> r.cell.deployment().parallelism());
        col("carrier_parallelism", r -> r.cell.deployment().jvm().carrierParallelism());
        col("carrier_max_pool_size", r -> r.cell.deployment().jvm().carrierMaxPoolSize());
        col("jvm_options", r -> String.join(" ", r.cell.deployment().jvm().options()));
        col("cores", r -> r.cell.deployment().cores());
        col("concurrency", r -> r.cell.cell().concurrency());
        col("latency_ms", r -> r.cell.deployment().latencyMs());
        col("offered_rate_req_per_s", r -> r.cell.cell().ratePerSecond());
        col("query", r -> r.cell.cell().query());
        col("requests", r -> r.rep.load().requests());
        col("warmup_s", r -> r.cell.cell().warmupSeconds());
        col("timeout_s", r -> r.cell.cell().timeoutSeconds());
        col("window_s", r -> r.rep.run().windowSeconds());
        col("answered", r -> r.rep.run().answered());
        col("ok", r -> r.rep.run().ok());
        col("errors", r -> r.rep.run().errorCount());
        col("error_kinds", r -> r.rep.run().errors().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("; ")));
        col("throughput_req_per_s", r -> r.rep.run().throughput());
        col("p50_ms", r -> pct(r, 50));
        col("p90_ms", r -> pct(r, 90));
        col("p99_ms", r -> pct(r, 99));
        col("max_ms", r -> pct(r, 100));
        col("p99_9_ms", r -> pct(r, 99.9));
        // the cell's, over all its repetitions' requests: a share of a few slow requests needs them all
        col("slow_share_cell_pct", r -> r.cell.slowShare().map(v -> 100 * v[1]).orElse(null));
        col("slow_share_cell_ci95_low_pct", r -> r.cell.slowShare().map(v -> 100 * v[0]).orElse(null));
        col("slow_share_cell_ci95_high_pct", r -> r.cell.slowShare().map(v -> 100 * v[2]).orElse(null));
        col("slow_share_expected_pct", r -> r.cell.cell().tail().map(t -> 100 * t.expectedSlowShare()).orElse(null));
        col("slow_share_expected_hedged_pct", r -> r.cell.cell().tail().filter(Tail::hedged)
                .map(t -> 100 * t.expectedSlowShareHedged()).orElse(null));
        col("hedges_sent", r -> r.rep.server().hedgesSent());
        col("bound_req_per_s", r -> r.cell.bound().requestsPerSecond());
        col("bound_limit", r -> r.cell.bound().limit());
        col("efficiency_pct", r -> 100 * r.cell.bound().efficiency(r.rep.run().throughput()));
        col("peak_platform_threads", r -> r.rep.server().peakPlatformThreads());
        col("peak_virtual_threads_mounted_queued", r -> r.rep.server().peakVirtualThreads());
        col("peak_pool_leased", r -> r.rep.server().peakPoolLeased());
        col("peak_pool_pending", r -> r.rep.server().peakPoolPending());
        col("db_pending_peak", r -> r.rep.server().peakDbPending());   // HikariCP's or r2dbc-pool's, on PostgreSQL
        col("main_cpu_s", r -> r.rep.server().cpuSeconds());
        // read once per fork, after its last repetition: every row of the fork carries it
        col("heap_after_cell_mb", r -> r.cell.heapAfterBytes().containsKey(r.rep.fork())
                ? r.cell.heapAfterBytes().get(r.rep.fork()) / 1e6 : null);
        col("machine_cpu_busy_pct", r -> r.rep.machineBusyPercent());
        col("others_cpu_pct", r -> r.rep.othersCpuPercent());
        col("driver_cpu_s", r -> r.rep.cpuSeconds().get(Repetition.DRIVER));
        // added later, so appended: the CPU bound's columns, then the open model's
        col("littles_bound_req_per_s", r -> r.cell.littlesLaw().requestsPerSecond());
        col("littles_bound_limit", r -> r.cell.littlesLaw().limit());
        col("cpu_bound_req_per_s", r -> r.cell.bound().cpuCeiling());
        col("cpu_demand_ms_per_req",
                r -> r.cell.cpuSecondsPerRequest() == null ? null : 1000 * r.cell.cpuSecondsPerRequest());
        col("cpu_ms_per_req_main", r -> r.rep.cpuMsPerAnswer(ServiceDefaults.MAIN));
        col("cpu_ms_per_call_orders", r -> r.rep.cpuMsPerAnswer("orders-service"));
        col("cpu_ms_per_call_products", r -> r.rep.cpuMsPerAnswer("products-service"));
        col("cpu_ms_per_call_accounts", r -> r.rep.cpuMsPerAnswer("accounts-service"));
        col("cpu_ms_per_req_driver", r -> r.rep.cpuMsPerAnswer(Repetition.DRIVER));
        col("harness_cpu_s", r -> r.rep.cpuSeconds().get(Repetition.HARNESS));
        // open rows count latency (p50_ms .. max_ms) from each request's due time, closed rows from the send
        col("latency_from", r -> r.rep.run().offeredPerSecond() != null ? "due time" : "send");
        col("achieved_rate_req_per_s", r -> r.rep.run().throughput());
        col("sent_p50_ms", r -> sentPct(r, 50));
        col("sent_p99_ms", r -> sentPct(r, 99));
        col("command", r -> r.cell.command());
        // ./lab bench --forks: which start of the services; a warm-up stopped by its cap leaves its figures unsettled
        col("fork", r -> r.rep.fork());
        col("warmup_settled", r -> r.rep.warmupSettled());
        // main-service's memory (issue 23): /proc every scrape; heap and stacks mid-run with NativeMemoryTracking
        col("rss_peak_mib", r -> r.rep.server().memory().peakRssMiB());
        col("os_threads_peak", r -> r.rep.server().memory().peakOsThreads());
        col("heap_after_gc_mib", r -> snapshot(r, Memory.Snapshot::heapAfterGcMiB));
        col("thread_stacks_committed_mib", r -> snapshot(r, Memory.Snapshot::stackCommittedMiB));
        col("thread_stacks_reserved_mib", r -> snapshot(r, Memory.Snapshot::stackReservedMiB));
        col("live_virtual_threads", r -> snapshot(r, Memory.Snapshot::virtualThreads));
        // NMT's "Other", committed: direct buffers (Reactor Netty's), which the heap figure does not count
        col("off_heap_committed_mib", r -> snapshot(r, Memory.Snapshot::offHeapMiB));
        col("virtual_threads_pinned", r -> r.rep.server().pinned());
        // false: main-service spent under 80 % of the query's cpuMs (CellResult.cpuSpent); ./lab compare skips it
        col("cpu_spent", r -> r.cell.cpuSpent());
        // orders-service's memory (issue 39: what a request waiting for a db connection holds), when its JVM options
        // carry Native Memory Tracking: the same snapshot as main-service's above
        col("orders_jvm_options", r -> String.join(" ", r.cell.cell().ordersJvmOptions()));
        col("orders_heap_after_gc_mib", r -> ordersSnapshot(r, Memory.Snapshot::heapAfterGcMiB));
        col("orders_thread_stacks_committed_mib", r -> ordersSnapshot(r, Memory.Snapshot::stackCommittedMiB));
        col("orders_thread_stacks_reserved_mib", r -> ordersSnapshot(r, Memory.Snapshot::stackReservedMiB));
        col("orders_live_virtual_threads", r -> ordersSnapshot(r, Memory.Snapshot::virtualThreads));
        col("orders_off_heap_committed_mib", r -> ordersSnapshot(r, Memory.Snapshot::offHeapMiB));
        // a tail cell's answers past its slow threshold, per repetition: with answered, the slow share of any set of
        // repetitions (forks added in a later sitting, ./lab report), which the percentiles above cannot give
        col("slow_answers", r -> r.cell.cell().tail().map(t -> r.rep.run().slowerThan(
                t.slowAboveMs(r.cell.deployment().latencyMs()))[0]).orElse(null));
        // issue 66: main-service's own CPU (--main-cpus), the load side's busy share, its context switches, throttling
        col("main_cpus", r -> scheduler(r, SchedulerFigures::mainCpus));
        col("cell_main_cpus", r -> r.cell.cell().mainCpus());   // a block's mainCpus axis; empty: the run's
        col("load_side_busy_pct", r -> scheduler(r, SchedulerFigures::loadSideBusyPercent));
        col("load_side_bound", r -> r.cell.loadSideBound());   // true: ./lab compare and verdicts skip the cell
        col("voluntary_switches", r -> scheduler(r, SchedulerFigures::voluntarySwitches));
        col("involuntary_switches", r -> scheduler(r, SchedulerFigures::involuntarySwitches));
        col("throttled_periods", r -> scheduler(r, SchedulerFigures::throttledPeriods));
        col("throttled_s", r -> scheduler(r, SchedulerFigures::throttledSeconds));
    }

    public static List<String> header() {
        return List.copyOf(COLUMNS.keySet());
    }

    private final Path file;
    private final String target;
    private final String driver;

    /** @param driver the closed loop's driver (hey, ab); open-model rows name vegeta */
    public ResultsCsv(Path file, String target, String driver) {
        this.file = file;
        this.target = target;
        this.driver = driver;
    }

    public synchronized void append(CellResult cell) {
        boolean fresh = !Files.exists(file);
        try (Writer w = Files.newBufferedWriter(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
             CSVPrinter csv = CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get().print(w)) {
            if (fresh) {
                csv.printRecord(header());
            }
            for (Repetition rep : cell.repetitions()) {
                Row row = new Row(cell, rep, target, driver);
                csv.printRecord(COLUMNS.values().stream().map(f -> format(f.apply(row))).toList());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * @param cells a result's cells, as {@link ResultsJson#cells} reads them
     * @return a row per cell and repetition, the columns this CSV writes, computed from the cells; the run-wide
     *         target and driver columns left "" (they are the run's, {@code RunResult.Knobs})
     */
    static List<ResultRow> rows(List<CellResult> cells) {
        List<ResultRow> rows = new ArrayList<>();
        for (CellResult cell : cells) {
            for (Repetition rep : cell.repetitions()) {
                Row row = new Row(cell, rep, "", "");
                Map<String, String> columns = new LinkedHashMap<>();
                COLUMNS.forEach((name, value) -> columns.put(name, String.valueOf(format(value.apply(row)))));
                rows.add(new ResultRow(columns));
            }
        }
        return rows;
    }

    /**
     * @param result a results folder of ./lab bench (holding results.csv) or such a CSV
     * @return its rows as the file holds them, in file order (the columns it lacks not mapped)
     * @throws IllegalArgumentException as {@link #records}
     */
    static List<ResultRow> rows(Path result) {
        return records(result).stream().map(r -> new ResultRow(r.toMap())).toList();
    }

    /**
     * @param result a results folder of ./lab bench (holding results.csv) or such a CSV
     * @return its rows, in file order
     * @throws IllegalArgumentException when the file is missing or is not a results.csv
     * @throws UncheckedIOException     when it cannot be read
     */
    private static List<CSVRecord> records(Path result) {
        Path csv = Files.isDirectory(result) ? result.resolve("results.csv") : result;
        if (!Files.isRegularFile(csv)) {
            throw new IllegalArgumentException(csv + " does not exist: give a results folder of ./lab bench (it holds"
                    + " results.csv) or such a CSV");
        }
        try (Reader in = Files.newBufferedReader(csv)) {
            List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)
                    .getRecords();
            if (rows.stream().anyMatch(row -> !row.isMapped("throughput_req_per_s") || !row.isMapped("p99_ms"))) {
                throw new IllegalArgumentException(csv + " is not a results.csv of ./lab bench (no "
                        + "throughput_req_per_s or p99_ms column)");
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a results.csv back into the cells it was written from, as far as it holds them ({@code ./lab charts}):
     * one CellResult per block and cell, its rows (repetitions, every fork) in file order. A repetition's latency
     * histogram holds only the percentiles the CSV keeps (p50, p90, p99, p99.9, max), each at its rank among 1,000
     * values, so that those read back within HdrHistogram's 0.1 %; other percentiles are not there, and a tail's
     * slow answers come from their own column ({@link #slowAnswers}). A role's CPU seconds are its CPU ms per answer
     * × answers. Columns an older CSV lacks read as absent (fork 1, warm-up settled, no memory); the load's URL is the
     * file's.
     *
     * @throws IllegalArgumentException as {@link #rows}, or naming the row whose strategy or number cannot be read
     */
    public static List<CellResult> read(Path result) {
        Map<String, List<CSVRecord>> cells = records(result).stream().collect(Collectors.groupingBy(
                r -> r.get("block") + "#" + r.get("cell"), LinkedHashMap::new, Collectors.toList()));
        return cells.values().stream().map(rows -> cell(result, rows)).toList();
    }

    private static CellResult cell(Path result, List<CSVRecord> rows) {
        CSVRecord r = rows.getFirst();
        try {
            List<String> options = options(r, "jvm_options");
            Integer threads = whole(r, "tomcat_threads_max");   // empty on Reactor Netty
            int pool = integer(r, "pool_max_total");
            int latency = integer(r, "latency_ms");
            Integer dbPool = whole(r, "db_pool");
            Deployment deployment = new Deployment(r.get("profile"),
                    Boolean.parseBoolean(r.get("virtual_request_threads")), threads, pool,
                    integer(r, "pool_max_per_route"), integer(r, "common_pool_parallelism"), integer(r, "cores"),
                    latency,
                    new Deployment.Jvm(whole(r, "carrier_parallelism"), whole(r, "carrier_max_pool_size"), null,
                            List.of(), null, options), dbPool, whole(r, "bounded_pool_threads"));
            Double rate = number(r, "offered_rate_req_per_s");
            long forks = rows.stream().map(row -> text(row, "fork")).distinct().count();
            Cell cell = new Cell(r.get("block"), Strategy.parse(r.get("strategy")), r.get("profile"), threads, pool,
                    dbPool, text(r, "orders_store"), options, options(r, "orders_jvm_options"),
                    integer(r, "concurrency"), latency, text(r, "query"),
                    rate,
                    whole(r, "requests"), null, integer(r, "warmup_s"), (int) (rows.size() / forks),
                    integer(r, "timeout_s"), text(r, "cell_main_cpus").isEmpty() ? null : text(r, "cell_main_cpus"));
            Bound littlesLaw = r.isMapped("littles_bound_req_per_s")
                    ? new Bound(number(r, "littles_bound_req_per_s"), r.get("littles_bound_limit"))
                    : new Bound(number(r, "bound_req_per_s"), r.get("bound_limit"));
            Map<Integer, Double> heapAfter = new TreeMap<>();
            rows.stream().filter(row -> number(row, "heap_after_cell_mb") != null).forEach(row -> heapAfter.put(
                    fork(row), number(row, "heap_after_cell_mb") * 1e6));
            List<Long> slow = slowAnswers(cell, rows);
            return new CellResult(integer(r, "cell"), cell, deployment, littlesLaw,
                    IntStream.range(0, rows.size()).mapToObj(i -> repetition(result, cell, rows.get(i), slow.get(i)))
                            .toList(), heapAfter, r.get("command"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(result + ", row " + r.getRecordNumber() + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return per row, a tail cell's answers past its slow threshold: its slow_answers column, or in a CSV from
     *         before that column (2026-12-05) the cell's slow_share_cell_pct of its answers spread over the rows by
     *         their answers, rounded cumulatively so that the sum, all a slow share uses, is the cell's; nulls
     *         without a tail
     */
    private static List<Long> slowAnswers(Cell cell, List<CSVRecord> rows) {
        if (cell.tail().isEmpty()) {
            return Collections.nCopies(rows.size(), null);
        }
        if (rows.stream().allMatch(row -> number(row, "slow_answers") != null)) {
            return rows.stream().map(row -> number(row, "slow_answers").longValue()).toList();
        }
        double share = Objects.requireNonNullElse(number(rows.getFirst(), "slow_share_cell_pct"), 0.0) / 100;
        List<Long> spread = new ArrayList<>();
        long answered = 0;
        long given = 0;
        for (CSVRecord row : rows) {
            answered += integer(row, "answered");
            long upTo = Math.round(share * answered);
            spread.add(upTo - given);
            given = upTo;
        }
        return spread;
    }

    private static Repetition repetition(Path result, Cell cell, CSVRecord r, Long slowAnswers) {
        long answered = integer(r, "answered");
        boolean open = cell.ratePerSecond() != null;
        Double requests = number(r, "requests");
        Load load = new Load(result.toUri(), cell.concurrency(), requests == null ? null : requests.intValue(),
                requests == null ? (int) Math.ceil(number(r, "window_s")) : null, cell.ratePerSecond(),
                cell.timeoutSeconds());
        TreeMap<String, Long> errors = new TreeMap<>();
        for (String kind : text(r, "error_kinds").split("; ")) {
            if (!kind.isEmpty()) {   // e.g. HTTP 503=3
                int eq = kind.lastIndexOf('=');
                errors.put(kind.substring(0, eq), Long.parseLong(kind.substring(eq + 1)));
            }
        }
        // the window from ok ÷ req/s: window_s's 1 ms rounding would move req/s off the CSV's figure
        Double throughput = number(r, "throughput_req_per_s");
        double window = throughput != null && throughput > 0 ? integer(r, "ok") / throughput : number(r, "window_s");
        DriverRun run = new DriverRun(requests == null ? answered : requests.longValue(), answered, integer(r, "ok"),
                errors, window, percentiles(number(r, "p50_ms"), number(r, "p90_ms"),
                number(r, "p99_ms"), number(r, "p99_9_ms"), number(r, "max_ms")), open ? cell.ratePerSecond() : null,
                open ? percentiles(number(r, "sent_p50_ms"), null, number(r, "sent_p99_ms"), null, null) : null,
                slowAnswers);
        Memory.Snapshot snapshot = snapshot(r, "");
        Memory.Snapshot orders = snapshot(r, "orders_");
        ServerFigures server = new ServerFigures(number(r, "peak_platform_threads"),
                number(r, "peak_virtual_threads_mounted_queued"), number(r, "peak_pool_leased"),
                number(r, "peak_pool_pending"), number(r, "main_cpu_s"), 0, number(r, "hedges_sent"),
                new Memory(number(r, "rss_peak_mib"), number(r, "os_threads_peak"), snapshot),
                number(r, "virtual_threads_pinned"), number(r, "db_pending_peak"), orders);
        return new Repetition(integer(r, "repetition"), load, run, server, number(r, "machine_cpu_busy_pct"),
                number(r, "others_cpu_pct"), cpuSeconds(r, answered), fork(r),
                !text(r, "warmup_settled").equals("false"), schedulerFigures(r));
    }

    /** @return a service's memory snapshot from the columns named {@code prefix + heap_after_gc_mib} etc., or null */
    private static Memory.Snapshot snapshot(CSVRecord r, String prefix) {
        Double heap = number(r, prefix + "heap_after_gc_mib");
        return heap == null ? null : new Memory.Snapshot(heap, number(r, prefix + "thread_stacks_reserved_mib"),
                number(r, prefix + "thread_stacks_committed_mib"), number(r, prefix + "live_virtual_threads"),
                number(r, prefix + "off_heap_committed_mib"));
    }

    /** @return a column of JVM options split at the spaces they were joined with; empty when none (or no column) */
    private static List<String> options(CSVRecord r, String column) {
        return text(r, column).isEmpty() ? List.of() : List.of(text(r, column).split(" "));
    }

    /** @return role to CPU seconds: its CPU ms per answer × {@code answered}; the harness's as written */
    private static Map<String, Double> cpuSeconds(CSVRecord r, long answered) {
        Map<String, Double> cpu = new LinkedHashMap<>();
        Map.of(ServiceDefaults.MAIN, "cpu_ms_per_req_main", "orders-service", "cpu_ms_per_call_orders",
                "products-service", "cpu_ms_per_call_products", "accounts-service", "cpu_ms_per_call_accounts",
                Repetition.DRIVER, "cpu_ms_per_req_driver").forEach((role, column) -> {
                    Double ms = number(r, column);
                    if (ms != null) {
                        cpu.put(role, ms * answered / 1000);
                    }
                });
        if (number(r, "harness_cpu_s") != null) {
            cpu.put(Repetition.HARNESS, number(r, "harness_cpu_s"));
        }
        return cpu;
    }

    /**
     * @return µs: 1,000 values, 500 at p50, 400 at p90, 90 at p99, 9 at p99.9 and 1 at max (ms), so that each reads
     *         back at its percentile; an absent one takes the next one's place; none at all: an empty histogram;
     *         tagged {@link DriverRun#FROM_PERCENTILES}
     */
    private static Histogram percentiles(Double... ms) {
        Histogram h = DriverRun.histogram();
        h.setTag(DriverRun.FROM_PERCENTILES);
        int[] counts = {500, 400, 90, 9, 1};
        Double next = null;
        for (int i = ms.length - 1; i >= 0; i--) {
            next = ms[i] != null ? ms[i] : next;
            if (next != null) {
                h.recordValueWithCount(Math.round(next * 1000), counts[i]);
            }
        }
        return h;
    }

    private static int fork(CSVRecord r) {
        return text(r, "fork").isEmpty() ? 1 : integer(r, "fork");
    }

    /** @return the column's text; "" when the CSV lacks the column (an older run) */
    private static String text(CSVRecord r, String column) {
        return r.isMapped(column) ? r.get(column) : "";
    }

    /** @return the column's number; null when empty or absent */
    private static Double number(CSVRecord r, String column) {
        String v = text(r, column);
        return v.isEmpty() ? null : Double.valueOf(v);
    }

    private static Integer whole(CSVRecord r, String column) {
        Double v = number(r, column);
        return v == null ? null : v.intValue();
    }

    /** @throws IllegalArgumentException naming the column when it is empty */
    private static int integer(CSVRecord r, String column) {
        Integer v = whole(r, column);
        if (v == null) {
            throw new IllegalArgumentException("column " + column + " is empty");
        }
        return v;
    }

    private static void col(String name, Function<Row, Object> value) {
        COLUMNS.put(name, value);
    }

    private static Double snapshot(Row r, Function<Memory.Snapshot, Double> figure) {
        Memory.Snapshot s = r.rep.server().memory().snapshot();
        return s == null ? null : figure.apply(s);
    }

    private static Object scheduler(Row r, Function<SchedulerFigures, Object> figure) {
        return r.rep.scheduler() == null ? null : figure.apply(r.rep.scheduler());
    }

    /** @return the scheduler columns as written, or null in a CSV from before them (or with all empty) */
    private static SchedulerFigures schedulerFigures(CSVRecord r) {
        SchedulerFigures f = new SchedulerFigures(number(r, "main_cpus"), number(r, "load_side_busy_pct"),
                count(r, "voluntary_switches"), count(r, "involuntary_switches"), count(r, "throttled_periods"),
                number(r, "throttled_s"));
        return f.equals(new SchedulerFigures(null, null, null, null, null, null)) ? null : f;
    }

    private static Long count(CSVRecord r, String column) {
        Double v = number(r, column);
        return v == null ? null : v.longValue();
    }

    private static Double ordersSnapshot(Row r, Function<Memory.Snapshot, Double> figure) {
        Memory.Snapshot s = r.rep.server().ordersMemory();
        return s == null ? null : figure.apply(s);
    }

    /** @return the percentile in ms; empty when the repetition has no answer */
    private static Object pct(Row r, double p) {
        return Stats.percentileMs(r.rep.run().latencyMicros(), p);
    }

    /** Open model: vegeta's own latency, from the actual send (what the closed loop reports), ms. */
    private static Object sentPct(Row r, double p) {
        return Stats.percentileMs(r.rep.run().sendLatencyMicros(), p);
    }

    /** Absent figures stay empty (never 0); numbers get 3 decimals at most. */
    private static Object format(Object v) {
        if (v instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? "" : String.format(Locale.ROOT, "%.3f", d).replaceFirst("\\.?0+$", "");
        }
        return v == null ? "" : v;
    }
}
