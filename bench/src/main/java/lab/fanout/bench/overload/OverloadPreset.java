package lab.fanout.bench.overload;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import lab.fanout.bench.driver.VegetaDriver;
import lab.fanout.bench.metrics.MachineCpu;
import lab.fanout.bench.metrics.Scraper;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.run.Eta;
import lab.fanout.bench.system.Http;
import lab.fanout.bench.system.LocalSystem;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.OpenFileLimit;
import lab.fanout.bench.system.Poll;

/**
 * {@code ./lab bench --preset overload}: what happens past capacity (issue 37, docs/overload.md). An open model
 * (vegeta at a constant rate, whatever main-service does) at 0.5× to 10× the bound and a spike, with a 512 MiB heap and
 * a 2 s latency, so that the requests in flight pass what the heap holds; per cell goodput, shed share, other errors,
 * the latency of admitted and of shed requests, the heap after GC at its peak, whether main-service survived, and
 * after the spike how long it took to answer normally again. main-service runs with -XX:+ExitOnOutOfMemoryError, as
 * in a pod: a cell that kills it is reported so, and the next cell starts a new one. Each profile and mode is a start
 * of main-service ({@code fanout.admission.mode}); each fork ({@code --forks}) starts all four services afresh.
 */
public final class OverloadPreset {

    /** Before each strategy's first cell in a JVM: at the bound, so that its paths are compiled. */
    static final Duration WARMUP = Duration.ofSeconds(15);
    /** The most a cell waits for main-service to hold no request before the next one starts. */
    private static final Duration DRAIN = Duration.ofSeconds(30);
    private static final double RESTART_SECONDS = 25;

    private final Path repo;
    private final Path dir;
    private final PrintStream out;
    /** Enough of a body for its problem type (Boot writes it first or last): a shed answer (overloaded) or a pool's. */
    static final int BODY_BYTES = 512;
    private final VegetaDriver vegeta = new VegetaDriver(BODY_BYTES);

    private OverloadPreset(Path repo, Path dir, PrintStream out) {
        this.repo = repo;
        this.dir = dir;
        this.out = out;
    }

    /**
     * Draws an overload.csv's charts anew with today's chart code ({@code ./lab charts}), one PNG per request-thread
     * profile, named {@code overload-<profile>.png}.
     *
     * @param csv an overload.csv ({@link #overloadCsv})
     * @return each chart's path to the number of cells it draws
     * @throws IllegalArgumentException an overload.csv of another version or bound
     */
    public static Map<Path, Integer> redraw(Path csv, Path out) {
        Map<Path, Integer> charts = new LinkedHashMap<>();
        OverloadReport.redraw(csv, out).forEach((png, cells) -> charts.put(out.resolve(png), cells));
        return charts;
    }

    /** @return the overload.csv {@code result} is or holds (a file or a folder), empty when it is neither */
    public static Optional<Path> overloadCsv(Path result) {
        Path csv = Files.isDirectory(result) ? result.resolve(OverloadReport.CSV) : result;
        return OverloadReport.isOverloadCsv(csv) ? Optional.of(csv) : Optional.empty();
    }

    /** @return for {@code --dry-run}: the cells and the time they take */
    public static List<String> plan(List<String> profiles, int forks) {
        List<OverloadCell> cells = OverloadCell.all(profiles);
        List<String> lines = new ArrayList<>();
        cells.forEach(c -> lines.add(String.format(Locale.ROOT, "  %-60s %5.0f req/s offered, ~%.0f s", c.label(),
                c.offeredPerSecond(), c.estimatedSeconds())));
        double seconds = seconds(cells);
        lines.add(String.format(Locale.ROOT, "%d cells x %d fork%s, about %s per fork (%s in all), with a new"
                        + " main-service after each cell likely to kill it or leave a backlog; bound %.0f req/s,"
                        + " latency %d ms, heap %s", cells.size(), forks, forks > 1 ? "s" : "",
                Eta.format(Duration.ofSeconds((long) seconds)), Eta.format(Duration.ofSeconds((long) seconds * forks)),
                cells.getFirst().bound(), OverloadCell.LATENCY_MS,
                String.join(" ", OverloadCell.HEAP)));
        return lines;
    }

    private static double seconds(List<OverloadCell> cells) {
        long starts = cells.stream().map(c -> c.profile() + c.mode()).distinct().count();
        long warmups = cells.stream().map(c -> c.profile() + c.mode() + c.strategy()).distinct().count();
        long restarts = cells.stream().filter(OverloadCell::likelyRestart).count();
        return cells.stream().mapToDouble(OverloadCell::estimatedSeconds).sum() + (starts + restarts) * RESTART_SECONDS
                + (warmups + restarts) * (WARMUP.toSeconds() + 3);
    }

    /**
     * Runs every cell of these profiles in {@code forks} rounds and writes overload.csv (a row per cell and fork, as
     * each ends), overload.md and the charts into {@code dir}. An overload.csv already there (an earlier run with the
     * same {@code --out}) is continued: its forks count in the report, and this run's are numbered after them, so that
     * forks can be run in several sittings.
     *
     * @return the markdown of overload.md
     * @throws IllegalStateException vegeta missing, too few open files, a service that does not start
     * @throws IllegalArgumentException an overload.csv in {@code dir} of another version or knobs
     */
    public static String run(Path repo, Path dir, List<String> profiles, int forks, PrintStream out)
            throws InterruptedException {
        new VegetaDriver().requireInstalled();
        // at 10x, until vegeta's timeout: 500 req/s x 15 s sockets in main-service at once
        OpenFileLimit.require((int) (10 * 50 * OverloadCell.TIMEOUT_SECONDS), OverloadCell.POOL,
                w -> out.println("warning: " + w));
        try {
            Files.createDirectories(dir.resolve("raw"));
            Files.createDirectories(dir.resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        return new OverloadPreset(repo, dir, out).runAll(OverloadCell.all(profiles), forks);
    }

    private String runAll(List<OverloadCell> cells, int forks) throws InterruptedException {
        OverloadReport report = new OverloadReport(dir, repo);
        int done = report.forksDone();
        if (done > 0) {
            out.printf("%s holds %d fork(s) already: adding forks %d to %d, the report covers them all%n",
                    dir.resolve(OverloadReport.CSV), done, done + 1, done + forks);
        }
        Instant began = Instant.now();
        double total = seconds(cells) * forks;
        for (int fork = done + 1; fork <= done + forks; fork++) {
            try (LocalSystem system = LocalSystem.start(spec(cells.getFirst()))) {
                for (int i = 0; i < cells.size(); i++) {
                    OverloadCell cell = cells.get(i);
                    OverloadCell before = i == 0 ? null : cells.get(i - 1);
                    boolean newJvm = before != null && !spec(before).equals(spec(cell));
                    if (newJvm) {
                        system.apply(spec(cell));
                    }
                    if (before == null || newJvm || before.strategy() != cell.strategy()) {
                        warmUp(system, cell, fork);
                    }
                    out.printf("[%d/%d]%s %s%n", (fork - done - 1) * cells.size() + i + 1, cells.size() * forks,
                            done + forks > 1 ? " fork " + fork + "/" + (done + forks) : "", cell.label());
                    OverloadReport.Row row = measure(system, cell, fork);
                    report.add(row);
                    double elapsed = Duration.between(began, Instant.now()).toSeconds();
                    out.printf("  %s | %s elapsed, about %s left%n", row.summary(),
                            Eta.format(Duration.ofSeconds((long) elapsed)),
                            Eta.format(Duration.ofSeconds((long) Math.max(0, total - elapsed))));
                    if (!row.survived() || !row.drained()) {
                        restart(system, row, i + 1 < cells.size() ? cells.get(i + 1) : null, fork);
                    }
                }
            }
        }
        return report.write();
    }

    /** A new main-service after one that died or kept a backlog, warmed up if the next cell has the same strategy. */
    private void restart(LocalSystem system, OverloadReport.Row row, OverloadCell next, int fork)
            throws InterruptedException {
        out.println(row.survived() ? "  main-service still works through requests whose clients left: starting a new"
                + " one for the next cell" : "  main-service died: starting a new one for the next cell");
        system.restartMain();
        if (next != null && next.strategy() == row.cell().strategy()) {
            warmUp(system, next, fork);
        }
    }

    /** @return main-service's knobs for the cell's profile and mode, a GC log per JVM, free ports */
    private LaunchSpec spec(OverloadCell cell) {
        List<String> jvm = new ArrayList<>(OverloadCell.HEAP);
        jvm.add(GcLog.option(dir.resolve("logs")));
        return LaunchSpec.custom(repo).profile(cell.profile()).tomcatThreads(OverloadCell.TOMCAT_THREADS)
                .poolSize(OverloadCell.POOL).latencyMs(OverloadCell.LATENCY_MS).freePorts(true)
                .logDir(dir.resolve("logs")).extraMainProperties(Map.of(
                        "fanout.admission.mode", cell.admissionMode(),
                        "fanout.admission.max-in-flight", String.valueOf(cell.maxInFlight()),
                        "fanout.bounded-pool.threads", String.valueOf(OverloadCell.BOUNDED_POOL),
                        "fanout.bounded-pool.queue", String.valueOf(OverloadCell.BOUNDED_POOL)))
                .mainJvmArgs(jvm).build();
    }

    private void warmUp(LocalSystem system, OverloadCell cell, int fork) throws InterruptedException {
        out.printf("  warm-up: %s at the bound for %d s%n", cell.strategy().proseName(), WARMUP.toSeconds());
        Load load = load(system, cell, 1.0, WARMUP);
        var run = vegeta.run(load, dir.resolve("raw").resolve("warmup-" + cell.id() + "-fork" + fork));
        if (run.errorCount() > 0) {
            out.println("  warning: the warm-up at the bound had errors " + run.errors());
        }
        awaitDrained(system);
    }

    private Load load(LocalSystem system, OverloadCell cell, double multiple, Duration length) {
        URI url = ServiceDefaults.ordersUrl(system.mainBaseUrl(), cell.strategy(), "");
        return new Load(url, 100, null, (int) length.toSeconds(), Math.rint(multiple * cell.bound()),
                OverloadCell.TIMEOUT_SECONDS);
    }

    /** Runs the cell's load, then reads what became of it: the requests, the heap, the process and its log. */
    private OverloadReport.Row measure(LocalSystem system, OverloadCell cell, int fork) throws InterruptedException {
        Path log = system.spec().logDir().resolve(ServiceDefaults.MAIN + ".log");
        long logOffset = size(log);
        long pid = system.pids().get(ServiceDefaults.MAIN);
        MachineCpu cpuBefore = MachineCpu.now(system.pids());
        Instant start = Instant.now();
        List<List<Outcomes.Request>> requests = attack(system, cell, fork, start);
        Instant end = Instant.now();
        MachineCpu cpuAfter = MachineCpu.now(system.pids());
        boolean survived = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                && Http.ready(system.mainManagementUrl());
        boolean drained = survived && awaitDrained(system);
        double latency = OverloadCell.LATENCY_MS / 1000.0;
        Outcomes outcomes = cell.spike() ? Outcomes.spike(requests.get(0), requests.get(1), requests.get(2),
                cell.seconds(), latency) : Outcomes.of(requests.getFirst(), cell.seconds(), latency);
        var peak = GcLog.peakAfterMiB(dir.resolve("logs"), start, end);
        // a process that died meanwhile drops out of the counts: its CPU would pass for another's
        Double others = survived ? MachineCpu.othersPercent(cpuBefore, cpuAfter) : null;
        return new OverloadReport.Row(fork, cell, outcomes, peak.isPresent() ? peak.getAsDouble() : null, survived,
                oomErrors(log, logOffset), drained, MachineCpu.busyPercent(cpuBefore, cpuAfter), others);
    }

    /** @return each phase's requests; the phases (the spike's three) each start on schedule and may overlap */
    private List<List<Outcomes.Request>> attack(LocalSystem system, OverloadCell cell, int fork, Instant start)
            throws InterruptedException {
        List<OverloadCell.Phase> phases = cell.phases();
        List<Path> csvs = new ArrayList<>();
        try (ExecutorService phaseRunner = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = new ArrayList<>();
            long offsetMs = 0;
            for (int p = 0; p < phases.size(); p++) {
                Path base = dir.resolve("raw").resolve(cell.id() + "-fork" + fork + (phases.size() > 1
                        ? "-phase" + (p + 1) : ""));
                csvs.add(base.resolveSibling(base.getFileName() + ".vegeta.csv"));
                Load load = load(system, cell, phases.get(p).multiple(), phases.get(p).length());
                long due = offsetMs;
                running.add(phaseRunner.submit(() -> {
                    Poll.sleep(Duration.ofMillis(due - Duration.between(start, Instant.now()).toMillis()));
                    return new VegetaDriver(BODY_BYTES).run(load, base);
                }));
                offsetMs += phases.get(p).length().toMillis();
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException(cell.label() + ": " + e.getCause().getMessage(), e.getCause());
                }
            }
        }
        List<List<Outcomes.Request>> requests = new ArrayList<>();
        for (int p = 0; p < phases.size(); p++) {
            requests.add(Outcomes.requests(VegetaDriver.readCsv(csvs.get(p)),
                    Math.rint(phases.get(p).multiple() * cell.bound())));
        }
        return requests;
    }

    /**
     * Waits until main-service holds no fan-out request (its admission gauge), up to {@link #DRAIN}.
     *
     * @return false when it still did: a backlog (platform threads working through requests whose clients left)
     */
    private boolean awaitDrained(LocalSystem system) {
        boolean drained = Poll.reached(DRAIN, Duration.ofMillis(250), () -> Scraper.scrape(system.mainManagementUrl())
                .map(e -> e.sum("fanout_admission_in_flight").orElse(0) <= 0).orElse(false));
        if (!drained) {
            out.println("  main-service still held requests " + DRAIN.toSeconds() + " s after the load");
        }
        return drained;
    }

    /** @return lines naming java.lang.OutOfMemoryError that main-service logged past {@code offset} */
    static int oomErrors(Path log, long offset) {
        try {
            byte[] all = Files.readAllBytes(log);
            String added = new String(all, (int) Math.min(offset, all.length), (int) Math.max(0,
                    all.length - offset), StandardCharsets.UTF_8);
            return (int) added.lines().filter(l -> l.contains("java.lang.OutOfMemoryError")).count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** @return the knobs of every cell, for the report's setup line */
    static Map<String, String> knobs() {
        Map<String, String> k = new LinkedHashMap<>();
        k.put("latency", OverloadCell.LATENCY_MS + " ms");
        k.put("pool", OverloadCell.POOL + " (max-total = max-per-route)");
        k.put("Tomcat threads", OverloadCell.TOMCAT_THREADS + " (platform)");
        k.put("bounded pool", OverloadCell.BOUNDED_POOL + " threads, queue " + OverloadCell.BOUNDED_POOL);
        k.put("heap", String.join(" ", OverloadCell.HEAP));
        k.put("admission limit", OverloadCell.MAX_IN_FLIGHT + " (fixed; adaptive's top): what the heap holds; "
                + OverloadCell.LIMITED.get("littles-law") + " (littles-law: pool ÷ 3 calls); "
                + OverloadCell.LIMITED.get("fixed-200") + " (fixed-200: main-service's default); refused 429");
        k.put("deadline", ServiceDefaults.DEADLINE_SECONDS + " s (default)");
        k.put("vegeta timeout", OverloadCell.TIMEOUT_SECONDS + " s");
        return k;
    }
}
