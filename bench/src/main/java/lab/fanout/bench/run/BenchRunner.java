package lab.fanout.bench.run;

import java.io.PrintStream;
import java.nio.file.Path;
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
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.ServerFigures;

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
    private volatile boolean cancelled;

    /**
     * @param closedLoop the closed loop's driver (hey, ab), for cells without a rate
     * @param openModel  the open model's driver (vegeta), for cells with a rate; null: {@code closedLoop} runs those
     *                   too
     * @param rawDir     where the drivers' own output goes, one set of files per run
     * @param onCell     called with each finished cell (e.g. to append it to results.csv at once)
     */
    public BenchRunner(Target target, LoadDriver closedLoop, LoadDriver openModel, Path rawDir, PrintStream out,
                       Consumer<CellResult> onCell) {
        this.target = target;
        this.closedLoop = closedLoop;
        this.openModel = openModel;
        this.rawDir = rawDir;
        this.out = out;
        this.onCell = onCell;
    }

    /** @return the finished cells, all of them unless cancelled */
    public List<CellResult> run(List<Cell> cells) throws InterruptedException {
        List<CellResult> done = new ArrayList<>();
        Eta eta = new Eta(cells, target::restartsBetween);
        for (int i = 0; i < cells.size() && !cancelled; i++) {
            Cell cell = cells.get(i);
            out.printf("[%d/%d] %s%n", i + 1, cells.size(), cell.label());
            CellResult result = runCell(i + 1, cell, i == 0 || target.restartsBetween(cells.get(i - 1), cell) > 0);
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
        closedLoop.stop();
        if (openModel != null) {
            openModel.stop();
        }
    }

    LoadDriver driverFor(Cell cell) {
        return cell.ratePerSecond() != null && openModel != null ? openModel : closedLoop;
    }

    /** @param fresh main-service has just (re)started; @return the cell's result, null when cancelled */
    private CellResult runCell(int index, Cell cell, boolean fresh) throws InterruptedException {
        Deployment d = target.prepare(cell);
        LoadDriver driver = driverFor(cell);
        String id = cell.id(index);
        Warmup.Drive drive = (load, suffix) -> drive(driver, load, rawDir.resolve(id + suffix));
        Scraper scraper = new Scraper(target.mainManagementUrl(), d.cores());
        Load warmup = new Load(target.url(cell), cell.concurrency(), null, cell.warmupSeconds(), cell.ratePerSecond(),
                cell.timeoutSeconds());
        DriverRun last = Warmup.run(cell, warmup, fresh, scraper, drive, out);
        List<Repetition> reps = new ArrayList<>();
        for (int r = 1; last != null && r <= cell.repetitions(); r++) {
            // sized from the run just before, so a rate still rising after the warm-up does not shrink every run
            Repetition rep = measure(r, new Load(warmup.url(), cell.concurrency(), requests(cell, last), null,
                    cell.ratePerSecond(), cell.timeoutSeconds()), scraper, drive);
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
        Bound littlesLaw = Bound.of(cell.strategy(), d.virtual(), clients, d.tomcatThreads(), d.poolTotal(),
                d.poolPerRoute(), d.latencyMs(), d.parallelism(), cell.ratePerSecond());
        return new CellResult(index, cell, d, littlesLaw, reps, scraper.heapBytes(),
                driver.reproduce(reps.getFirst().load(), Path.of(id + "-rep1")));
    }

    /** One repetition with main-service scraped and every process's CPU read around it; null when cancelled. */
    private Repetition measure(int index, Load load, Scraper scraper, Warmup.Drive drive) throws InterruptedException {
        MachineCpu before = MachineCpu.now(target.servicePids());
        Scraper.Sampling sampling = scraper.start();
        DriverRun run = drive.run(load, "-rep" + index);
        ServerFigures server = sampling.stop();
        MachineCpu after = MachineCpu.now(target.servicePids());
        return run == null ? null : new Repetition(index, load, run, server, MachineCpu.busyPercent(before, after),
                MachineCpu.othersPercent(before, after), MachineCpu.secondsByProcess(before, after));
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
                                : " (others " + Math.round(r.median(Repetition::othersCpuPercent)) + "%)");
        return String.format(Locale.ROOT, "%s: %.1f req/s (%.1f-%.1f), bound %.1f (%s) %s, p99 %.0f ms, %d errors,"
                        + " machine CPU %s%s", r.cell().label(), r.throughputMedian(), r.throughputMin(),
                r.throughputMax(), r.bound().requestsPerSecond(), r.bound().limit(), Double.isNaN(r.efficiency())
                        ? "n/a" : Math.round(100 * r.efficiency()) + "%", r.latencyMs(99), r.errorCount(), cpu,
                r.rateSustained() ? "" : ", RATE NOT SUSTAINED") + model;
    }
}
