package lab.fanout.bench.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import lab.fanout.bench.driver.HeyDriver;
import lab.fanout.bench.driver.LoadDriver;
import lab.fanout.bench.metrics.MachineCpu;
import lab.fanout.bench.metrics.Scraper;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.profile.AsyncProfiler;
import lab.fanout.bench.profile.CollapsedStacks;
import lab.fanout.bench.profile.ProfileSummary;
import lab.fanout.bench.system.Environment;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./lab profile}: flame graphs of main-service under the benchmark's own kind of load (hey, closed loop). */
@Command(name = "profile", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Records a CPU and a wall-clock flame graph of main-service with async-profiler under a"
                + " bounded hey load, and writes them with summary.txt (top frames, main-service CPU-ms per request,"
                + " threads) to results/profile-<timestamp>/.",
                "Starts its own four services on free ports (a running ./lab up is left alone, but shares the CPU) and"
                + " stops them at the end."},
        footer = {"", "Examples:",
                "  ./lab profile               (scopeFork, virtual, 100 clients: about 2 min)",
                "  ./lab profile --strategy threadPerTask --profile platform",
                "  ./lab profile --strategy seq --concurrency 20 --seconds 10",
                "",
                "Open the two cpu.html of two runs side by side to compare strategies. A warm-up of a few seconds"
                        + " leaves the JIT busy (its frames show in the CPU graph); 60 s gives settled figures.",
                "Perf events refused (containers, perf_event_paranoid 3+): the CPU window uses itimer instead, and"
                        + " summary.txt says so."})
public final class Profile implements Callable<Integer> {

    /** How the CPU window samples (--event). */
    enum Event { auto, cpu, itimer }

    private static final Duration CPU_INTERVAL = Duration.ofMillis(10);    // a sample per 10 ms of CPU time
    private static final Duration WALL_INTERVAL = Duration.ofMillis(20);   // all threads sampled per 20 ms of wall time
    /** hey's per-request timeout, s: twice main-service's default deadline, past which a request ends anyway. */
    private static final int TIMEOUT_SECONDS = 2 * ServiceDefaults.DEADLINE_SECONDS;
    private static final int TOP_FRAMES = 15;

    @Spec
    CommandSpec spec;

    @Option(names = "--strategy", paramLabel = "S", defaultValue = "scopeFork",
            description = "fan-out strategy (a concurrency= name or alias: seq, cf, threads, virtual, scope; default:"
                    + " ${DEFAULT-VALUE})")
    String strategy;

    @Mixin
    KnobOptions knobs;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "100",
            description = "hey clients (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--seconds", paramLabel = "N", defaultValue = "20",
            description = "length of each profiled window, s: one CPU, then one wall-clock (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--warmup-seconds", paramLabel = "N", defaultValue = "20",
            description = "load before the first window, never profiled, s (default: ${DEFAULT-VALUE})")
    int warmupSeconds;

    @Option(names = "--event", defaultValue = "auto",
            description = "CPU window's sampling: ${COMPLETION-CANDIDATES}; auto = cpu (perf events) where they work,"
                    + " else itimer (default: ${DEFAULT-VALUE})")
    Event event;

    @Option(names = "--out", paramLabel = "DIR", description = "output folder (default: results/profile-<timestamp>)")
    Path out;

    @Option(names = "--summarize", paramLabel = "FILE",
            description = "start nothing: print a recorded profile's samples by component and its top frames (a"
                    + " .collapsed file, or one gzipped as .collapsed.gz, e.g. docs/overhead/after-cpu.collapsed.gz)")
    Path summarize;

    private final LoadDriver hey = new HeyDriver();
    private Path dir;
    private URI url;
    private long mainPid;
    private AsyncProfiler profiler;
    private Scraper scraper;

    @Override
    public Integer call() throws Exception {
        if (summarize != null) {
            if (!Files.isRegularFile(summarize)) {
                throw bad("--summarize " + summarize + ": no such file (a .collapsed or .collapsed.gz of ./lab"
                        + " profile)");
            }
            System.out.print(ProfileSummary.renderStacks(summarize.toString(), CollapsedStacks.read(summarize),
                    TOP_FRAMES));
            return 0;
        }
        Workspace ws = Workspace.current();
        Strategy s = checked(() -> Strategy.parse(strategy));
        requireRange("--concurrency", concurrency, 1, 10_000);
        requireRange("--seconds", seconds, 1, 600);
        requireRange("--warmup-seconds", warmupSeconds, 0, 600);
        dir = (out != null ? out : ws.results().resolve("profile-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))).toAbsolutePath();
        if (dir.toString().contains(",")) {
            throw bad("--out " + dir + ": async-profiler's options are comma-separated, so the path may hold no comma");
        }
        LaunchSpec launch = checked(() -> knobs.apply(LaunchSpec.defaults(ws.repo())).toBuilder().freePorts(true)
                .logDir(dir.resolve("logs")).build());
        hey.requireInstalled();
        Path library = AsyncProfiler.extract(ws.repo().resolve(".lab/async-profiler"));
        Files.createDirectories(dir.resolve("raw"));
        System.out.printf("profile: %s, %s profile, %d clients, %d s warm-up, then %d s CPU + %d s wall-clock;"
                + " writing %s%n", s, launch.profile(), concurrency, warmupSeconds, seconds, seconds, dir);
        String loadBefore = Environment.loadAverage();
        List<ProfileSummary.Window> windows = profile(launch, s, library);
        writeSummary(ws, s, launch, loadBefore, windows);
        return 0;
    }

    /** Starts the services, warms up, then runs the CPU window and the wall-clock window; stops the services. */
    private List<ProfileSummary.Window> profile(LaunchSpec launch, Strategy s, Path library) throws Exception {
        try (LocalSystem system = LocalSystem.start(launch)) {
            mainPid = system.pids().get(ServiceDefaults.MAIN);
            url = ServiceDefaults.ordersUrl(system.mainBaseUrl(), s, "");
            if (warmupSeconds > 0) {
                System.out.printf("warm-up: %d s of load, not profiled ...%n", warmupSeconds);
                DriverRun w = hey.run(load(warmupSeconds), dir.resolve("raw/warmup"));
                System.out.printf("  warm-up: %d answered (%.0f req/s)%n", w.answered(), w.answeredPerSecond());
            }
            profiler = new AsyncProfiler(mainPid, library, dir.resolve("profiler.log"));
            scraper = new Scraper(system.mainManagementUrl(), Runtime.getRuntime().availableProcessors());
            ProfileSummary.Window cpu = window("CPU", "cpu", startCpu());
            profiler.start("wall", WALL_INTERVAL);
            return List.of(cpu, window("wall", "wall", "wall, all threads, running or waiting, a sample every "
                    + WALL_INTERVAL.toMillis() + " ms of wall time"));
        }
    }

    private void writeSummary(Workspace ws, Strategy s, LaunchSpec launch, String loadBefore,
                              List<ProfileSummary.Window> windows) throws IOException {
        List<String> intro = List.of(
                "./lab profile " + String.join(" ", args()),
                String.format(Locale.ROOT, "main-service (pid %d) with %s, %s profile, %d hey clients, knobs: %s",
                        mainPid, s, launch.profile(), concurrency, knobs.asArgs()),
                "warm-up before the windows: " + warmupSeconds + " s (a fresh JVM needs 60-80 s before its figures"
                        + " settle)",
                "async-profiler 4.2 loaded through the JDK Attach API (profiler.log: every action and its answer)",
                Environment.summary(ws.repo()),
                "load average (1/5/15 min) before: " + loadBefore + ", after: " + Environment.loadAverage());
        String text = ProfileSummary.render(intro, windows, TOP_FRAMES);
        Path summary = Files.writeString(dir.resolve("summary.txt"), text);
        System.out.println();
        System.out.print(text);
        System.out.println();
        System.out.println("wrote " + dir.resolve("cpu.html") + ", " + dir.resolve("wall.html") + ", " + summary);
    }

    /** @return the CPU window's engine in words, once sampling runs */
    private String startCpu() {
        String interval = ", a sample every " + CPU_INTERVAL.toMillis() + " ms of CPU time";
        if (event == Event.itimer) {
            profiler.start("itimer", CPU_INTERVAL);
            return "itimer (asked for with --event itimer)" + interval;
        }
        String refused;
        try {
            profiler.start("cpu", CPU_INTERVAL);
            if (profiler.perfEventsOpen()) {
                return "cpu on perf events" + interval;
            }
            if (event == Event.cpu) {
                return "cpu, but perf events were refused here, so async-profiler used its ctimer fallback" + interval;
            }
            profiler.stop();
            refused = "perf events were refused here (no perf_event descriptor after start,event=cpu)";
        } catch (IllegalStateException e) {
            if (event == Event.cpu) {
                throw e;
            }
            refused = "event=cpu failed here: " + e.getMessage().lines().findFirst().orElse("");
        }
        System.out.println("  " + refused + ": using itimer");
        profiler.start("itimer", CPU_INTERVAL);
        return "itimer, because " + refused + interval;
    }

    /** Drives one window while {@link #profiler} samples, then stops it and writes {@code file}.html and .collapsed. */
    private ProfileSummary.Window window(String name, String file, String engine) throws InterruptedException {
        System.out.printf("%s window: %d s of load, %s ...%n", name, seconds, engine);
        Map<String, Long> pids = Map.of(ServiceDefaults.MAIN, mainPid);
        MachineCpu before = MachineCpu.now(pids);
        Scraper.Sampling sampling = scraper.start();
        DriverRun run;
        try {
            run = hey.run(load(seconds), dir.resolve("raw/" + file));
        } finally {
            profiler.stop();
        }
        ServerFigures server = sampling.stop();
        Double cpuSeconds = MachineCpu.secondsByProcess(before, MachineCpu.now(pids)).get(ServiceDefaults.MAIN);
        String title = "main-service " + name + " profile - " + url.getQuery() + " - " + concurrency + " clients";
        List<String> files = List.of(file + ".html", file + ".collapsed");
        files.forEach(f -> profiler.dump(dir.resolve(f), title));
        CollapsedStacks stacks = CollapsedStacks.read(dir.resolve(files.getLast()));
        Double perRequest = ProfileSummary.cpuMsPerRequest(cpuSeconds, run.answered());
        System.out.printf(Locale.ROOT, "  %s window: %d answered (%.0f req/s), %d samples, main-service %s CPU-ms per"
                + " request%n", name, run.answered(), run.answeredPerSecond(), stacks.total(),
                perRequest == null ? "n/a" : String.format(Locale.ROOT, "%.3f", perRequest));
        return new ProfileSummary.Window(name, engine, files, run.windowSeconds(), run.answered(), run.errors(),
                cpuSeconds, server, stacks);
    }

    private Load load(int durationSeconds) {
        return new Load(url, concurrency, null, durationSeconds, null, TIMEOUT_SECONDS);
    }

    /** @return {@code parse}'s value; its IllegalArgumentException as a bad option (exit 2) */
    private <T> T checked(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    private void requireRange(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw bad(option + " must be in " + min + ".." + max + ", was " + value);
        }
    }

    /** @return this command's own arguments, as typed after {@code profile} */
    private List<String> args() {
        List<String> all = spec.commandLine().getParseResult().originalArgs();
        int at = all.indexOf(spec.name());
        return all.subList(at + 1, all.size());
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
