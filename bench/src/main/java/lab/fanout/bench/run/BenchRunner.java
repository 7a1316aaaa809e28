package lab.fanout.bench.run;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import lab.fanout.bench.driver.LoadDriver;
import lab.fanout.bench.driver.VegetaDriver;
import lab.fanout.bench.metrics.Footprint;
import lab.fanout.bench.metrics.MachineCpu;
import lab.fanout.bench.metrics.Scheduling;
import lab.fanout.bench.metrics.Scraper;
import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.SchedulerFigures;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Stats;
import lab.fanout.bench.system.CpuPlacement;
import lab.fanout.bench.system.Environment;

/**
 * Runs cells one after another: each on the target (restarting services only when its knobs change), with its driver
 * (closed loop, or vegeta's open model for a rate), warmed up to steady state ({@link Warmup}), then measured
 * repetition by repetition with main-service scraped and the CPU read meanwhile; the repetitions and the Little's-law
 * bound make its result. {@link #cancel()} (Ctrl-C) stops the load; the cell in progress is dropped.
 */
public final class BenchRunner {

    private final Target target;
    private final LoadDriver closedLoop;
    private final LoadDriver openModel;
    private final Path rawDir;
    private final PrintStream out;
    private final Consumer<CellResult> onCell;
    private final int forks;
    private final int priorForks;
    private final List<CellResult> done = new ArrayList<>();
    private volatile boolean cancelled;

    /**
     * @param closedLoop the closed loop's driver (hey, ab), for cells without a rate
     * @param openModel  the open model's driver (vegeta), for cells with a rate; null: {@code closedLoop} runs those
     *                   too
     * @param rawDir     where the drivers' own output goes, one set of files per run
     * @param onCell     called with each finished cell and fork once {@link #finished} holds it (e.g. to append it
     *                   to results.csv at once)
     * @param forks      how many fresh starts of the services every cell runs in (JMH's forks): the cells run in
     *                   rounds, each after a restart, so that a slow start or a drifting machine hits every cell alike
     * @param priorForks forks an earlier sitting ran of the same cells: this run's are numbered after them
     */
    public BenchRunner(Target target, LoadDriver closedLoop, LoadDriver openModel, Path rawDir, PrintStream out,
                       Consumer<CellResult> onCell, int forks, int priorForks) {
        this.target = target;
        this.closedLoop = closedLoop;
        this.openModel = openModel;
        this.rawDir = rawDir;
        this.out = out;
        this.onCell = onCell;
        this.forks = forks;
        this.priorForks = priorForks;
    }

    /** A run of {@code forks} forks, the first of its cells. */
    public BenchRunner(Target target, LoadDriver closedLoop, LoadDriver openModel, Path rawDir, PrintStream out,
                       Consumer<CellResult> onCell, int forks) {
        this(target, closedLoop, openModel, rawDir, out, onCell, forks, 0);
    }

    /**
     * @return the finished cells (each with its forks' repetitions), all of them unless cancelled; a cancel that
     *         interrupts a service's start ends the run as a cancel, not as that start's failure
     * @throws RuntimeException a failure of the target or the driver; {@link #finished} still has the cells before it
     */
    public List<CellResult> run(List<Cell> cells) throws InterruptedException {
        try {
            return runAll(cells);
        } catch (RuntimeException e) {
            if (cancelled) {
                return finished();
            }
            throw e;
        }
    }

    /** @return the cells finished so far, each with the forks' repetitions it has run */
    public List<CellResult> finished() {
        return List.copyOf(done);
    }

    private List<CellResult> runAll(List<Cell> cells) throws InterruptedException {
        List<Cell> all = rounds(cells, forks);
        Eta eta = new Eta(all, target::restartsBetween);
        for (int i = 0; i < all.size() && !cancelled; i++) {
            Cell cell = all.get(i);
            int fork = priorForks + i / cells.size() + 1;
            int index = i % cells.size() + 1;
            if (index == 1 && i > 0) {
                out.printf("fork %d of %d: the services start afresh%n", fork, priorForks + forks);
                target.restart();
            }
            String step = String.format(Locale.ROOT, "[%d/%d]%s", i + 1, all.size(),
                    priorForks + forks > 1 ? " fork " + fork + "/" + (priorForks + forks) : "");
            out.printf("%s %s%n", step, cell.label());
            boolean fresh = index == 1 || target.restartsBetween(cells.get(index - 2), cell) > 0;
            CellResult result = runCell(index, cell, fresh, fork);
            if (result == null) {
                break;
            }
            if (i < cells.size()) {
                done.add(result);
            } else {
                done.set(index - 1, done.get(index - 1).merge(result));
            }
            onCell.accept(result);
            eta.done(i);
            out.printf("%s %s | %s elapsed, ETA %s%n", step, summary(result), Eta.format(eta.elapsed()),
                    Eta.format(eta.remaining()));
        }
        return finished();
    }

    /** @return the cells in the order they run: all of them once per fork */
    public static List<Cell> rounds(List<Cell> cells, int forks) {
        return IntStream.range(0, forks).boxed().flatMap(f -> cells.stream()).toList();
    }

    /** Stops the run in progress; {@link #run} returns the cells finished before. */
    public void cancel() {
        cancelled = true;
        closedLoop.stop();
        if (openModel != null) {
            openModel.stop();
        }
    }

    LoadDriver driverFor(Cell cell) {
        return cell.ratePerSecond() != null && openModel != null ? openModel : closedLoop;
    }

    /** @param fresh main-service has just (re)started; @return the cell's result, null when cancelled */
    private CellResult runCell(int index, Cell cell, boolean fresh, int fork) throws InterruptedException {
        Deployment d = target.prepare(cell);
        LoadDriver driver = driverFor(cell);
        String id = cell.id(index) + (priorForks + forks > 1 ? "-fork" + fork : "");
        Warmup.Drive drive = (load, suffix) -> drive(driver, load, rawDir.resolve(id + suffix));
        Scraper scraper = new Scraper(target.mainManagementUrl(), d.cores())
                .withOrders(d.dbPool() == null ? null : target.ordersManagementUrl());
        Load warmup = new Load(target.url(cell), cell.concurrency(), null, cell.warmupSeconds(), cell.ratePerSecond(),
                cell.timeoutSeconds());
        Warmup.Warmed warmed = Warmup.run(cell, warmup, fresh, scraper, drive, out);
        DriverRun last = warmed == null ? null : warmed.last();
        List<Repetition> reps = new ArrayList<>();
        for (int r = 1; last != null && r <= cell.repetitions(); r++) {
            // sized from the run just before, so a rate still rising after the warm-up does not shrink every run
            Load load = new Load(warmup.url(), cell.concurrency(), requests(cell, last), null, cell.ratePerSecond(),
                    cell.timeoutSeconds());
            Repetition rep = measure(new Run(r, fork, warmed.settled(), snapshotAt(d.jvm().options(), load, last),
                    snapshotAt(cell.ordersJvmOptions(), load, last)), load, scraper, drive);
            if (rep == null) {
                return null;
            }
            reps.add(rep);
            last = rep.run();
        }
        if (last == null) {
            return null;
        }
        // the open model has no clients to bound it: vegeta's workers grow with the need
        int clients = driver instanceof VegetaDriver ? Integer.MAX_VALUE : cell.concurrency();
        Bound littlesLaw = Bound.littlesLaw().strategy(cell.strategy()).virtualProfile(d.virtual()).clients(clients)
                .tomcatThreads(d.tomcatThreads()).poolTotal(d.poolTotal()).poolPerRoute(d.poolPerRoute())
                .latencyMs(d.latencyMs()).parallelism(d.parallelism()).ratePerSecond(cell.ratePerSecond())
                .dbPool(d.dbPool()).boundedPoolThreads(d.boundedPool())
                .pinnedCarriers(cell.query().contains("pinning=native") ? d.jvm().carrierParallelism() : null).build();
        Double heap = scraper.heapBytes();
        return new CellResult(index, cell, d, littlesLaw, reps, heap == null ? Map.of() : Map.of(fork, heap),
                driver.reproduce(reps.getFirst().load(), Path.of(id + "-rep1")));
    }

    /**
     * Which repetition of which fork, after a warm-up that settled or not; when to read main-service's and
     * orders-service's memory, each null for never.
     */
    private record Run(int index, int fork, boolean warmupSettled, Duration snapshotAt, Duration ordersSnapshotAt) {
    }

    /**
     * @param jvmOptions a service's JVM options
     * @return half-way through the run ahead, judged from the run before, when that service runs with Native Memory
     *         Tracking ({@link Footprint#NMT}); else null: no memory snapshot, whose full GC would cost the run
     */
    static Duration snapshotAt(List<String> jvmOptions, Load load, DriverRun before) {
        if (!jvmOptions.contains(Footprint.NMT) || before.answeredPerSecond() <= 0) {
            return null;
        }
        double seconds = load.requests() != null ? load.requests() / before.answeredPerSecond()
                : load.durationSeconds();
        return Duration.ofMillis(Math.round(500 * seconds));
    }

    /** One repetition with main-service scraped and every process's CPU read around it; null when cancelled. */
    private Repetition measure(Run which, Load load, Scraper scraper, Warmup.Drive drive) throws InterruptedException {
        Long mainPid = target.servicePids().get(ServiceDefaults.MAIN);
        MachineCpu before = MachineCpu.now(target.servicePids());
        Scheduling scheduledBefore = Scheduling.now(mainPid);
        Scraper.Sampling sampling = scraper.start(mainPid, which.snapshotAt(),
                target.servicePids().get(ServiceDefaults.ORDERS), which.ordersSnapshotAt());
        DriverRun run = drive.run(load, "-rep" + which.index());
        ServerFigures server = sampling.stop();
        MachineCpu after = MachineCpu.now(target.servicePids());
        Map<String, Double> seconds = MachineCpu.secondsByProcess(before, after);
        return run == null ? null : new Repetition(which.index(), load, run, server,
                MachineCpu.busyPercent(before, after), MachineCpu.othersPercent(before, after), seconds, which.fork(),
                which.warmupSettled(), scheduler(before, after, seconds.get(ServiceDefaults.MAIN), scheduledBefore,
                Scheduling.now(mainPid)));
    }

    /** @return main-service's CPU share and scheduling over a run; null when the target's placement is unknown */
    private SchedulerFigures scheduler(MachineCpu before, MachineCpu after, Double mainSeconds, Scheduling start,
                                       Scheduling end) {
        CpuPlacement placement = target.placement();
        Scheduling.Delta d = Scheduling.between(start, end);
        if (placement == null && d == null) {
            return null;
        }
        Double cpus = placement == null ? null : placement.shared() ? (double) Environment.cores() : placement.cpus();
        return new SchedulerFigures(cpus, MachineCpu.loadSideBusyPercent(before, after, placement, mainSeconds),
                d == null ? null : d.voluntarySwitches(), d == null ? null : d.involuntarySwitches(),
                d == null ? null : d.throttledPeriods(), d == null ? null : d.throttledSeconds());
    }

    /** @return the run, or null when the bench was cancelled (the tool's cut-short output is no failure then) */
    private DriverRun drive(LoadDriver driver, Load load, Path base) throws InterruptedException {
        try {
            DriverRun run = driver.run(load, base);
            return cancelled ? null : run;
        } catch (RuntimeException e) {
            if (cancelled) {
                return null;
            }
            throw e;
        }
    }

    /** The block's request count, or enough for durationSeconds at the previous run's (or the offered) rate. */
    static int requests(Cell cell, DriverRun previous) {
        double n = cell.requests() != null ? cell.requests() : cell.durationSeconds()
                * (cell.ratePerSecond() != null ? cell.ratePerSecond() : previous.answeredPerSecond());
        return Load.roundedRequests(n, cell.concurrency());
    }

    static String summary(CellResult r) {
        String model = r.cell().ratePerSecond() == null ? "" : String.format(Locale.ROOT,
                " [open model: %.0f req/s offered, latency from due time]", r.cell().ratePerSecond());
        String cpu = r.median(Repetition::machineBusyPercent) == null ? "n/a"
                : Math.round(r.median(Repetition::machineBusyPercent)) + "%"
                        + (r.median(Repetition::othersCpuPercent) == null ? ""
                                : " (others " + Math.round(r.median(Repetition::othersCpuPercent)) + "%)")
                        + (r.median(Repetition::loadSideBusyPercent) == null ? "" : ", load side "
                                + Math.round(r.median(Repetition::loadSideBusyPercent)) + "% busy"
                                + (r.loadSideBound() ? ", LOAD SIDE BOUND" : "") + ", main-service's own CPU bound "
                                + Math.round(Objects.requireNonNullElse(r.median(Repetition::mainCpuBound), 0.0)));
        Stats.Estimate x = r.throughput();
        return String.format(Locale.ROOT, "%s: %.1f req/s (%.1f-%.1f), bound %.1f (%s) %s, p99 %.0f ms, %d errors,"
                        + " machine CPU %s%s%s%s", r.cell().label(), x.median(), x.low(), x.high(),
                r.bound().requestsPerSecond(), r.bound().limit(), Double.isNaN(r.efficiency())
                        ? "n/a" : Math.round(100 * r.efficiency()) + "%", r.latencyMs(99), r.errorCount(), cpu,
                r.rateSustained() ? "" : ", RATE NOT SUSTAINED",
                r.warmupSettled() ? "" : ", WARM-UP CAPPED",
                r.cpuSpent() ? "" : ", CPU UNDER cpuMs " + r.cell().cpuMs()) + model;
    }
}
