package lab.fanout.bench.matrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.JvmOptions;
import lab.fanout.bench.model.Strategy;

/**
 * One table of the matrix: the cross product of its lists. Field names are the keys of a matrix file (YAML or CSV),
 * units in the names. An empty knob list means "the service's default".
 *
 * @param name            table title and file-name prefix of its charts
 * @param strategies      seed names or aliases (sequential, cf, threads, virtual, scope, ...)
 * @param profiles        virtual and/or platform
 * @param tomcatThreads   server.tomcat.threads.max values of main-service
 * @param poolSizes       connection pool sizes (max-total = max-per-route)
 * @param jvmOptions      main-service's JVM options: a list of option lists, each one value of this axis (an empty
 *                        list = the JVM's defaults), e.g. {@code [[-Djava.util.concurrent.ForkJoinPool.common.parallelism=2],
 *                        [-Djdk.virtualThreadScheduler.parallelism=1, -Djdk.virtualThreadScheduler.maxPoolSize=1]]};
 *                        a single option per value may be written as a plain list (CSV: space-separated, one option
 *                        per value). Each value restarts main-service
 * @param concurrencies   load driver clients (hey -c)
 * @param latenciesMs     downstream latency per call, ms
 * @param ratesPerSecond  open model (constant rate) offered req/s; empty = closed loop
 * @param requests        requests per repetition (as the seed's ab -n); or leave out and give durationSeconds
 * @param durationSeconds target length of a repetition, s; its request count is sized from the warm-up's rate
 * @param warmupSeconds   unmeasured warm-up before each cell, s (default 5)
 * @param repetitions     measured runs per cell (default 3)
 * @param timeoutSeconds  per-request timeout of the driver, s (default 20; 0 = none, hey only)
 */
public record Block(String name, List<String> strategies, List<String> profiles, List<Integer> tomcatThreads,
                    List<Integer> poolSizes, List<List<String>> jvmOptions, List<Integer> concurrencies, List<Integer> latenciesMs,
                    List<Double> ratesPerSecond, Integer requests, Integer durationSeconds, Integer warmupSeconds,
                    Integer repetitions, Integer timeoutSeconds) {

    static final List<String> PROFILES = List.of("virtual", "platform");

    /**
     * @return the cells, ordered so that services restart least: latency (all four restart), then profile, threads and
     * pool and JVM options (main-service restarts), then concurrency, rate and strategy (no restart)
     * @throws IllegalArgumentException naming the block, the field and the valid values
     */
    public List<Cell> cells() {
        List<Strategy> parsed = strategies().stream().map(Strategy::parse).toList();
        List<Cell> cells = new ArrayList<>();
        for (Integer latency : latenciesMs())
            for (String profile : profiles())
                for (Integer threads : orNull(tomcatThreads))
                    for (Integer pool : orNull(poolSizes))
                        for (List<String> jvm : jvmOptions == null || jvmOptions.isEmpty() ? List.of(List.<String>of()) : jvmOptions)
                            for (Integer c : concurrencies())
                                for (Double rate : orNull(ratesPerSecond))
                                    for (Strategy s : parsed) {
                                        cells.add(new Cell(name, s, profile, threads, pool, jvm, c, latency, rate, requests,
                                                durationSeconds, or(warmupSeconds, 5), or(repetitions, 3), or(timeoutSeconds, 20)));
                                    }
        return cells;
    }

    /** @throws IllegalArgumentException on the first invalid field, naming block, field and what is valid */
    public Block validated() {
        require(name != null && !name.isBlank(), "name", "is missing");
        require(strategies != null && !strategies.isEmpty(), "strategies", "is missing; give at least one of "
                + Arrays.toString(Strategy.values()));
        strategies.forEach(s -> wrap("strategies", () -> Strategy.parse(s)));
        require(profiles != null && !profiles.isEmpty() && PROFILES.containsAll(profiles), "profiles",
                "must list virtual and/or platform, was " + profiles);
        require(concurrencies != null && !concurrencies.isEmpty(), "concurrencies", "is missing");
        require(latenciesMs != null && !latenciesMs.isEmpty(), "latenciesMs", "is missing");
        allInRange("tomcatThreads", tomcatThreads, 1, 100_000);
        allInRange("poolSizes", poolSizes, 1, 100_000);
        allInRange("concurrencies", concurrencies, 1, 100_000);
        if (jvmOptions != null) {
            jvmOptions.forEach(options -> {
                require(options != null, "jvmOptions", "values must be lists of options ([] for the JVM's defaults)");
                wrap("jvmOptions", () -> JvmOptions.validated(options));
            });
        }
        allInRange("latenciesMs", latenciesMs, 0, 60_000);
        require(ratesPerSecond == null || ratesPerSecond.stream().allMatch(r -> r != null && r > 0), "ratesPerSecond",
                "must be > 0");
        require((requests == null) != (durationSeconds == null), "requests",
                "give either requests (per repetition) or durationSeconds, not both or neither");
        require(requests == null || requests >= concurrencies.stream().mapToInt(i -> i).max().orElse(1), "requests",
                "must be >= every concurrency (each client sends at least one)");
        require(durationSeconds == null || durationSeconds >= 1, "durationSeconds", "must be >= 1");
        require(warmupSeconds == null || warmupSeconds >= 1, "warmupSeconds", "must be >= 1 (warm-up is not optional)");
        require(repetitions == null || repetitions >= 1, "repetitions", "must be >= 1 (3 or more for a min-max)");
        require(timeoutSeconds == null || timeoutSeconds >= 0, "timeoutSeconds", "must be >= 0");
        return this;
    }

    private void allInRange(String field, List<Integer> values, int min, int max) {
        if (values != null) {
            values.forEach(v -> require(v != null && v >= min && v <= max, field, "values must be in " + min + ".." + max + ", was " + v));
        }
    }

    private void require(boolean ok, String field, String problem) {
        if (!ok) {
            throw new IllegalArgumentException("block '" + name + "': " + field + " " + problem);
        }
    }

    private void wrap(String field, Runnable check) {
        try {
            check.run();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("block '" + name + "': " + field + ": " + e.getMessage(), e);
        }
    }

    private static <T> List<T> orNull(List<T> values) {
        return values == null || values.isEmpty() ? Collections.singletonList(null) : values;
    }

    private static int or(Integer v, int otherwise) {
        return v == null ? otherwise : v;
    }

    /** @return this block as an open model at {@code rates} req/s (--rate) */
    public Block withRates(List<Double> rates) {
        return new Block(name, strategies, profiles, tomcatThreads, poolSizes, jvmOptions, concurrencies, latenciesMs, rates,
                requests, durationSeconds, warmupSeconds, repetitions, timeoutSeconds);
    }

    public Block withRepetitions(int n) {
        return new Block(name, strategies, profiles, tomcatThreads, poolSizes, jvmOptions, concurrencies, latenciesMs, ratesPerSecond,
                requests, durationSeconds, warmupSeconds, n, timeoutSeconds);
    }

    /** @return this block for a deployment whose service knobs are fixed: only request-level variants remain */
    public Block forDeployment(String profile) {
        return new Block(name, strategies, List.of(profile), List.of(), List.of(), List.of(), concurrencies, latenciesMs,
                ratesPerSecond, requests, durationSeconds, warmupSeconds, repetitions, timeoutSeconds);
    }

    /** @return the service-level knobs this block varies beyond one value (a fixed deployment cannot) */
    public List<String> serviceLevelSweeps() {
        List<String> sweeps = new ArrayList<>();
        if (profiles != null && profiles.size() > 1) {
            sweeps.add("profiles " + profiles);
        }
        if (tomcatThreads != null && tomcatThreads.size() > 1) {
            sweeps.add("tomcatThreads " + tomcatThreads);
        }
        if (poolSizes != null && poolSizes.size() > 1) {
            sweeps.add("poolSizes " + poolSizes);
        }
        if (jvmOptions != null && jvmOptions.stream().anyMatch(o -> o != null && !o.isEmpty())) {
            sweeps.add("jvmOptions " + jvmOptions);
        }
        return sweeps;
    }
}
