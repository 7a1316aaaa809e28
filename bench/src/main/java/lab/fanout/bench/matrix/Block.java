package lab.fanout.bench.matrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.JvmOptions;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;

/**
 * One table of the matrix: the cross product of its lists. Field names are a matrix file's keys (YAML or CSV), units
 * in the names; an empty knob list means the service's default. See {@link Cell} for each knob.
 *
 * @param strategies  seed names or aliases (sequential, cf, threads, virtual, scope, ...)
 * @param poolSizes   connection pool sizes (max-total = max-per-route)
 * @param dbPools     orders-service's JDBC pool sizes, 1..1000: each value runs orders-service on its PostgreSQL store
 *                    (an embedded server) with {@code orders.db.pool-size} = the value, and restarts the downstreams;
 *                    empty = the memory store (docs/orders-store.md)
 * @param ordersStores with dbPools, the drivers orders-service reads PostgreSQL with, each value a restart:
 *                    {@code postgres} (JDBC, HikariCP) and/or {@code r2dbc} (R2DBC, r2dbc-pool); empty = postgres
 * @param jvmOptions  main-service's JVM options, a list of option lists, each one value of this axis ({@code []} = the
 *                    JVM's defaults); a single option per value may be written as a plain list. Each value restarts
 *                    main-service
 * @param ordersJvmOptions orders-service's JVM options in every cell of the block, one list (not an axis): with a
 *                    fixed heap and {@code -XX:NativeMemoryTracking=summary} each cell restarts all four services and
 *                    reads orders-service's memory mid-run, what its requests waiting for a db connection hold
 * @param queries     request-level variants: main-service query strings such as {@code width=3&hedgeAfterMs=p95}
 *                    (no restart); empty = none. {@code concurrency} and {@code latencyMs} are knobs of their own
 * @param requests    requests per repetition (as the seed's ab -n); or leave out and give durationSeconds
 * @param mainCpus    main-service's CPU placements, each a value of {@code --main-cpus} ({@code 0.5}, {@code 1},
 *                    {@code all}) and a restart of all four; empty = the run's (docs/benchmarks.md, placement)
 */
public record Block(String name, List<String> strategies, List<String> profiles, List<Integer> tomcatThreads,
                    List<Integer> poolSizes, List<Integer> dbPools, List<String> ordersStores,
                    List<List<String>> jvmOptions, List<String> ordersJvmOptions,
                    List<Integer> concurrencies, List<Integer> latenciesMs, List<String> queries,
                    List<Double> ratesPerSecond, Integer requests, Integer durationSeconds,
                    Integer warmupSeconds, Integer repetitions, Integer timeoutSeconds, List<String> mainCpus) {

    private static final List<String> STORES = List.of(Cell.JDBC, Cell.R2DBC);
    private static final Pattern QUERY =
            Pattern.compile("(?!.*\\b(concurrency|latencyMs)=)[A-Za-z]+=[\\w.,-]+(&[A-Za-z]+=[\\w.,-]+)*");

    /**
     * @return the cells, ordered so that services restart least: latency, db pool and driver (all four restart), then
     *         profile,
     *         threads, pool and JVM options (main-service restarts), then concurrency, rate, query and strategy (no
     *         restart)
     */
    public List<Cell> cells() {
        List<Strategy> parsed = strategies.stream().map(Strategy::parse).toList();
        List<Cell> cells = new ArrayList<>();
        List<Db> dbs = new ArrayList<>();
        orNull(dbPools).forEach(pool -> (pool == null ? Collections.<String>singletonList(null) : stores())
                .forEach(store -> dbs.add(new Db(pool, store))));
        // the block's knobs, each cell's set anew before its build
        Cell.Builder cell = Cell.custom().block(name).ordersJvmOptions(ordersJvmOptions).requests(requests)
                .durationSeconds(durationSeconds).warmupSeconds(or(warmupSeconds, 5)).repetitions(or(repetitions, 3))
                .timeoutSeconds(or(timeoutSeconds, 20));
        for (Integer latency : latenciesMs)
            for (Db db : dbs)
                for (String profile : profiles)
                    for (Integer threads : orNull(tomcatThreads))
                        for (Integer pool : orNull(poolSizes))
                            for (List<String> jvm : jvmOptions == null || jvmOptions.isEmpty()
                                    ? List.of(List.<String>of()) : jvmOptions)
                                for (Integer c : concurrencies)
                                    for (Double rate : orNull(ratesPerSecond))
                                        for (String query : orEmpty(queries).isEmpty() ? List.of("") : queries)
                                            for (Strategy s : parsed) {
                                                cells.add(cell.latencyMs(latency).dbPool(db.pool())
                                                        .ordersStore(db.store()).profile(profile)
                                                        .tomcatThreads(threads).poolSize(pool).jvmOptions(jvm)
                                                        .concurrency(c).ratePerSecond(rate).query(query).strategy(s)
                                                        .build());
                                            }
        return orNull(mainCpus).stream().flatMap(cpus -> cells.stream().map(c -> c.toBuilder().mainCpus(cpus)
                .build())).toList();
    }

    /** @throws IllegalArgumentException on the first invalid field, naming block, field and what is valid */
    public Block validated() {
        require(name != null && !name.isBlank(), "name", "is missing");
        require(strategies != null && !strategies.isEmpty(), "strategies", "is missing; give at least one of "
                + Arrays.toString(Strategy.values()));
        strategies.forEach(s -> wrap("strategies", () -> Strategy.parse(s)));
        require(profiles != null && !profiles.isEmpty() && ServiceDefaults.PROFILES.containsAll(profiles), "profiles",
                "must list some of " + ServiceDefaults.PROFILES + ", was " + profiles);
        require(concurrencies != null && !concurrencies.isEmpty(), "concurrencies", "is missing");
        require(latenciesMs != null && !latenciesMs.isEmpty(), "latenciesMs", "is missing");
        allInRange("tomcatThreads", tomcatThreads, 1, 100_000);
        allInRange("poolSizes", poolSizes, 1, 100_000);
        allInRange("dbPools", dbPools, 1, 1000);
        require(orEmpty(ordersStores).stream().allMatch(STORES::contains), "ordersStores", "values must be some of "
                + STORES + ", was " + ordersStores);
        require(orEmpty(ordersStores).isEmpty() || !orEmpty(dbPools).isEmpty(), "ordersStores",
                "needs dbPools: the drivers read PostgreSQL, which a cell without a db pool does not use");
        allInRange("concurrencies", concurrencies, 1, 100_000);
        allInRange("latenciesMs", latenciesMs, 0, 60_000);
        if (jvmOptions != null) {
            jvmOptions.forEach(options -> {
                require(options != null, "jvmOptions", "values must be lists of options ([] for the JVM's defaults)");
                wrap("jvmOptions", () -> JvmOptions.validated(options));
            });
        }
        wrap("ordersJvmOptions", () -> JvmOptions.validated(orEmpty(ordersJvmOptions)));
        orEmpty(queries).forEach(q -> require(q != null && QUERY.matcher(q).matches(), "queries",
                "values must be name=value pairs joined by & (concurrency and latencyMs are knobs of their own), was "
                        + q));
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
        return validatedCpus();
    }

    /** The machine's own check (how many cores it has) comes with the run: ./lab bench parses each value. */
    private Block validatedCpus() {
        orEmpty(mainCpus).forEach(c -> require(c != null && c.matches("all|\\d+(\\.\\d+)?"), "mainCpus",
                "values must be all, a whole number of cores or a fraction such as 0.5, was " + c));
        return this;
    }

    /** @return this block as an open model at {@code rates} req/s ({@code --rate}) */
    public Block withRates(List<Double> rates) {
        return copy(profiles, tomcatThreads, poolSizes, dbPools, jvmOptions, rates, repetitions);
    }

    /** @return this block for only these request-thread profiles ({@code ./lab bench --profile}) */
    public Block withProfiles(List<String> only) {
        return copy(only, tomcatThreads, poolSizes, dbPools, jvmOptions, ratesPerSecond, repetitions);
    }

    public Block withRepetitions(int n) {
        return copy(profiles, tomcatThreads, poolSizes, dbPools, jvmOptions, ratesPerSecond, n);
    }

    /** @return this block for a deployment whose service knobs are fixed: only request-level variants remain */
    public Block forDeployment(String profile) {
        return new Block(name, strategies, List.of(profile), List.of(), List.of(), List.of(), ordersStores, List.of(),
                List.of(), concurrencies, latenciesMs, queries, ratesPerSecond, requests, durationSeconds,
                warmupSeconds, repetitions, timeoutSeconds, List.of());
    }

    /** @return the service-level knobs this block varies beyond one value, which a fixed deployment cannot */
    public List<String> serviceLevelSweeps() {
        Map<String, List<?>> knobs = new LinkedHashMap<>();
        knobs.put("profiles", profiles);
        knobs.put("tomcatThreads", tomcatThreads);
        knobs.put("poolSizes", poolSizes);
        knobs.put("dbPools", dbPools);
        knobs.put("ordersStores", ordersStores);
        knobs.put("mainCpus", mainCpus);
        List<String> sweeps = new ArrayList<>();
        knobs.forEach((knob, values) -> {
            if (values != null && values.size() > 1) {
                sweeps.add(knob + " " + values);
            }
        });
        if (jvmOptions != null && jvmOptions.stream().anyMatch(o -> o != null && !o.isEmpty())) {
            sweeps.add("jvmOptions " + jvmOptions);
        }
        if (!orEmpty(ordersJvmOptions).isEmpty()) {
            sweeps.add("ordersJvmOptions " + ordersJvmOptions);
        }
        return sweeps;
    }

    private Block copy(List<String> profiles, List<Integer> tomcatThreads, List<Integer> poolSizes,
                       List<Integer> dbPools, List<List<String>> jvmOptions, List<Double> rates, Integer repetitions) {
        return new Block(name, strategies, profiles, tomcatThreads, poolSizes, dbPools, ordersStores, jvmOptions,
                ordersJvmOptions, concurrencies, latenciesMs, queries, rates, requests, durationSeconds, warmupSeconds,
                repetitions, timeoutSeconds, mainCpus);
    }

    /** orders-service's store in a cell: no pool for the memory store, else a pool and its driver. */
    private record Db(Integer pool, String store) {
    }

    private List<String> stores() {
        return orEmpty(ordersStores).isEmpty() ? List.of(Cell.JDBC) : ordersStores;
    }

    private void allInRange(String field, List<Integer> values, int min, int max) {
        orEmpty(values).forEach(v -> require(v != null && v >= min && v <= max, field,
                "values must be in " + min + ".." + max + ", was " + v));
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

    private static <T> List<T> orEmpty(List<T> values) {
        return values == null ? List.of() : values;
    }

    private static int or(Integer v, int otherwise) {
        return v == null ? otherwise : v;
    }
}
