package lab.fanout.bench.model;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import lab.fanout.bench.report.ResultsJson;

/**
 * Cells for tests, named knobs over defaults (Resilience4j's {@code custom()} style): block {@code quick}, 100 clients,
 * 200 ms downstreams, 200 Tomcat threads (none on netty), an HTTP pool of 500, 2 cores; each {@link #rep} one
 * repetition. Written with {@link #write}, they are a results.json that compare and verdicts read as a run's.
 */
public final class TestCells {

    private static final int LATENCY_MS = 200;
    private static final int POOL = 500;

    private final Strategy strategy;
    private final String profile;
    private String block = "quick";
    private int clients = 100;
    private Integer tomcatThreads = 200;
    private String query = "";
    private Integer dbPool;
    private String ordersStore;
    private String reactiveClient;
    private final List<Rep> reps = new ArrayList<>();

    private TestCells(Strategy strategy, String profile) {
        this.strategy = strategy;
        this.profile = profile;
    }

    /** @param strategy as {@code ?concurrency=} takes it, e.g. scopeFork; profile virtual, platform or netty */
    public static TestCells cell(String strategy, String profile) {
        return new TestCells(Strategy.parse(strategy), profile);
    }

    public TestCells block(String name) {
        block = name;
        return this;
    }

    public TestCells clients(int concurrency) {
        clients = concurrency;
        return this;
    }

    public TestCells tomcatThreads(Integer threads) {
        tomcatThreads = threads;
        return this;
    }

    public TestCells query(String q) {
        query = q;
        return this;
    }

    /** @param client the {@code fanout.reactive.client} main-service reports, e.g. reactor-netty */
    public TestCells reactiveClient(String client) {
        reactiveClient = client;
        return this;
    }

    /** @param store orders-service's driver: {@link Cell#JDBC} or {@link Cell#R2DBC} */
    public TestCells dbPool(int size, String store) {
        dbPool = size;
        ordersStore = store;
        return this;
    }

    public TestCells rep(Rep rep) {
        reps.add(rep);
        return this;
    }

    /** @param reqPerS one repetition per fork, forks 1, 2, … in order, each with {@link Rep#of}'s defaults */
    public TestCells forks(double... reqPerS) {
        for (int i = 0; i < reqPerS.length; i++) {
            reps.add(Rep.of(i + 1, reqPerS[i]));
        }
        return this;
    }

    /** @return the cell as a run records it: its Little's-law bound clients ÷ latency, its deployment the knobs */
    public CellResult build(int index) {
        Integer threads = "netty".equals(profile) ? null : tomcatThreads;
        Cell cell = Cell.custom().block(block).strategy(strategy).profile(profile).tomcatThreads(threads).poolSize(POOL)
                .dbPool(dbPool).ordersStore(ordersStore).concurrency(clients).latencyMs(LATENCY_MS).query(query)
                .repetitions(1).build();
        Deployment deployment = new Deployment(profile, "virtual".equals(profile), threads, POOL, POOL, 1, 2,
                LATENCY_MS, Deployment.Jvm.UNKNOWN, dbPool, null, reactiveClient);
        Load load = new Load(URI.create("http://127.0.0.1:1/x"), clients, null, 10, null, 20);
        List<Repetition> repetitions = new ArrayList<>();
        for (Rep rep : reps) {
            repetitions.add(rep.repetition(repetitions.size() + 1, load, cell));
        }
        return new CellResult(index, cell, deployment, new Bound(1000.0 * clients / LATENCY_MS, "clients"),
                repetitions, Map.of(), "hey -z 10s -c " + clients);
    }

    /** Writes {@code dir/name/results.json} holding the cells in order; @return that folder */
    public static Path write(Path dir, String name, TestCells... cells) {
        List<CellResult> results = new ArrayList<>();
        for (TestCells cell : cells) {
            results.add(cell.build(results.size() + 1));
        }
        return write(dir, name, results);
    }

    /** @see #write(Path, String, TestCells...) */
    public static Path write(Path dir, String name, List<CellResult> cells) {
        try {
            Path folder = Files.createDirectories(dir.resolve(name));
            var machine = new RunResult.Machine("test CPU", 2, "8 GB", "Linux", "25", List.of(), "-", "-", "0", "0");
            var sitting = new RunResult.Sitting(1, ResultsJson.forks(cells), "./lab bench", "test", machine);
            var knobs = new RunResult.Knobs(name, "local", "hey", ResultsJson.forks(cells), Map.of(), List.of(),
                    false, null);
            ResultsJson.write(folder, new RunResult(null, List.of(sitting), knobs, cells));
            return folder;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * One repetition: req/s = ok ÷ a 1,000 s window (so any 0.001 req/s is exact), every answer at {@code p99Ms} (NaN:
     * latencies not recorded, the p99 left empty) but a tail cell's slow ones past its threshold
     * ({@link Tail#slowAboveMs}).
     *
     * @param errorShare    the share of answers that were errors (HTTP 503), 0–1
     * @param slowPercent   a tail cell's answers past its slow threshold, %; null: none
     * @param loadSideBusy  the load side's busy share, %; null: the shared bed (no load side of its own)
     * @param mainCpuMs     main-service's CPU-ms per answer; null: not measured
     * @param partialPercent the 2xx answers that were partial (onDeadline=partial), %; null: not counted
     */
    public record Rep(int fork, double reqPerS, double p99Ms, boolean settled, double errorShare, Double slowPercent,
                      Double loadSideBusy, Double mainCpuMs, Double partialPercent) {

        private static final double WINDOW_S = 1000;

        public static Rep of(int fork, double reqPerS) {
            return new Rep(fork, reqPerS, 20, true, 0, null, null, null, null);
        }

        public Rep p99(double ms) {
            return new Rep(fork, reqPerS, ms, settled, errorShare, slowPercent, loadSideBusy, mainCpuMs,
                    partialPercent);
        }

        /** @return this repetition with its warm-up stopped by the cap (its figures unsettled) */
        public Rep unsettled() {
            return new Rep(fork, reqPerS, p99Ms, false, errorShare, slowPercent, loadSideBusy, mainCpuMs,
                    partialPercent);
        }

        public Rep errors(double share) {
            return new Rep(fork, reqPerS, p99Ms, settled, share, slowPercent, loadSideBusy, mainCpuMs, partialPercent);
        }

        public Rep slow(double percent) {
            return new Rep(fork, reqPerS, p99Ms, settled, errorShare, percent, loadSideBusy, mainCpuMs, partialPercent);
        }

        public Rep loadSideBusy(double percent) {
            return new Rep(fork, reqPerS, p99Ms, settled, errorShare, slowPercent, percent, mainCpuMs, partialPercent);
        }

        public Rep mainCpuMs(double ms) {
            return new Rep(fork, reqPerS, p99Ms, settled, errorShare, slowPercent, loadSideBusy, ms, partialPercent);
        }

        public Rep partial(double percent) {
            return new Rep(fork, reqPerS, p99Ms, settled, errorShare, slowPercent, loadSideBusy, mainCpuMs, percent);
        }

        Repetition repetition(int index, Load load, Cell cell) {
            long ok = Math.round(reqPerS * WINDOW_S);
            long answered = Math.round(ok / (1 - errorShare));
            TreeMap<String, Long> errors = answered > ok ? new TreeMap<>(Map.of("HTTP 503", answered - ok))
                    : new TreeMap<>();
            Histogram latencies = DriverRun.histogram();
            long slow = slowPercent == null ? 0 : Math.round(answered * slowPercent / 100);
            if (answered > slow && !Double.isNaN(p99Ms)) {
                latencies.recordValueWithCount(Math.round(p99Ms * 1000), answered - slow);
            }
            if (slow > 0) {
                double threshold = cell.tail().orElseThrow().slowAboveMs(LATENCY_MS);
                latencies.recordValueWithCount(Math.round(threshold * 1000 + 1000), slow);
            }
            var run = new DriverRun(-1, answered, ok, errors, WINDOW_S, latencies);
            var scheduler = loadSideBusy == null ? null
                    : new SchedulerFigures(1.0, loadSideBusy, null, null, null, null);
            Map<String, Double> cpu = mainCpuMs == null ? Map.of()
                    : Map.of(ServiceDefaults.MAIN, mainCpuMs * answered / 1000);
            var server = new ServerFigures(null, null, null, null, null, 1, null, Memory.NONE, null, null, null,
                    partialPercent == null ? null : (double) Math.round(ok * partialPercent / 100));
            return new Repetition(index, load, run, server, null, null, cpu, fork, settled, scheduler);
        }
    }
}
