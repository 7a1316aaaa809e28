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
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import lab.fanout.bench.driver.AbDriver;
import lab.fanout.bench.driver.HeyDriver;
import lab.fanout.bench.driver.LoadDriver;
import lab.fanout.bench.faults.FaultsPreset;
import lab.fanout.bench.matrix.Block;
import lab.fanout.bench.matrix.Cell;
import lab.fanout.bench.matrix.Matrix;
import lab.fanout.bench.matrix.MatrixFile;
import lab.fanout.bench.report.Charts;
import lab.fanout.bench.report.Environment;
import lab.fanout.bench.report.ResultsCsv;
import lab.fanout.bench.report.ResultsMarkdown;
import lab.fanout.bench.run.BenchRunner;
import lab.fanout.bench.run.CellResult;
import lab.fanout.bench.run.LocalTarget;
import lab.fanout.bench.run.RemoteTarget;
import lab.fanout.bench.run.Target;
import lab.fanout.bench.system.AotCache;
import lab.fanout.bench.system.OpenFileLimit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./lab bench}: runs a matrix and writes results.csv, results.md, charts and environment.txt. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Runs a benchmark matrix (a preset or a YAML/CSV file) and writes results/<timestamp>/: results.csv,"
                + " results.md, charts (PNG), environment.txt, raw driver output.",
                "Without --base-url it starts and stops the four services itself on free ports (a running ./lab up is"
                + " left alone, but shares the CPU: stop it for clean numbers)."},
        footer = {"", "Examples:", "  ./lab bench                      (the quick preset: about 8 min on 2 cores)",
                "  ./lab bench --preset seed        (the seed demo's tables: hours)",
                "  ./lab bench --preset faults      (failure modes per strategy: about 5 min)",
                "  ./lab bench --preset soak        (1,200 and 10,000 clients for 60 s: about 10 min)",
                "  ./lab bench --matrix bench/matrices/example.csv",
                "  ./lab bench --rate 300           (open model: 300 req/s offered)",
                "  ./lab bench --base-url http://localhost:2222   (an existing deployment)"})
public final class Bench implements Callable<Integer> {

    enum Driver { hey, ab }

    static final String FAULTS = "faults";

    @Spec
    CommandSpec spec;

    @Option(names = "--preset", paramLabel = "NAME",
            description = "quick, seed, scale, soak or faults (default: quick unless --matrix); faults is not a"
                    + " throughput matrix but the failure-mode table per strategy (faults.md)")
    String preset;

    @Option(names = "--matrix", paramLabel = "FILE", description = "a YAML or CSV matrix file (examples: bench/matrices/)")
    Path matrixFile;

    @Option(names = "--base-url", paramLabel = "URL",
            description = "benchmark an existing main-service instead (only strategy, concurrency, latency, rate vary)")
    URI baseUrl;

    @Option(names = "--management-url", paramLabel = "URL",
            description = "with --base-url: that main-service's management port (its actuator), e.g. http://localhost:9222")
    URI managementUrl;

    @Option(names = "--driver", defaultValue = "hey", description = "load driver: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    Driver driver;

    @Option(names = "--rate", paramLabel = "REQ_PER_S", description = "open model: offer this many req/s in total in every cell (hey only)")
    Double rate;

    @Option(names = "--repetitions", paramLabel = "N", description = "measured runs per cell, overriding the matrix (3 or more for a min-max)")
    Integer repetitions;

    @Option(names = "--main-property", paramLabel = "KEY=VALUE",
            description = "extra Spring property for the main-service the harness starts, e.g. fanout.deadline=30s")
    Map<String, String> mainProperties = new LinkedHashMap<>();

    @Option(names = "--aot", description = "the services the harness starts use their JDK AOT caches (.lab/aot), trained"
            + " first (about a minute) when missing or a jar was rebuilt; startup only, see README")
    boolean aot;

    @Option(names = "--out", paramLabel = "DIR", description = "output folder (default: results/<timestamp>)")
    Path out;

    @Option(names = "--dry-run", description = "list the cells and the estimated time, run nothing")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
        Workspace ws = Workspace.current();
        if ((baseUrl == null) != (managementUrl == null)) {
            // the load goes to the public port; knobs, readiness and scrapes come from the management port
            throw bad("--base-url and --management-url go together: main-service's public port and its management"
                    + " port (the actuator), e.g. --base-url http://localhost:2222 --management-url http://localhost:9222");
        }
        if (aot && baseUrl != null) {
            throw bad("--aot applies to the services the harness starts, not to an existing deployment (--base-url)");
        }
        if (FAULTS.equals(preset)) {
            return faults(ws);
        }
        Matrix matrix = matrix();
        LoadDriver load = driver == Driver.hey ? new HeyDriver() : new AbDriver();
        if (rate != null && driver == Driver.ab) {
            throw bad("--rate needs --driver hey: ab has no constant-rate mode");
        }
        List<Cell> cells = matrix.cells();
        if (dryRun) {
            cells.forEach(c -> System.out.println("  " + c.block() + ": " + c.label()));
            System.out.println(cells.size() + " cells, about " + BenchRunner.Eta.format(BenchRunner.estimate(cells, baseUrl == null))
                    + " (estimated from the bounds; the run's own ETA adjusts as cells finish)");
            return 0;
        }
        load.requireInstalled();
        if (baseUrl == null) {
            OpenFileLimit.require(cells.stream().mapToInt(Cell::concurrency).max().orElse(0),
                    cells.stream().mapToInt(c -> c.poolSize() == null ? 500 : c.poolSize()).max().orElse(500),
                    warning -> System.out.println("warning: " + warning));
        }
        Charts.initialize();   // AWT registers a shutdown hook when first used: not allowed once Ctrl-C has begun
        Path dir = out != null ? out : ws.results().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(dir.resolve("raw"));
        String loadBefore = Environment.loadAverage();
        Target target = baseUrl != null ? new RemoteTarget(baseUrl, managementUrl)
                : new LocalTarget(ws.repo(), dir.resolve("logs"), mainProperties(matrix), aot ? AotCache.Mode.USE : AotCache.Mode.OFF);
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), baseUrl != null ? baseUrl.toString() : "local", load.name());
        BenchRunner runner = new BenchRunner(target, load, dir.resolve("raw"), System.out, csv::append);
        System.out.println("bench " + matrix.name() + ": " + cells.size() + " cells, " + target.describe() + "; writing " + dir);
        if (baseUrl == null && !RunState.load(ws).running().isEmpty()) {
            System.out.println("note: the services of ./lab up keep running, idle, beside the harness's own; for the"
                    + " cleanest numbers stop them (./lab down), or measure them instead: --base-url http://localhost:2222 --management-url http://localhost:9222");
        }

        CountDownLatch written = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            runner.cancel();
            await(written);   // let the main thread write the finished cells and stop the services
        }, "lab-bench-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        List<CellResult> results = new ArrayList<>();
        String failure = null;
        try {
            results = runner.run(cells);
        } catch (RuntimeException e) {
            failure = e.getMessage();
        } finally {
            boolean interrupted = results.size() < cells.size() && failure == null;
            try {
                write(ws, dir, matrix, target, load, loadBefore, results, interrupted, failure);
            } finally {
                target.close();
                written.countDown();
            }
        }
        removeHook(hook);
        if (failure != null) {
            throw new IllegalStateException(failure + "\n(cells finished before are in " + dir + ")");
        }
        System.out.println("wrote " + dir.resolve("results.md") + ", results.csv, environment.txt, charts");
        return 0;
    }

    private void write(Workspace ws, Path dir, Matrix matrix, Target target, LoadDriver load, String loadBefore,
                       List<CellResult> results, boolean interrupted, String failure) {
        Map<String, List<String>> charts = new LinkedHashMap<>();
        String chartFailure = null;
        try {
            results.stream().collect(Collectors.groupingBy(r -> r.cell().block(), LinkedHashMap::new, Collectors.toList()))
                    .forEach((block, cells) -> charts.put(block, Charts.write(dir, block, cells)));
        } catch (RuntimeException e) {
            chartFailure = e.toString();   // the tables and the CSV matter more than the pictures
        }
        String command = "./lab bench " + String.join(" ", args());
        List<String> intro = List.of(
                "Command: `" + command + "`",
                Environment.summary(ws.repo()),
                "Load average (1/5/15 min) before: " + loadBefore + ", after: " + Environment.loadAverage(),
                "Target: " + target.describe() + "; driver: " + load.name()
                        + (rate != null ? " (open model, " + rate + " req/s offered)" : ""));
        List<String> lines = new ArrayList<>(intro);
        if (failure != null) {
            lines.add("**Stopped by an error:** " + failure.lines().findFirst().orElse(""));
        }
        if (chartFailure != null) {
            lines.add("Charts could not be drawn: " + chartFailure);
        }
        write(dir.resolve("results.md"), ResultsMarkdown.render("fanout-lab benchmark: " + matrix.name(), lines, results,
                charts, interrupted));
        write(dir.resolve("environment.txt"), Environment.text(ws.repo(), List.of(
                "matrix: " + matrix.name(), "command: " + command,
                "target: " + target.describe(), "driver: " + load.name(),
                "service_jvm_flags: --enable-preview" + (aot && baseUrl == null ? " -XX:AOTCache=<.lab/aot/...> (extracted jars)" : "")
                        + " (JVM defaults otherwise)",
                "extra_main_properties: " + mainProperties(matrix),
                "cells: " + results.size() + " finished"), loadBefore));
    }

    /** @return this command's own arguments, as typed after {@code bench} */
    private List<String> args() {
        List<String> all = spec.commandLine().getParseResult().originalArgs();
        int at = all.indexOf(spec.name());
        return all.subList(at + 1, all.size());
    }

    /** @return the matrix file's {@code mainProperties}, overridden by {@code --main-property} */
    private Map<String, String> mainProperties(Matrix matrix) {
        Map<String, String> all = new LinkedHashMap<>(matrix.mainProperties());
        all.putAll(mainProperties);
        return all;
    }

    /** {@code --preset faults}: scenarios, not cells (lab.fanout.bench.faults.FaultsPreset), on services it starts. */
    private int faults(Workspace ws) {
        if (matrixFile != null || baseUrl != null || rate != null || repetitions != null || dryRun || !mainProperties.isEmpty()) {
            throw bad("--preset faults takes only --out: it starts its own services with a 2 s deadline");
        }
        Path dir = out != null ? out : ws.results().resolve(
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-faults");
        FaultsPreset.run(ws.repo(), dir, System.out);
        System.out.println("wrote " + dir.resolve("faults.md"));
        return 0;
    }

    private Matrix matrix() {
        if (preset != null && matrixFile != null) {
            throw bad("give --preset or --matrix, not both");
        }
        Matrix m;
        try {
            m = matrixFile != null ? MatrixFile.read(matrixFile) : MatrixFile.preset(preset == null ? "quick" : preset);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        List<Block> blocks = m.blocks();
        if (baseUrl != null) {
            List<String> sweeps = blocks.stream().flatMap(b -> b.serviceLevelSweeps().stream().map(s -> b.name() + ": " + s)).toList();
            if (matrixFile != null && !sweeps.isEmpty()) {
                throw bad("--base-url sweeps only strategy, concurrency, latency and rate, but " + sweeps
                        + " vary service knobs: redeploy per value, or drop --base-url");
            }
            String profile = new RemoteTarget(baseUrl, managementUrl).info().profile();
            blocks = blocks.stream().map(b -> b.forDeployment(profile)).toList();
        }
        if (rate != null) {
            blocks = blocks.stream().map(b -> b.withRates(List.of(rate))).toList();
        }
        if (repetitions != null) {
            if (repetitions < 1) {
                throw bad("--repetitions must be >= 1");
            }
            blocks = blocks.stream().map(b -> b.withRepetitions(repetitions)).toList();
        }
        try {
            blocks.forEach(Block::validated);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        return new Matrix(m.name(), blocks, m.mainProperties());
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
    }
}
