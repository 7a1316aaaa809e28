package lab.fanout.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.SchedulerFigures;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.Tail;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * {@code results.csv}: one row per cell and repetition, every knob a column, units in the column names, appended cell
 * by cell: a view of the cells for spreadsheets, never read back into them (results.json is, {@link ResultsJson}).
 * Its columns, computed from the cells ({@link #rows(List)}), are what {@code ./lab compare} and {@code verdicts}
 * match and pool.
 */
public final class ResultsCsv {

    /** Column name to value; the order is the file's. */
    private static final Map<String, Function<Row, Object>> COLUMNS = new LinkedHashMap<>();

    private record Row(CellResult cell, Repetition rep, String target, String driver) {
    }

    /**
     * @return the cell's rows, fork by fork: a row's cell-wide columns (its bound, efficiency, slow share, CPU spent,
     *         load side) are its fork's, as the run wrote them after each fork, not the pool of every fork's
     */
    private static List<Row> rows(CellResult cell, String target, String driver) {
        return cell.byFork().stream().flatMap(fork -> fork.repetitions().stream()
                .map(rep -> new Row(fork, rep, target, driver))).toList();
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
        col("partial_answers", r -> r.rep.server().partialAnswers());
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
            for (Row row : rows(cell, target, driver)) {
                csv.printRecord(COLUMNS.values().stream().map(f -> format(f.apply(row))).toList());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * @param cells a result's cells, as {@link ResultsJson#cells} reads them
     * @return a row per cell and repetition, the columns this CSV writes, computed from the cells as a run appends
     *         them (each fork's own, {@link #rows(CellResult, String, String)}); the run-wide target and driver
     *         columns left "" (they are the run's, {@code RunResult.Knobs})
     */
    static List<ResultRow> rows(List<CellResult> cells) {
        List<ResultRow> rows = new ArrayList<>();
        for (CellResult cell : cells) {
            for (Row row : rows(cell, "", "")) {
                Map<String, String> columns = new LinkedHashMap<>();
                COLUMNS.forEach((name, value) -> columns.put(name, String.valueOf(format(value.apply(row)))));
                rows.add(new ResultRow(columns));
            }
        }
        return rows;
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
