package lab.fanout.bench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToIntBiFunction;

import lab.fanout.bench.driver.AbDriver;
import lab.fanout.bench.driver.HeyDriver;
import lab.fanout.bench.driver.LoadDriver;
import lab.fanout.bench.driver.VegetaDriver;
import lab.fanout.bench.faults.FaultsPreset;
import lab.fanout.bench.matrix.Block;
import lab.fanout.bench.matrix.Matrix;
import lab.fanout.bench.matrix.MatrixFile;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.JvmOptions;
import lab.fanout.bench.model.RunResult;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.overload.OverloadPreset;
import lab.fanout.bench.report.Charts;
import lab.fanout.bench.report.Report;
import lab.fanout.bench.report.ResultsCsv;
import lab.fanout.bench.report.ResultsJson;
import lab.fanout.bench.run.BenchRunner;
import lab.fanout.bench.run.Eta;
import lab.fanout.bench.run.LocalTarget;
import lab.fanout.bench.run.RemoteTarget;
import lab.fanout.bench.run.Target;
import lab.fanout.bench.run.UpTarget;
import lab.fanout.bench.system.AotCache;
import lab.fanout.bench.system.CpuPlacement;
import lab.fanout.bench.system.Environment;
import lab.fanout.bench.system.OpenFileLimit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./lab bench}: runs a matrix and writes results.csv, results.json, results.md, charts and environment.txt. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Runs a benchmark matrix (a preset or a YAML/CSV file) and writes results/<timestamp>/:"
                + " results.csv, results.json (lossless), results.md, charts (PNG), environment.txt, raw driver"
                + " output.",
                "Without --base-url it starts and stops the four services itself on free ports; while ./lab up's"
                + " services run, the cells with their knobs run on them, and the first cell that needs other knobs"
                + " stops them (one set of services at a time; it says how to start them again)."},
        footer = {"", "Examples:", "  ./lab bench                      (the quick preset: about 5 min on 2 cores)",
                "  ./lab bench --preset seed        (the seed demo's tables: hours)",
                "  ./lab bench --preset faults      (failure modes per strategy: about 5 min)",
                "  ./lab bench --preset overload --profile netty --forks 3   (past capacity, 0.5x to 10x the bound"
                        + " and a spike: about 40 min per fork and profile; --dry-run lists it)",
                "  ./lab bench --preset soak        (1,200 and 10,000 clients for 60 s: about 10 min)",
                "  ./lab bench --preset scheduler   (common-pool and carrier parallelism as JVM options: about 15 min)",
                "  ./lab bench --jvm-option=-Djava.util.concurrent.ForkJoinPool.common.parallelism=8",
                "  ./lab bench --matrix bench/matrices/example.csv",
                "  ./lab bench --rate 300           (open model, vegeta: 300 req/s offered)",
                "  ./lab bench --preset openclosed  (open model beside the closed loop, one strategy: about 9 min)",
                "  ./lab bench --preset tail        (fan-out width, a 1 s tail and hedged requests: about 23 min)",
                "  ./lab bench --preset footprint --forks 3   (memory per request in flight, 100 to 10,000)",
                "  ./lab bench --preset footprint --forks 2 --profile platform   (one profile's third of it)",
                "  ./lab compare results/A results/B   (medians, change, Mann-Whitney U: ~ where it is noise)",
                "  ./lab bench --preset pinning     (pinning=none|synchronized|native, both poller modes: about 9 min)",
                "  ./lab bench --preset recycler    (recycler=none|threadLocal|pool, new thread per call: ~10 min)",
                "  ./lab bench --preset database    (orders-service on PostgreSQL, JDBC pool 5/20/100: about 20 min)",
                "  ./lab bench --base-url http://localhost:2222   (an existing deployment)"})
public final class Bench implements Callable<Integer> {

    enum Driver { hey, ab }

    @Spec
    CommandSpec spec;

    @Option(names = "--preset", paramLabel = "NAME",
            description = "quick, seed, scale, soak, openclosed, scheduler, overhead, tail, cpu, cpu-limit, footprint,"
                    + " pinning, database, recycler, faults or overload (default: quick unless --matrix); faults is"
                    + " not a throughput matrix but the failure-mode table per strategy (faults.md); overload offers"
                    + " 0.5x to 10x the bound and a spike with admission off, fixed and adaptive (overload.md)")
    String preset;

    @Option(names = "--matrix", paramLabel = "FILE",
            description = "a YAML or CSV matrix file (examples: bench/matrices/)")
    Path matrixFile;

    @Option(names = "--base-url", paramLabel = "URL",
            description = "benchmark an existing main-service instead (only strategy, concurrency, latency, rate vary)")
    URI baseUrl;

    @Option(names = "--management-url", paramLabel = "URL",
            description = "with --base-url: that main-service's management port (its actuator), e.g."
                    + " http://localhost:9222")
    URI managementUrl;

    @Option(names = "--driver", defaultValue = "hey",
            description = "closed-loop load driver: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); cells with a"
                    + " rate always use vegeta (the open model)")
    Driver driver;

    @Option(names = "--rate", paramLabel = "REQ_PER_S", description = "open model: vegeta offers this many req/s (whole"
            + " numbers) at a constant arrival rate in every cell; latency counts from each request's due time")
    Double rate;

    @Option(names = "--repetitions", paramLabel = "N",
            description = "measured runs per cell, overriding the matrix (3 or more for a min-max)")
    Integer repetitions;

    @Option(names = "--profile", paramLabel = "NAME", description = "only the cells of this request-thread profile:"
            + " ${COMPLETION-CANDIDATES} (default: every profile the matrix lists), e.g. to run a long preset's halves"
            + " in two sittings")
    KnobOptions.Profile profile;

    @Option(names = "--forks", paramLabel = "N", defaultValue = "1",
            description = "fresh starts of the services per cell, each warmed up to its own plateau (JMH's forks):"
                    + " intervals then span JVM starts; the cells run in N rounds (default: ${DEFAULT-VALUE})")
    int forks;

    @Option(names = "--main-property", paramLabel = "KEY=VALUE",
            description = "extra Spring property for the main-service the harness starts, e.g. fanout.deadline=30s")
    Map<String, String> mainProperties = new LinkedHashMap<>();

    @Option(names = "--jvm-option", paramLabel = "OPTION",
            description = {"JVM option for the main-service the harness starts, in every cell (before a matrix's"
                    + " jvmOptions), repeatable: -D<name>=<value>, -X<option> or -XX:<option>, written with '=', e.g."
                    + " --jvm-option=-Djava.util.concurrent.ForkJoinPool.common.parallelism=8"})
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--main-cpus", paramLabel = "N", description = KnobOptions.MAIN_CPUS_HELP)
    String mainCpus;

    @Option(names = "--own-services",
            description = "start the harness's own services even while ./lab up's run, and leave those running"
                    + " (two sets then share the CPU; tests use it so as never to stop a developer's ./lab up)")
    boolean ownServices;

    @Option(names = "--aot", description = "the services the harness starts use their JDK AOT caches (.lab/aot),"
            + " trained first (about a minute) when missing or a jar was rebuilt; startup only, see docs/profiling.md")
    boolean aot;

    @Option(names = "--out", paramLabel = "DIR", description = "output folder (default: results/<timestamp>); one"
            + " that holds an earlier run of the same command gets this run's forks added, numbered after its own,"
            + " and a report of them all (forks in several sittings)")
    Path out;

    /** The forks an earlier run wrote to {@code --out}, which this one continues. */
    private PriorForks prior = PriorForks.NONE;

    @Option(names = "--dry-run", description = "list the cells and the estimated time, run nothing")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
        Workspace ws = Workspace.current();
        checkOptions();
        if (MatrixFile.FAULTS.equals(preset)) {
            return faults(ws);
        }
        if (MatrixFile.OVERLOAD.equals(preset)) {
            return overload(ws);
        }
        Matrix matrix = matrix();
        matrixCpus = matrix.mainCpus();
        List<Cell> cells = matrix.cells();
        if (dryRun) {
            return plan(cells);
        }
        LoadDriver closedLoop = driver == Driver.hey ? new HeyDriver() : new AbDriver();
        VegetaDriver openModel = requireDrivers(cells, closedLoop);
        requireOpenFiles(cells);
        Charts.initialize();   // AWT registers a shutdown hook when first used: not allowed once Ctrl-C has begun
        Path dir = out != null ? out : ws.results().resolve(timestamp());
        prior = priorForks(dir, cells);
        Files.createDirectories(dir.resolve("raw"));
        RunResult.Machine machine = Environment.machine(ws.repo(), Environment.loadAverage());
        Target target = baseUrl != null ? new RemoteTarget(baseUrl, managementUrl) : localTarget(ws, dir, matrix);
        Setting setting = new Setting(ws, dir, matrix, target, closedLoop, Environment.gitCommit(ws.repo()), machine);
        BenchRunner runner = runner(setting, openModel);
        System.out.println("bench " + matrix.name() + ": " + cells.size() + " cells" + (forks > 1 ? " x " + forks
                + " forks" : "") + ", " + target.describe()
                + "; writing " + dir);
        if (prior.count() > 0) {
            System.out.printf("%s holds %d fork(s) of these cells already: adding forks %d to %d, the report covers"
                    + " them all%n", dir, prior.count(), prior.count() + 1, prior.count() + forks);
        }
        runThenReport(runner, cells, setting);
        System.out.println("wrote " + dir.resolve("results.md") + ", results.csv, results.json, environment.txt,"
                + " charts");
        return 0;
    }

    /** @return the runner that, after each finished cell, appends its rows to results.csv and writes results.json */
    private BenchRunner runner(Setting s, VegetaDriver openModel) {
        ResultsCsv csv = new ResultsCsv(s.dir().resolve("results.csv"), baseUrl != null ? baseUrl.toString()
                : "local", s.load().name());
        BenchRunner[] runner = new BenchRunner[1];
        runner[0] = new BenchRunner(s.target(), s.load(), openModel, s.dir().resolve("raw"), System.out, cell -> {
            csv.append(cell);
            writeJson(s, runner[0].finished());
        }, forks, prior.count());
        return runner[0];
    }

    /** {@code --dry-run}: the cells, the time they take and the forks {@code --out} holds already. */
    private int plan(List<Cell> cells) {
        cells.forEach(c -> System.out.println("  " + c.block() + ": " + c.label()));
        System.out.println(placementLine(cells));
        ToIntBiFunction<Cell, Cell> restarts = baseUrl == null ? LocalTarget::restarts : (previous, next) -> 0;
        Eta eta = new Eta(BenchRunner.rounds(cells, forks), restarts);
        System.out.println(cells.size() + " cells" + (forks > 1 ? " x " + forks + " forks" : "") + ", about "
                + Eta.format(eta.remaining())
                + " (estimated from the bounds; the run's own ETA adjusts as cells finish)");
        int before = out == null ? 0 : priorForks(out, cells).count();
        if (before > 0) {
            System.out.printf("%s holds %d fork(s) of these cells: this run adds forks %d to %d%n", out, before,
                    before + 1, before + forks);
        }
        return 0;
    }

    /**
     * What the report says besides the results: where it is written, which matrix ran on what, with which driver; the
     * sitting's commit and machine, read once when it starts (only the load average after is read anew per write).
     */
    private record Setting(Workspace ws, Path dir, Matrix matrix, Target target, LoadDriver load, String commit,
                           RunResult.Machine machine) {

        RunResult.Machine machineNow() {
            return machine.withLoadAfter(Environment.loadAverage());
        }
    }

    private void checkOptions() {
        if ((baseUrl == null) != (managementUrl == null)) {
            // the load goes to the public port; knobs, readiness and scrapes come from the management port
            throw bad("--base-url and --management-url go together: main-service's public port and its management"
                    + " port (the actuator), e.g. --base-url http://localhost:2222"
                    + " --management-url http://localhost:9222");
        }
        if (forks < 1 || forks > 50) {
            throw bad("--forks must be in 1..50, was " + forks);
        }
        if (forks > 1 && baseUrl != null) {
            throw bad("--forks starts the services afresh per fork, which the harness cannot do to an existing"
                    + " deployment (--base-url): run it without --base-url");
        }
        if (profile != null && baseUrl != null) {
            throw bad("--profile picks the cells whose services the harness starts; an existing deployment (--base-url)"
                    + " runs the profile it was started with, and its cells are that profile's");
        }
        if (aot && baseUrl != null) {
            throw bad("--aot applies to the services the harness starts, not to an existing deployment (--base-url)");
        }
        if (!jvmOptions.isEmpty() && baseUrl != null) {
            throw bad("--jvm-option sets the JVM of the main-service the harness starts; an existing deployment"
                    + " (--base-url) runs with the options it was started with: ./lab up --jvm-option=... (or its"
                    + " manifest), then bench it");
        }
        if (mainCpus != null && baseUrl != null) {
            throw bad("--main-cpus places the main-service the harness starts; an existing deployment (--base-url)"
                    + " runs where it was started: ./lab up --main-cpus " + mainCpus + " (or its pod's limits.cpu)");
        }
        placement();
        try {
            JvmOptions.validated(jvmOptions);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    /** @return vegeta when some cell is open-model (a rate), else null; each driver the cells need is installed */
    private VegetaDriver requireDrivers(List<Cell> cells, LoadDriver closedLoop) {
        if (cells.stream().anyMatch(c -> c.ratePerSecond() == null)) {
            closedLoop.requireInstalled();
        }
        if (cells.stream().noneMatch(c -> c.ratePerSecond() != null)) {
            return null;
        }
        VegetaDriver vegeta = new VegetaDriver();
        vegeta.requireInstalled();
        cells.stream().map(Cell::ratePerSecond).filter(r -> r != null && (r < 1 || r != Math.rint(r))).findFirst()
                .ifPresent(r -> {
                    throw bad("vegeta's -rate takes whole requests per second, not " + r);
                });
        return vegeta;
    }

    /** The services the harness starts hold a socket per client and per pooled connection. */
    private void requireOpenFiles(List<Cell> cells) {
        if (baseUrl == null) {
            OpenFileLimit.require(cells.stream().mapToInt(Cell::concurrency).max().orElse(0),
                    cells.stream().mapToInt(c -> c.poolSize() == null ? ServiceDefaults.POOL_TOTAL : c.poolSize())
                            .max().orElse(ServiceDefaults.POOL_TOTAL),
                    warning -> System.out.println("warning: " + warning));
        }
    }

    /**
     * Runs the cells and writes the report of those that finished, also after an error or a Ctrl-C (the shutdown
     * hook cancels the run and waits until the report is written and the services are stopped).
     */
    private void runThenReport(BenchRunner runner, List<Cell> cells, Setting setting) throws InterruptedException {
        CountDownLatch written = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            runner.cancel();
            try {
                written.await(120, TimeUnit.SECONDS);   // the main thread writes the finished cells, stops the services
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "lab-bench-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        List<CellResult> results = new ArrayList<>();
        String failure = null;
        try {
            results = runner.run(cells);
        } catch (RuntimeException e) {
            failure = e.getMessage();
            results = runner.finished();
        } finally {
            try {
                write(setting, results, results.size() < cells.size() && failure == null, failure);
            } finally {
                setting.target().close();
                written.countDown();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
        if (failure != null) {
            throw new IllegalStateException(failure + "\n(cells finished before are in " + setting.dir() + ")");
        }
    }

    /** results.md (with its charts), results.json and environment.txt; also for a run stopped by an error or Ctrl-C. */
    private void write(Setting s, List<CellResult> sitting, boolean interrupted, String failure) {
        String command = "./lab bench " + String.join(" ", args());
        List<CellResult> results = prior.joined(sitting);
        String drivers = Report.drivers(results, s.load().name());
        RunResult.Machine machine = s.machineNow();
        String load = "before: " + machine.loadAverageBefore() + ", after: " + machine.loadAverageAfter();
        List<String> intro = new ArrayList<>(prior.introLines());
        int all = prior.count() + forks;
        if (prior.count() == 0) {
            intro.addAll(List.of("Command: `" + command + "`", Environment.summary(machine, s.commit()),
                    "Load average (1/5/15 min) " + load));
        } else {
            intro.add(PriorForks.sitting(intro.size() + 1, prior.count() + 1, all, command,
                    Environment.summary(machine, s.commit()), load));
        }
        intro.add("Target: " + s.target().describe() + "; driver: " + drivers
                + (rate != null ? " (open model, " + rate + " req/s offered)" : ""));
        intro.add(placementLine(results.stream().map(CellResult::cell).toList()));
        intro.add("Forks: " + all + (all > 1 ? " (each cell in " + all + " fresh starts of the services"
                + (prior.count() > 0 ? ", in " + (prior.sittings().size() + 1) + " sittings of this --out" : "")
                + "; intervals over the forks' medians)" : " (one start of the services; intervals over the"
                + " repetitions, within that JVM)"));
        if (failure != null) {
            intro.add("**Stopped by an error:** " + failure.lines().findFirst().orElse(""));
        }
        Report.write(s.dir(), "fanout-lab benchmark: " + s.matrix().name(), intro, results, interrupted);
        writeRun(s, command, sitting, drivers);
    }

    /** results.json: the run whole so far, after each cell and when the run ends. */
    private void writeJson(Setting s, List<CellResult> sitting) {
        ResultsJson.write(s.dir(), prior.run(sitting, "./lab bench " + String.join(" ", args()),
                s.commit(), s.machineNow(),
                new RunResult.Knobs(s.matrix().name(), s.target().describe(), s.load().name(), prior.count() + forks,
                        mainProperties(s.matrix()), jvmOptions, aot, placement().label())));
    }

    /** results.json, the run whole, and environment.txt, where it ran (from the same machine's figures). */
    private void writeRun(Setting s, String command, List<CellResult> sitting, String drivers) {
        writeJson(s, sitting);
        List<CellResult> results = prior.joined(sitting);
        String environment = Environment.text(s.machineNow(), s.commit(), List.of(
                "matrix: " + s.matrix().name(), "command: " + command, "target: " + s.target().describe(),
                "driver: " + drivers, "service_jvm_flags: --enable-preview" + (aot && baseUrl == null
                        ? " -XX:AOTCache=<.lab/aot/...> (extracted jars)" : "")
                        + "; main-service also the options below",
                "extra_main_properties: " + mainProperties(s.matrix()),
                "cpu_placement: --main-cpus " + placement().label() + ", " + placement().describe(Environment.cores()),
                "cells: " + results.size() + " finished"),
                Report.mainServiceJvms(results));
        try {
            Files.writeString(s.dir().resolve("environment.txt"), environment);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + s.dir().resolve("environment.txt"), e);
        }
    }

    /** @return the forks {@code dir} holds of these cells; refused with --base-url or past 50 forks in all */
    private PriorForks priorForks(Path dir, List<Cell> cells) {
        try {
            PriorForks found = PriorForks.read(dir, cells, args());
            if (found.count() > 0 && baseUrl != null) {
                throw bad(dir + " holds forks already, and a fork starts the services afresh, which the harness cannot"
                        + " do to an existing deployment (--base-url): give a new --out");
            }
            if (found.count() + forks > 50) {
                throw bad(dir + " holds " + found.count() + " forks: with --forks " + forks + " that is past 50");
            }
            return found;
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    /**
     * One set of services at a time: without {@code ./lab up} the harness's own; with it, {@code ./lab up}'s for the
     * cells whose knobs it has, and for the rest, after stopping it, the harness's own ({@link UpTarget}).
     */
    private Target localTarget(Workspace ws, Path dir, Matrix matrix) {
        Supplier<Target> own = () -> new LocalTarget(ws.repo(), dir.resolve("logs"), mainProperties(matrix), jvmOptions,
                aot ? AotCache.Mode.USE : AotCache.Mode.OFF, placement());
        RunState state = RunState.load(ws);
        Map<String, ProcessHandle> running = state.runningServices();
        if (running.isEmpty()) {
            return own.get();
        }
        if (state.knobs().contains(Up.WITH_ZIPKIN) && !ownServices) {
            throw bad("./lab up " + Up.WITH_ZIPKIN + "'s services record and report traced requests (sampling 1.0 by"
                    + " default), and a benchmark on them would measure tracing: ./lab down, then ./lab up without it,"
                    + " or add --own-services (at sampling 0; both sets then share the CPU)");
        }
        if (!placement().shared() && !ownServices) {
            throw bad("--main-cpus " + mainCpus + " places the services the harness starts, and ./lab up's run: ./lab"
                    + " down first, or add --own-services (both sets then share the CPU)");
        }
        if (forks + prior.count() > 1 && !ownServices) {
            throw bad("--forks starts the services afresh per fork, and ./lab up's services run: ./lab down first,"
                    + " or add --own-services (both sets then share the CPU)");
        }
        if (ownServices) {
            System.out.println("note: --own-services: ./lab up's services keep running beside the harness's own");
            return own.get();
        }
        if (running.size() < ServiceDefaults.SERVICES.size()) {
            throw bad("./lab up's services run only in part (" + running.keySet() + " of " + ServiceDefaults.SERVICES
                    + "): ./lab down, then ./lab up again, or bench without them");
        }
        Map<String, Long> pids = new LinkedHashMap<>();
        running.forEach((name, h) -> pids.put(name, h.pid()));
        URI base = URI.create("http://localhost:" + state.port(ServiceDefaults.MAIN).orElseThrow());
        URI management = URI.create("http://localhost:" + state.managementPort(ServiceDefaults.MAIN).orElseThrow());
        URI orders = state.managementPort("orders-service").map(p -> URI.create("http://localhost:" + p)).orElse(null);
        UpTarget.Up up = new UpTarget.Up(base, management, pids, "./lab up " + state.knobs(),
                () -> state.stop(ServiceDefaults.SERVICES), orders);
        System.out.println("./lab up's services run (" + state.knobs() + "): the cells with their knobs run on them;"
                + " the first cell that needs other knobs stops them first (one set of services at a time)");
        return new UpTarget(up, jvmOptions, mainProperties(matrix), own, System.out);
    }

    /** @return where main-service runs, e.g. {@code CPU placement: main-service on core 1 (cpuset), ...} */
    private String placementLine(List<Cell> cells) {
        List<String> own = cells.stream().map(Cell::mainCpus).filter(Objects::nonNull).distinct().toList();
        String run = placement().describe(Environment.cores()) + " (--main-cpus " + placement().label() + ")";
        return own.isEmpty() ? "CPU placement: " + run : "CPU placement: each cell's own, cpus=" + String.join(", ",
                own) + " (--main-cpus of that value: a decimal point is cores of quota, a whole number a cpuset of"
                + " cores); cells without one: " + run;
    }

    /** The matrix's {@code mainCpus:}, once it is read; {@code --main-cpus} wins over it. */
    private String matrixCpus;

    /** @throws ParameterException a --main-cpus this machine cannot give (message: the valid values) */
    private CpuPlacement placement() {
        try {
            return CpuPlacement.parse(mainCpus != null ? mainCpus : matrixCpus, Environment.cores());
        } catch (IllegalArgumentException e) {
            throw bad(mainCpus != null ? e.getMessage() : "the matrix's mainCpus: " + e.getMessage()
                    + " (or override it with --main-cpus)");
        }
    }

    /** @return this command's own arguments, as typed after {@code bench} */
    private List<String> args() {
        List<String> all = spec.commandLine().getParseResult().originalArgs();
        return all.subList(all.indexOf(spec.name()) + 1, all.size());
    }

    /** @return the matrix file's {@code mainProperties}, overridden by {@code --main-property} */
    private Map<String, String> mainProperties(Matrix matrix) {
        Map<String, String> all = new LinkedHashMap<>(matrix.mainProperties());
        all.putAll(mainProperties);
        return all;
    }

    /** {@code --preset faults}: scenarios, not cells (lab.fanout.bench.faults.FaultsPreset), on services it starts. */
    private int faults(Workspace ws) {
        if (matrixFile != null || baseUrl != null || rate != null || repetitions != null || !mainProperties.isEmpty()
                || forks != 1 || profile != null) {
            throw bad("--preset faults takes only --out and --dry-run: it starts its own services with a 2 s deadline");
        }
        if (dryRun) {
            FaultsPreset.plan().forEach(System.out::println);
            return 0;
        }
        Path dir = out != null ? out : ws.results().resolve(timestamp() + "-faults");
        FaultsPreset.run(ws.repo(), dir, System.out);
        System.out.println("wrote " + dir.resolve("faults.md"));
        return 0;
    }

    /** {@code --preset overload}: past capacity, on services it starts and restarts (lab.fanout.bench.overload). */
    private int overload(Workspace ws) throws InterruptedException {
        if (matrixFile != null || baseUrl != null || rate != null || repetitions != null || !mainProperties.isEmpty()
                || !jvmOptions.isEmpty()) {
            throw bad("--preset overload takes only --forks, --profile, --out and --dry-run: it starts its own"
                    + " services with its own knobs (bench/src/main/java/lab/fanout/bench/overload/OverloadCell.java)");
        }
        List<String> profiles = profile == null ? ServiceDefaults.PROFILES : List.of(profile.name());
        if (dryRun) {
            OverloadPreset.plan(profiles, forks).forEach(System.out::println);
            return 0;
        }
        Charts.initialize();
        Path dir = out != null ? out : ws.results().resolve(timestamp() + "-overload");
        OverloadPreset.run(ws.repo(), dir, profiles, forks, System.out);
        System.out.println("wrote " + dir.resolve("overload.md") + ", overload.csv and the charts");
        return 0;
    }

    /** @return the preset or matrix file with the command line's overrides, every block validated */
    private Matrix matrix() {
        if (preset != null && matrixFile != null) {
            throw bad("give --preset or --matrix, not both");
        }
        try {
            Matrix m = matrixFile != null ? MatrixFile.read(matrixFile)
                    : MatrixFile.preset(preset == null ? "quick" : preset);
            List<Block> blocks = m.blocks();
            if (baseUrl != null) {
                List<String> db = blocks.stream().filter(b -> b.dbPools() != null && !b.dbPools().isEmpty())
                        .map(b -> b.name() + ": dbPools " + b.dbPools()).toList();
                if (!db.isEmpty()) {
                    throw bad("--base-url cannot restart orders-service on PostgreSQL per db pool, but " + db
                            + " ask for it: drop --base-url (the harness then starts its own services), or drop"
                            + " dbPools");
                }
                List<String> sweeps = blocks.stream()
                        .flatMap(b -> b.serviceLevelSweeps().stream().map(s -> b.name() + ": " + s)).toList();
                if (matrixFile != null && !sweeps.isEmpty()) {
                    throw bad("--base-url sweeps only strategy, concurrency, latency and rate, but " + sweeps
                            + " vary service knobs: redeploy per value, or drop --base-url");
                }
                String profile = new RemoteTarget(baseUrl, managementUrl).info().profile();
                blocks = blocks.stream().map(b -> b.forDeployment(profile)).toList();
            }
            if (repetitions != null && repetitions < 1) {
                throw bad("--repetitions must be >= 1");
            }
            if (profile != null) {
                blocks = onlyProfile(blocks, profile.name());
            }
            blocks = blocks.stream().map(b -> rate != null ? b.withRates(List.of(rate)) : b)
                    .map(b -> repetitions != null ? b.withRepetitions(repetitions) : b).map(Block::validated).toList();
            blocks.stream().flatMap(b -> b.cells().stream()).map(Cell::mainCpus).filter(Objects::nonNull).distinct()
                    .forEach(cpus -> CpuPlacement.parse(cpus, Environment.cores()));   // this machine's cores
            return new Matrix(m.name(), blocks, m.mainProperties(), m.mainCpus());
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    /** @return the blocks that list {@code profile}, with only that profile; an error when none does */
    private List<Block> onlyProfile(List<Block> blocks, String profile) {
        List<Block> kept = blocks.stream().filter(b -> b.profiles() != null && b.profiles().contains(profile))
                .map(b -> b.withProfiles(List.of(profile))).toList();
        if (kept.isEmpty()) {
            throw bad("--profile " + profile + ": no block of this matrix runs it (they run "
                    + blocks.stream().map(Block::profiles).distinct().toList() + ")");
        }
        return kept;
    }

    private static String timestamp() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
