package lab.fanout.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Tail;

/**
 * {@code results.md}: per block a knobs header and, per profile, a table in the seed's shape (Concurrency, Executor,
 * Req./Sec.) with the bound, efficiency, latency percentiles and main-service's own figures beside each throughput.
 * Knobs that vary inside a block become columns; the others go to its header.
 */
public final class ResultsMarkdown {

    /** The first column: the strategy by the value {@code ?concurrency=} takes, as the README and docs name it. */
    static final String STRATEGY = "Strategy (?concurrency=)";

    /** A column: its header and its cell. */
    private record Column(String header, Function<CellResult, Object> value) {
    }

    /** A knob that can vary inside a block: its label in the block's header, and its column. */
    private record Knob(String label, Column column) {
        Knob(String label, String header, Function<CellResult, Object> value) {
            this(label, new Column(header, value));
        }
    }

    private static final List<Knob> KNOBS = List.of(
            new Knob("Load model          ", "Model", r -> r.cell().ratePerSecond() == null
                    ? "closed loop (latency from the send)"
                    : "open model, vegeta (latency from each request's due time)"),
            new Knob("Tomcat Thread Count ", "Tomcat threads", r -> r.deployment().tomcatThreads() == null
                    ? "none (Reactor Netty)" : r.deployment().tomcatThreads()),
            new Knob("Http Conn. Pool Size", "Pool size", r -> r.deployment().poolTotal()),
            new Knob("DB pool (orders)    ", "DB pool", r -> r.deployment().dbPool() == null ? "none (memory store)"
                    : r.deployment().dbPool() + (Cell.R2DBC.equals(r.cell().ordersStore()) ? " (PostgreSQL, R2DBC)"
                    : " (PostgreSQL, JDBC)")),
            new Knob("Bounded pool threads", "Bounded pool", r -> r.deployment().boundedPool() == null ? "n/a"
                    : r.deployment().boundedPool()),
            new Knob("Concurrency Level   ", "Concurrency Level", r -> r.cell().concurrency()),
            new Knob("Downstream latency  ", "Latency (ms)", r -> r.deployment().latencyMs() + " ms"),
            new Knob("Offered rate        ", "Rate (req/s)", r -> r.cell().ratePerSecond() == null
                    ? "closed loop" : Fmt.rate(r.cell().ratePerSecond()) + " req/s offered (open model)"),
            // main-service's JVM as it reported itself, not as the matrix asked
            new Knob("JVM options         ", "JVM options", r -> r.deployment().jvm().optionsText()),
            new Knob("Common pool         ", "Common pool", r -> "parallelism " + r.deployment().parallelism()),
            new Knob("Carriers (virtual)  ", "Carriers", r -> r.deployment().jvm().carriers()),
            new Knob("GC and heap         ", "GC and heap", r -> r.deployment().jvm().collectorAndHeap()),
            new Knob("Query               ", "Query", r -> r.cell().query().isEmpty() ? "none" : r.cell().query()));

    /** The tail at scale, for cells whose query asks for a tail ({@link Tail}). */
    private static final List<Column> TAIL = List.of(
            new Column("Slow share (95 % CI)", r -> r.slowShare().map(s -> Fmt.num(100 * s[1], 1) + " % ("
                    + Fmt.num(100 * s[0], 1) + "–" + Fmt.num(100 * s[2], 1) + ")").orElse("n/a")),
            new Column("1 − (1 − p)^N (hedged: 1 − (1 − p²)^N)", r -> r.cell().tail().map(t -> Fmt.num(100
                    * t.expectedSlowShare(), 1) + " % (N=" + t.calls() + ")" + (t.hedged() ? " → "
                    + Fmt.num(100 * t.expectedSlowShareHedged(), 2) + " %" : "")).orElse("n/a")),
            new Column("p50 / p99 / p99.9 (ms)", r -> latency(r, 50, 99, 99.9)),
            new Column("Hedges: extra calls %", r -> est(r, r.extraDownstreamLoadPercent(), 1)));

    /** For cells that answer with what arrived at the deadline: 200s lacking a downstream, % of the 200s. */
    private static final Column PARTIAL = new Column("Partial answers % (onDeadline=partial)",
            r -> est(r, r.partialAnswersPercent(), 1));

    /** Native Memory Tracking's mid-run snapshot, for cells whose main-service runs with it. */
    private static final Column SNAPSHOT = new Column("Heap after GC · stacks committed / reserved (MiB) · live"
            + " virtual threads", r -> snapshot(r, Memory.Snapshot::heapAfterGcMiB, 1) + " · "
                    + snapshot(r, Memory.Snapshot::stackCommittedMiB, 1) + " / "
                    + snapshot(r, Memory.Snapshot::stackReservedMiB, 0) + " · "
                    + snapshot(r, Memory.Snapshot::virtualThreads, 0));

    /** NMT's "Other" of the same snapshot, for cells whose snapshot read it (results from 2026-11-29 on). */
    private static final Column OFF_HEAP = new Column("Off-heap committed (MiB, NMT Other: direct buffers)",
            r -> snapshot(r, Memory.Snapshot::offHeapMiB, 1));

    /** The same snapshot of orders-service, for cells whose orders-service runs with it (ordersJvmOptions). */
    private static final Column ORDERS_SNAPSHOT = new Column("orders-service: heap after GC · stacks committed (MiB)"
            + " · live virtual threads", r -> est(r, p -> Memory.snapshot(p, Memory.ORDERS,
                    Memory.Snapshot::heapAfterGcMiB), 1) + " · " + est(r, p -> Memory.snapshot(p, Memory.ORDERS,
                    Memory.Snapshot::stackCommittedMiB), 1) + " · " + est(r, p -> Memory.snapshot(p, Memory.ORDERS,
                    Memory.Snapshot::virtualThreads), 0));

    private static final String MAIN_SLOPES = "Memory per request in flight: the least-squares slope of heap after GC"
            + " + committed thread stacks against the clients (each holds one request in flight), the JVM's fixed"
            + " memory left out; one slope per start of the services, their median (interval · coverage):";
    private static final String OFF_HEAP_SLOPES = "Off-heap memory per request in flight: the same slope of NMT's"
            + " Other (committed; direct buffers, which the heap figure above does not count), per start of the"
            + " services, their median (interval · coverage); add it to the figure above for the whole:";
    private static final String ORDERS_SLOPES = "Memory per request in orders-service: the same slope of"
            + " orders-service's heap after GC + committed stacks against the clients (each has its orders call"
            + " there, all but the db pool's connections' worth of them waiting for one), per start of the"
            + " services, their median (interval · coverage):";

    /** Micrometer's count of virtual threads pinned for 20 ms or more, for cells that ask for pinning. */
    private static final Column PINNED = new Column("Virtual threads pinned · per request", r -> est(r,
            p -> p.server().pinned(), 0) + " · " + est(r, p -> p.server().pinned() == null || p.run().answered() == 0
                    ? null : p.server().pinned() / p.run().answered(), 1));

    /** main-service's own CPU (--main-cpus) against the load side's (issue 66), where the harness placed it. */
    private static final Column PLACEMENT = new Column("main-service's own CPU bound (req/s) · load side busy %",
            r -> est(r, Repetition::mainCpuBound, 0) + " · " + est(r, Repetition::loadSideBusyPercent, 0)
                    + (r.loadSideBound() ? " ⚠ " + Comparison.LOAD_SIDE_BOUND : ""));

    /** Where main-service has a CFS quota: how often it ran out, and the share of the run spent throttled. */
    private static final Column THROTTLED = new Column("CFS throttled periods · s per s", r -> est(r, p -> p
            .scheduler() == null || p.scheduler().throttledPeriods() == null ? null
            : (double) p.scheduler().throttledPeriods(), 0) + " · " + est(r, Repetition::throttledShare, 2));

    private static final Column SWITCHES = new Column("Context switches/req main: voluntary / involuntary",
            r -> est(r, p -> p.switchesPerAnswer(true), 1) + " / " + est(r, p -> p.switchesPerAnswer(false), 1));

    static final String CPU_COLUMN = "CPU ms/req main · orders / products / accounts per call · driver";

    private static final List<Column> FIGURES = List.of(
            new Column("Req./Sec. median (CI · its confidence)", r -> Fmt.estimate(r.throughput(), -1)
                    + (r.rateSustained() ? "" : " ⚠ rate not sustained")
                    + (r.warmupSettled() ? "" : " ⚠ warm-up capped")
                    + (r.cpuSpent() ? "" : " ⚠ CPU under cpuMs")),
            new Column("Bound (limit)", r -> Fmt.rate(r.bound().requestsPerSecond()) + " (" + r.bound().limit() + ")"),
            new Column("Efficiency % (CI)", r -> Double.isNaN(r.efficiency()) ? "n/a"
                    : est(r, r.efficiencyEstimate(), 0)),
            new Column("Little's law · CPU bound", r -> Fmt.rate(r.littlesLaw().requestsPerSecond()) + " ("
                    + r.littlesLaw().limit() + ") · " + Fmt.rate(r.bound().cpuCeiling())),
            new Column("p50 / p90 / p99 / max (ms)", r -> latency(r, 50, 90, 99, 100)),
            new Column("Errors", r -> Fmt.errors(r.errorCount(), r.errors())),
            new Column("Time (s)", r -> est(r, rep -> rep.run().windowSeconds(), 1)),
            new Column("Peak threads platform / virtual", r -> est(r, p -> p.server().peakPlatformThreads(), 0)
                    + " / " + est(r, p -> p.server().peakVirtualThreads(), 0)),
            new Column("Peak pool leased / pending", r -> est(r, p -> p.server().peakPoolLeased(), 0) + " / "
                    + est(r, p -> p.server().peakPoolPending(), 0)),
            new Column(CPU_COLUMN, r -> est(r, Repetition::mainCpuMsPerAnswer, 2) + " · "
                    + ServiceDefaults.DOWNSTREAMS.stream().map(d -> est(r, p -> p.cpuMsPerAnswer(d), 2))
                            .collect(Collectors.joining(" / ")) + " · "
                    + est(r, p -> p.cpuMsPerAnswer(Repetition.DRIVER), 2)),
            new Column("Heap after (MB)", r -> est(r, r.heapAfterMB(), 0)),
            new Column("RSS peak (MiB) · OS threads peak", r -> est(r, p -> p.server().memory().peakRssMiB(), 0)
                    + " · " + est(r, p -> p.server().memory().peakOsThreads(), 0)),
            new Column("Machine CPU % · others %", r -> est(r, Repetition::machineBusyPercent, 0) + " · "
                    + est(r, Repetition::othersCpuPercent, 0)));

    /** n/a, never 0, where the harness could not read a process's CPU. */
    static final String CPU_UNKNOWN = """
            n/a in CPU ms/req and the CPU bound: the harness cannot read the CPU of processes it did not start (an \
            existing deployment, `--base-url`: their pids are unknown here, and they may run on another machine), so \
            D is unknown and the bound is Little's law alone. main-service's figure then comes from its own \
            `process_cpu_time_ns_total` when it publishes it.""";

    /** The line a run stopped by Ctrl-C carries under its intro. */
    static final String INTERRUPTED = "**Interrupted (Ctrl-C): only the cells finished before are shown.**";

    private ResultsMarkdown() {
    }

    /**
     * @param title  first heading, e.g. {@code fanout-lab benchmark: quick}
     * @param intro  lines under it: command, machine, target
     * @param charts block name to chart file names
     */
    public static String render(String title, List<String> intro, List<CellResult> results,
                                Map<String, List<String>> charts, boolean interrupted) {
        StringBuilder md = new StringBuilder("# " + title + "\n\n");
        intro.forEach(line -> md.append(line).append("  \n"));
        if (interrupted) {
            md.append("\n").append(INTERRUPTED).append("\n");
        }
        md.append("\n").append(LEGEND);
        results.stream().collect(Collectors.groupingBy(r -> r.cell().block(), LinkedHashMap::new, Collectors.toList()))
                .forEach((block, cells) -> block(md, block, cells, charts.getOrDefault(block, List.of())));
        return md.toString();
    }

    private static void block(StringBuilder md, String name, List<CellResult> cells, List<String> charts) {
        List<Knob> varying = KNOBS.stream().filter(k -> cells.stream().map(k.column.value).distinct().count() > 1)
                .toList();
        CellResult first = cells.getFirst();
        Cell c = first.cell();
        md.append("\n## ").append(name).append("\n\n```\n");
        KNOBS.stream().filter(k -> !varying.contains(k))
                .forEach(k -> md.append(k.label).append(" : ").append(k.column.value.apply(first)).append('\n'));
        md.append("Request Number       : ").append(c.requests() != null ? c.requests() + " per repetition"
                : "sized for " + c.durationSeconds() + " s per repetition from the warm-up's rate").append('\n');
        md.append("Repetitions          : ").append(c.repetitions()).append(" after ").append(c.warmupSeconds())
                .append(" s warm-up runs (not measured) until main-service's JIT has settled\n");
        md.append("Cores                : ").append(first.deployment().cores())
                .append(" (main-service's availableProcessors)\n```\n");
        List<Column> columns = columns(cells, varying);
        cells.stream()
                .collect(Collectors.groupingBy(r -> r.deployment().profile(), LinkedHashMap::new, Collectors.toList()))
                .forEach((profile, rows) -> table(md, profile, rows, columns));
        memorySlopes(md, cells, Memory.MAIN, Memory.Snapshot::liveMiB, MAIN_SLOPES);
        memorySlopes(md, cells, Memory.MAIN, Memory.Snapshot::offHeapMiB, OFF_HEAP_SLOPES);
        memorySlopes(md, cells, Memory.ORDERS, Memory.Snapshot::liveMiB, ORDERS_SLOPES);
        charts.forEach(png -> md.append("\n![").append(png).append("](").append(png).append(")\n"));
        md.append("\nReproduce one repetition: `").append(first.command()).append("`\n");
    }

    /** @return the table's columns: strategy, the knobs that vary, the tail's, the figures, the snapshots' */
    private static List<Column> columns(List<CellResult> cells, List<Knob> varying) {
        List<Column> columns = new ArrayList<>(List.of(
                new Column(STRATEGY, r -> r.cell().strategy().toString()),
                new Column("Executor", r -> r.cell().strategy().executorLabel(r.deployment().reactiveClient()))));
        varying.forEach(k -> columns.add(k.column));
        if (cells.stream().anyMatch(r -> r.cell().tail().isPresent())) {
            columns.addAll(2 + varying.size(), TAIL);
        }
        if (cells.stream().anyMatch(r -> r.cell().query().contains("onDeadline=partial"))) {
            columns.add(2 + varying.size(), PARTIAL);
        }
        columns.addAll(FIGURES);
        if (cells.stream().anyMatch(r -> r.median(Repetition::loadSideBusyPercent) != null)) {
            columns.add(PLACEMENT);
        }
        if (cells.stream().anyMatch(r -> r.median(Repetition::throttledShare) != null)) {
            columns.add(THROTTLED);
        }
        if (cells.stream().anyMatch(r -> r.median(p -> p.switchesPerAnswer(true)) != null)) {
            columns.add(SWITCHES);
        }
        if (cells.stream().anyMatch(r -> r.liveMiB() != null)) {
            columns.add(SNAPSHOT);
        }
        if (cells.stream().anyMatch(r -> r.median(p -> Memory.snapshot(p, Memory.Snapshot::offHeapMiB)) != null)) {
            columns.add(OFF_HEAP);
        }
        if (cells.stream().anyMatch(r -> r.median(p -> Memory.snapshot(p, Memory.ORDERS,
                Memory.Snapshot::liveMiB)) != null)) {
            columns.add(ORDERS_SNAPSHOT);
        }
        if (cells.stream().anyMatch(r -> r.cell().query().contains("pinning="))) {
            columns.add(PINNED);
        }
        return columns;
    }

    private static String snapshot(CellResult r, Function<Memory.Snapshot, Double> figure, int decimals) {
        return est(r, p -> Memory.snapshot(p, figure), decimals);
    }

    /** @return a repetition figure's median and interval in the row's compact form (the coverage in Req./Sec.) */
    private static String est(CellResult r, Function<Repetition, Double> figure, int decimals) {
        return est(r, r.estimate(figure), decimals);
    }

    private static String est(CellResult r, Stats.Estimate e, int decimals) {
        return Fmt.estimate(e, decimals, r.throughput().n());
    }

    /** @return e.g. {@code 105 (102–108) / 350 (320–380)}: the percentiles' estimates, ms */
    private static String latency(CellResult r, double... percentiles) {
        return Arrays.stream(percentiles).mapToObj(p -> est(r, r.latencyEstimate(p), 0))
                .collect(Collectors.joining(" / "));
    }

    /**
     * Per strategy and profile (and driver, on PostgreSQL) with {@code whose} snapshots' {@code figure} (MiB) at two
     * or more concurrencies: KiB per request, the median of the forks' slopes with its interval (one slope per start
     * of the services).
     */
    private static void memorySlopes(StringBuilder md, List<CellResult> cells, Function<Repetition, Memory.Snapshot>
            whose, Function<Memory.Snapshot, Double> figure, String heading) {
        Map<String, List<CellResult>> series = cells.stream().filter(r -> r.median(p -> Memory.snapshot(p, whose,
                figure)) != null && r.cell().ratePerSecond() == null).collect(Collectors.groupingBy(
                r -> r.cell().strategy().proseName() + " / " + r.deployment().profile()
                        + (r.cell().dbPool() == null ? "" : " / db pool " + r.cell().dbPool() + " "
                                + r.cell().ordersStore()),
                LinkedHashMap::new, Collectors.toList()));
        List<String> lines = new ArrayList<>();
        series.forEach((name, rows) -> {
            Stats.Estimate slope = Stats.interval(Memory.slopesPerFork(rows, whose, figure));
            if (slope.n() > 0) {
                lines.add("- " + name + ": " + Fmt.estimate(slope, 1) + " KiB per request in flight (" + rows.size()
                        + " concurrencies, " + slope.n() + (slope.n() == 1 ? " fork)" : " forks)"));
            }
        });
        if (!lines.isEmpty()) {
            md.append("\n").append(heading).append("\n\n").append(String.join("\n", lines)).append('\n');
        }
    }

    private static void table(StringBuilder md, String profile, List<CellResult> rows, List<Column> columns) {
        MarkdownTable table = new MarkdownTable(columns.stream().map(Column::header).toList(), columns.stream()
                .map(col -> col.header.equals(STRATEGY) || col.header.equals("Executor") ? MarkdownTable.LEFT
                        : MarkdownTable.RIGHT).toList());
        rows.forEach(r -> table.row(columns.stream().map(col -> Objects.toString(col.value.apply(r))).toList()));
        md.append("\n**Spring Boot Profile : ").append(profile).append("**\n\n").append(table);
        if (rows.stream().anyMatch(r -> r.cpuSecondsPerRequest() == null)) {
            md.append("\n").append(CPU_UNKNOWN).append('\n');
        }
    }

    static final String LEGEND = """
            How to read (details: docs/benchmarks.md in the repository):
            - **Req./Sec.**: successful (2xx) requests per second over the window (see Time): the median with its
              confidence interval and that interval's exact coverage, from order statistics (distribution-free; Conover
              1999, as Go's benchstat). With one fork the samples are the repetitions, all in one start of the services
              (the interval says nothing of the next start); with --forks N, one per fork (its repetitions' median).
              95 % needs 6 samples; with fewer the interval is min–max and its coverage lower (3: 75 %, 5: 94 %).
              ⚠ warm-up capped: a warm-up ended on its time cap before main-service settled; no verdict rests on it.
              ⚠ CPU under cpuMs: main-service spent under 80 % of the CPU ms per request the query asks for (its
              calibration missed): the cell did not measure the CPU-bound work it names; no verdict rests on it.
            - **Every other figure** (latency, time, peaks, CPU, memory, machine CPU; not the bounds, which are
              ceilings, nor Errors, a count over all repetitions; the slow share has its own interval) is printed the
              same way in short, median (low–high): the same samples, so the coverage in its row's Req./Sec.; a figure
              absent from some samples gives its own coverage, and a figure with one sample says n=1 (the heap after
              the cell is read once per fork). results.csv has every sample: one row per repetition.
            - **Bound**: the tighter of the two in **Little's law · CPU bound**; the limit says which resource sets it.
              Little's law (L = λW, Little 1961) per resource: the tightest of clients ÷ W, Tomcat threads ÷ W
              (platform only, and not for reactive: it releases the request thread while its calls run, so the pool,
              the route, the clients and the CPU bound it), pool ÷ (3 × latency), route ÷ latency, common-pool
              parallelism ÷ (3 × latency), the bounded pool's threads ÷ (3 × latency); W = ideal latency = 1 ×
              latency (parallel, reactive and the bounded pool included) or 3 × latency (sequential). The CPU
              bound: cores ÷ D (utilisation law and bottleneck bound, Denning and Buzen 1978), cores =
              main-service's availableProcessors, D = CPU ms per request of main-service + the three downstreams +
              the driver (the CPU column's sum), measured in the cell itself: at saturation it holds the overheads of
              that load, so efficiency against a CPU bound is about the share of the cores the system used (U = X ×
              D), and near 100 % means the CPU was the limit.
            - **Efficiency** = Req./Sec. ÷ Bound: what queueing, the network and the rest cost. With forks each
              fork's against its own bound (its own D: the machine's speed moves between starts), the median and
              interval over the forks; with one fork the interval's ends ÷ Bound. With forks, D and so the CPU bound
              are the forks' median.
            - **p50 … max**: each repetition's percentiles of its answered requests (HdrHistogram), as the
              closed-loop driver saw them: time spent waiting to send is not in them (coordinated omission). In the open
              model (a rate: vegeta at a constant arrival rate, Load model says which) they count from the moment each
              request was due (start + (i + 1) ÷ rate), so a stall of the server shows in full; there Req./Sec. is the
              achieved rate beside the offered one (⚠ when under 95 % of it), and the rate is one more ceiling of \
            the Bound.
            - **Slow share** (a tail in the query: a call takes tailMs more with probability p = tailRate): the
              share of requests slower than latency + tailMs ÷ 2, with its 95 % Wilson score interval over all
              repetitions' requests, beside 1 − (1 − p)^N for the N calls that may be slow (Dean and Barroso,
              "The Tail at Scale", CACM 2013); hedged, a call stays slow only when its copy is slow too, so
              1 − (1 − p²)^N when every slow call is hedged. **Hedges: extra calls**: second copies sent ÷ the calls
              the answers needed, %.
            - **Errors**: by kind (HTTP status; transport = no answer: refused or timed out). **Time**: window of one
              repetition (hey, closed loop: its ramp-up, the first round that opens the connections, and its drain, the
              clients running out of requests one by one, left out).
            - **Peak threads**: main-service's live platform threads / virtual threads mounted or queued (parked ones
              are not counted by the JVM), scraped every second: a repetition's peak, then the median as above.
              **Pool**: leased / waiting connections, summed over main-service's two pools (the blocking strategies'
              and reactive's async one; a cell uses one of them, the other stays idle). n/a = metric absent.
            - **CPU ms/req**: each process's CPU (utime + stime, /proc/<pid>/stat, from just before the driver starts to
              just after it ends) ÷ the answered requests, any status; for a downstream that is per call (each answer
              made one call to it; exact when all answers are 2xx); the driver is the harness's reaped child.
            - **RSS peak · OS threads peak**: main-service's resident memory and its OS threads (/proc/pid/status,
              every second). **Heap after GC · stacks committed / reserved** (main-service with
              -XX:NativeMemoryTracking=summary and a fixed heap): mid-run, the objects a full GC kept, counted in its
              safepoint (jcmd GC.class_histogram), and the platform threads' stacks as NMT counts them; a virtual
              thread's stack is in the heap. Live
              virtual threads: parked ones too, from a JSON thread dump (jcmd Thread.dump_to_file).
            - **Virtual threads pinned** (cells with a pinning query): Micrometer's count of pins of 20 ms or more
              (JFR's jdk.VirtualThreadPinned) in a repetition, and per answered request.
            - **Machine CPU**: the whole machine's busy share (driver and all services included); near 100 % the CPU,
              not the strategy, is the limit. **others**: the part used by processes that are not the harness's,
              i.e. someone else's work.
            """;
}
