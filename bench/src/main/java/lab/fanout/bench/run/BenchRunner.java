package lab.fanout.bench.run;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import lab.fanout.bench.driver.LoadDriver;
import lab.fanout.bench.driver.VegetaDriver;
import lab.fanout.bench.metrics.MachineCpu;
import lab.fanout.bench.metrics.Scraper;
import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.JvmOptions;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.ServiceDefaults;

/**
 * Runs cells one after another: prepare the target, warm up (never measured), then the repetitions, each with
 * main-service scraped meanwhile. {@link #cancel()} (Ctrl-C) stops the load; the cell in progress is dropped, the
 * finished ones are kept.
 */
public final class BenchRunner {

    private final Target target;
    private final LoadDriver driver;
    private final LoadDriver openDriver;
    private final Path rawDir;
    private final PrintStream out;
    private final Consumer<CellResult> onCell;
    private volatile boolean cancelled;

    /**
     * @param rawDir where the drivers' own output goes, one set of files per run
     * @param onCell called with each finished cell (e.g. to append it to results.csv at once)
     */
    public BenchRunner(Target target, LoadDriver driver, Path rawDir, PrintStream out, Consumer<CellResult> onCell) {
        this(target, driver, null, rawDir, out, onCell);
    }

    /**
     * @param driver     the closed loop's driver (hey, ab), for cells without a rate
     * @param openDriver the open model's driver (vegeta), for cells with a rate; null: {@code driver} runs those too
     */
    public BenchRunner(Target target, LoadDriver driver, LoadDriver openDriver, Path rawDir, PrintStream out,
                       Consumer<CellResult> onCell) {
        this.target = target;
        this.driver = driver;
        this.openDriver = openDriver;
        this.rawDir = rawDir;
        this.out = out;
        this.onCell = onCell;
    }

    /** @return the finished cells, all of them unless cancelled */
    public List<CellResult> run(List<Cell> cells) throws InterruptedException {
        List<CellResult> done = new ArrayList<>();
        Eta eta = new Eta(cells, target);
        for (int i = 0; i < cells.size() && !cancelled; i++) {
            Cell cell = cells.get(i);
            out.printf("[%d/%d] %s%n", i + 1, cells.size(), cell.label());
            boolean fresh = i == 0 || target.restartsBetween(cells.get(i - 1), cell) > 0;
            CellResult result = runCell(i + 1, cell, fresh);
            if (result == null) {
                break;
            }
            done.add(result);
            onCell.accept(result);
            eta.done(i);
            out.printf("[%d/%d] %s | %s elapsed, ETA %s%n", i + 1, cells.size(), summary(result),
                    Eta.format(eta.elapsed()), Eta.format(eta.remaining()));
        }
        return done;
    }

    /** Stops the run in progress; {@link #run} returns the cells finished before. */
    public void cancel() {
        cancelled = true;
        driver.stop();
        if (openDriver != null) {
            openDriver.stop();
        }
    }

    /**
     * Warm-up time at most, s, per cell (LAB_MAX_WARMUP_SECONDS, default 60); three times that after a (re)start of
     * main-service, whose JIT is still cold.
     */
    static int maxWarmupSeconds() {
        return Integer.parseInt(System.getenv().getOrDefault("LAB_MAX_WARMUP_SECONDS",
                System.getProperty("lab.maxWarmupSeconds", "60")));
    }
    /** The JIT counts as done when it compiled for at most this share of a warm-up run's wall time. */
    static final double JIT_DONE_SHARE = 0.05;
    /**
     * ... or when the rate has stopped moving ({@link #PLATEAU}) while the JIT compiled for at most this share: it
     * then finishes what no longer moves the figures (measured: docs/benchmarks.md, "What one cell does").
     */
    static final double JIT_PLATEAU_SHARE = 0.20;
    /** The rate has stopped moving: a warm-up run answered within this share of the one before, either way. */
    static final double PLATEAU = 0.03;
    static final String JIT_TIME = "jvm_compilation_time_ms_total";
    /** A (re)start on 2 cores: about 30 s until ready, then about 60 s of warm-up until the JIT has settled. */
    static final int RESTART_SECONDS = 90;

    /**
     * @param jitMillis main-service's JIT compilation time during the last warm-up run, ms (null: metric absent)
     * @return whether the warm-up is over. Measured on 2 cores after a start (scopeFork, 100 clients, 4 s runs): the
     * JIT compiled 3,000-7,000 ms per run while the rate climbed from 28 to 400 req/s, and under 100 ms once it
     * held at 420-435. The rate alone misleads: it held at 245-257 req/s for 5 runs while the JIT was still at
     * 4,400 ms per run; so a plateau ends the warm-up only once the JIT is down to {@link #JIT_PLATEAU_SHARE}.
     * Without the metric: the last run answered no more than 10 % faster than the one before.
     */
    static boolean steady(DriverRun before, DriverRun last, Double jitMillis, double runMillis) {
        if (jitMillis != null) {
            double rate = last.answeredPerSecond();
            boolean plateau = before != null
                    && Math.abs(rate - before.answeredPerSecond()) <= PLATEAU * before.answeredPerSecond();
            return jitMillis <= JIT_DONE_SHARE * runMillis || plateau && jitMillis <= JIT_PLATEAU_SHARE * runMillis;
        }
        return before == null || last.answeredPerSecond() <= 1.10 * before.answeredPerSecond();
    }

    /** @return the open model's driver for a cell with a rate (when there is one), else the closed loop's */
    LoadDriver driverFor(Cell cell) {
        return cell.ratePerSecond() != null && openDriver != null ? openDriver : driver;
    }

    /** @param fresh main-service has just (re)started: its JIT is cold, so at least two warm-up runs */
    private CellResult runCell(int index, Cell cell, boolean fresh) throws InterruptedException {
        Deployment d = target.prepare(cell);
        // the open model has no clients to bound it: vegeta's workers grow with the need (VegetaDriver)
        int clients = driverFor(cell) instanceof VegetaDriver ? Integer.MAX_VALUE : cell.concurrency();
        Bound littlesLaw = Bound.of(cell.strategy(), d.virtual(), clients, d.tomcatThreads(), d.poolTotal(),
                d.poolPerRoute(), d.latencyMs(), d.parallelism(), cell.ratePerSecond());
        String id = cell.id(index);
        Load warmup = new Load(target.url(cell), cell.concurrency(), null, cell.warmupSeconds(), cell.ratePerSecond(),
                cell.timeoutSeconds());
        Scraper scraper = new Scraper(target.mainManagementUrl(), d.cores());
        DriverRun last = null;
        DriverRun before = null;
        long warmupStart = System.nanoTime();
        int maxSeconds = (fresh ? 3 : 1) * maxWarmupSeconds();
        List<String> jitPerRun = new ArrayList<>();
        for (int w = 1; ; w++) {
            Double jitBefore = jitMillis(scraper);
            long runStart = System.nanoTime();
            last = drive(cell, warmup, rawDir.resolve(id + "-warmup" + w));
            if (cancelled) {
                return null;
            }
            Double jitAfter = jitMillis(scraper);
            Double jit = jitBefore == null || jitAfter == null ? null : jitAfter - jitBefore;
            double runMillis = (System.nanoTime() - runStart) / 1e6;
            boolean outOfTime = (System.nanoTime() - warmupStart) / 1e9 + cell.warmupSeconds() > maxSeconds;
            boolean settled = steady(before, last, jit, runMillis);
            jitPerRun.add(jit == null ? "n/a" : String.format(Locale.ROOT, "%.0f", jit));
            if (w >= (fresh ? 2 : 1) && (settled || outOfTime)) {
                out.printf("  warm-up: %d run%s in %.0f s, %.0f req/s in the last; JIT per run %s ms%n", w,
                        w == 1 ? "" : "s", (System.nanoTime() - warmupStart) / 1e9, last.answeredPerSecond(),
                        String.join(" / ", jitPerRun));
                if (!settled) {
                    out.printf("  warm-up stopped at its %d s limit before it settled (JIT: %s ms in the last run):"
                            + " the figures may still be rising%n", maxSeconds,
                            jit == null ? "n/a" : String.format(Locale.ROOT, "%.0f", jit));
                }
                break;
            }
            before = last;
        }
        List<Repetition> reps = new ArrayList<>();
        Load first = null;
        for (int r = 1; r <= cell.repetitions(); r++) {
            // sized from the run just before, so a rate still rising after the warm-up does not shrink every run
            Load load = new Load(warmup.url(), cell.concurrency(), requests(cell, last), null, cell.ratePerSecond(),
                    cell.timeoutSeconds());
            first = first == null ? load : first;
            MachineCpu cpu = MachineCpu.now(target.servicePids());
            Scraper.Sampling sampling = scraper.start();
            DriverRun run = drive(cell, load, rawDir.resolve(id + "-rep" + r));
            ServerFigures server = sampling.stop();
            if (cancelled) {
                return null;
            }
            MachineCpu end = MachineCpu.now(target.servicePids());
            reps.add(new Repetition(r, load, run, server, MachineCpu.busyPercent(cpu, end),
                    MachineCpu.othersPercent(cpu, end), MachineCpu.secondsByProcess(cpu, end)));
            last = run;
        }
        String command = driverFor(cell).reproduce(first, Path.of(id + "-rep1"));
        return new CellResult(index, cell, d, littlesLaw, reps, scraper.heapBytes(), command);
    }

    /** @return the run, or null when it was stopped by {@link #cancel} (the tool's cut-short output is no failure) */
    private DriverRun drive(Cell cell, Load load, Path base) throws InterruptedException {
        try {
            return driverFor(cell).run(load, base);
        } catch (RuntimeException e) {
            if (cancelled) {
                return null;
            }
            throw e;
        }
    }

    private static Double jitMillis(Scraper scraper) {
        return scraper.scrape().map(e -> e.sum(JIT_TIME)).filter(v -> v.isPresent()).map(v -> v.getAsDouble())
                .orElse(null);
    }

    /** The block's request count, or enough for durationSeconds at the previous run's (or the offered) rate. */
    static int requests(Cell cell, DriverRun warm) {
        if (cell.requests() != null) {
            return Load.roundedRequests(cell.requests(), cell.concurrency());
        }
        double rate = cell.ratePerSecond() != null ? cell.ratePerSecond() : warm.answeredPerSecond();
        return Load.roundedRequests(rate * cell.durationSeconds(), cell.concurrency());
    }

    static String summary(CellResult r) {
        String model = r.cell().ratePerSecond() == null ? "" : String.format(Locale.ROOT,
                " [open model: %.0f req/s offered, latency from due time]", r.cell().ratePerSecond());
        return String.format(Locale.ROOT, "%s: %.1f req/s (%.1f-%.1f), bound %.1f (%s) %s, p99 %.0f ms, %d errors, machine CPU %s%s",
                r.cell().label(), r.throughputMedian(), r.throughputMin(), r.throughputMax(), r.bound().requestsPerSecond(),
                r.bound().limit(), Double.isNaN(r.efficiency()) ? "n/a" : Math.round(100 * r.efficiency()) + "%",
                r.latencyMs(99), r.errorCount(), r.machineBusyPercent() == null ? "n/a" : Math.round(r.machineBusyPercent()) + "%"
                        + (r.othersCpuPercent() == null ? "" : " (others " + Math.round(r.othersCpuPercent()) + "%)"),
                r.rateSustained() ? "" : ", RATE NOT SUSTAINED") + model;
    }

    /** @return the estimated length of a run of {@code cells}; {@code local}: counting service restarts */
    public static java.time.Duration estimate(List<Cell> cells, boolean local) {
        double seconds = 0;
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i);
            seconds += Eta.estimateSeconds(c) + (local ? RESTART_SECONDS * LocalTarget.restarts(i == 0 ? null : cells.get(i - 1), c) : 0);
        }
        return java.time.Duration.ofSeconds(Math.round(seconds));
    }

    /** Remaining time: each cell's estimate, scaled by how the estimates of the finished cells compared to reality. */
    public static final class Eta {
        private final long start = System.nanoTime();
        private final double[] estimates;
        private double estimatedDone;
        private int next;

        Eta(List<Cell> cells, Target target) {
            estimates = new double[cells.size()];
            for (int i = 0; i < cells.size(); i++) {
                Cell c = cells.get(i);
                estimates[i] = estimateSeconds(c) + RESTART_SECONDS * target.restartsBetween(i == 0 ? null : cells.get(i - 1), c);
            }
        }

        void done(int index) {
            estimatedDone += estimates[index];
            next = index + 1;
        }

        Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - start);
        }

        Duration remaining() {
            double left = 0;
            for (int i = next; i < estimates.length; i++) {
                left += estimates[i];
            }
            double scale = estimatedDone == 0 ? 1 : Math.clamp(elapsed().toMillis() / 1000.0 / estimatedDone, 0.3, 3);
            return Duration.ofSeconds(Math.round(left * scale));
        }

        /** Warm-up plus repetitions; a request-count cell at 90 % of a bound with the services' default knobs. */
        static double estimateSeconds(Cell c) {
            double perRep;
            if (c.durationSeconds() != null) {
                perRep = c.durationSeconds();
            } else {
                int cores = Runtime.getRuntime().availableProcessors();
                Bound b = Bound.of(c.strategy(), c.profile().equals("virtual"), c.concurrency(),
                        c.tomcatThreads() == null ? ServiceDefaults.TOMCAT_THREADS : c.tomcatThreads(),
                        c.poolSize() == null ? ServiceDefaults.POOL_TOTAL : c.poolSize(),
                        c.poolSize() == null ? ServiceDefaults.POOL_PER_ROUTE : c.poolSize(), c.latencyMs(),
                        JvmOptions.commonPoolParallelism(c.jvmOptions()).orElse(Math.max(1, cores - 1)), c.ratePerSecond());
                // past main-service's default deadline a request ends anyway, as a 504
                int inFlight = c.profile().equals("virtual") || c.tomcatThreads() == null ? c.concurrency()
                        : Math.min(c.concurrency(), c.tomcatThreads());
                double rate = Math.max(0.9 * b.requestsPerSecond(), inFlight / (double) ServiceDefaults.DEADLINE_SECONDS);
                perRep = Double.isInfinite(b.requestsPerSecond()) ? 1 : c.requests() / rate;
            }
            double tail = 3 * c.latencyMs() / 1000.0;
            return c.warmupSeconds() + tail + c.repetitions() * (perRep + tail + 1);
        }

        public static String format(Duration d) {
            long s = d.toSeconds();
            return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                    : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
        }
    }
}
