package lab.fanout.bench.model;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One point of the matrix, measured {@code repetitions} times after a warm-up. A null knob means the service's default.
 *
 * @param block           the block (table) it belongs to
 * @param profile         main-service's request threads: virtual or platform
 * @param tomcatThreads   server.tomcat.threads.max
 * @param poolSize        fanout.pool.max-total and max-per-route
 * @param dbPool          orders-service on PostgreSQL with a pool of this many connections
 *                        ({@code orders.db.pool-size}); null = the memory store
 * @param ordersStore     the driver it reads with: {@code postgres} (JDBC, HikariCP) or {@code r2dbc} (R2DBC,
 *                        r2dbc-pool), {@code orders.store}; postgres when a db pool comes without one (or ""),
 *                        null without a db pool
 * @param jvmOptions      main-service's JVM options (-D, -X, -XX:); empty = the JVM's defaults
 * @param ordersJvmOptions orders-service's JVM options, e.g. a fixed heap and Native Memory Tracking to read what a
 *                        request waiting there for a db connection holds; empty = the JVM's defaults
 * @param concurrency     load driver clients
 * @param latencyMs       downstream latency per call, ms
 * @param query           request-level query parameters of main-service beyond the strategy, e.g.
 *                        {@code width=3&tailRate=0.01&tailMs=1000&hedgeAfterMs=p95}; "" for none
 * @param ratePerSecond   open model: offered req/s; null = closed loop
 * @param requests        requests per repetition, or null to size them from the warm-up to last durationSeconds
 * @param durationSeconds target length of a repetition, s (when requests is null)
 * @param warmupSeconds   length of one unmeasured warm-up run, s
 * @param timeoutSeconds  per-request timeout of the driver, s
 * @param mainCpus        main-service's CPU placement as {@code --main-cpus} takes it ({@code 0.5}, {@code 1},
 *                        {@code all}), a block's {@code mainCpus} axis; null: the run's ({@code --main-cpus})
 */
public record Cell(String block, Strategy strategy, String profile, Integer tomcatThreads, Integer poolSize,
                   Integer dbPool, String ordersStore, List<String> jvmOptions, List<String> ordersJvmOptions,
                   int concurrency, int latencyMs, String query, Double ratePerSecond, Integer requests,
                   Integer durationSeconds, int warmupSeconds, int repetitions, int timeoutSeconds, String mainCpus) {

    public static final String JDBC = "postgres";
    public static final String R2DBC = "r2dbc";

    public Cell {
        jvmOptions = jvmOptions == null ? List.of() : List.copyOf(jvmOptions);
        ordersJvmOptions = ordersJvmOptions == null ? List.of() : List.copyOf(ordersJvmOptions);
        query = query == null ? "" : query;
        ordersStore = dbPool == null ? null : ordersStore == null || ordersStore.isEmpty() ? JDBC : ordersStore;
    }

    /** @return a builder holding {@link Builder}'s defaults */
    public static Builder custom() {
        return new Builder();
    }

    /** @return a builder holding this cell's knobs, e.g. to place it on other CPUs */
    public Builder toBuilder() {
        return new Builder().block(block).strategy(strategy).profile(profile).tomcatThreads(tomcatThreads)
                .poolSize(poolSize).dbPool(dbPool).ordersStore(ordersStore).jvmOptions(jvmOptions)
                .ordersJvmOptions(ordersJvmOptions).concurrency(concurrency).latencyMs(latencyMs).query(query)
                .ratePerSecond(ratePerSecond).requests(requests).durationSeconds(durationSeconds)
                .warmupSeconds(warmupSeconds).repetitions(repetitions).timeoutSeconds(timeoutSeconds)
                .mainCpus(mainCpus);
    }

    /**
     * A cell by named knobs (Resilience4j's {@code custom()} style), each setter the {@link Cell} component of its
     * name. Defaults: block {@code b}, scopeFork on the virtual profile, the services' defaults for Tomcat threads,
     * HTTP pool, store (memory) and JVM options (null or empty), 100 clients, 200 ms downstreams, no query, a closed
     * loop, repetitions sized to 10 s each (a request count, {@link #requests}, in its place), a 5 s warm-up, 3
     * repetitions, a 20 s timeout, the run's CPU placement.
     */
    public static final class Builder {

        private String block = "b";
        private Strategy strategy = Strategy.SCOPE_FORK;
        private String profile = "virtual";
        private Integer tomcatThreads;
        private Integer poolSize;
        private Integer dbPool;
        private String ordersStore;
        private List<String> jvmOptions = List.of();
        private List<String> ordersJvmOptions = List.of();
        private int concurrency = 100;
        private int latencyMs = 200;
        private String query = "";
        private Double ratePerSecond;
        private Integer requests;
        private Integer durationSeconds = 10;
        private int warmupSeconds = 5;
        private int repetitions = 3;
        private int timeoutSeconds = 20;
        private String mainCpus;

        private Builder() {
        }

        public Builder block(String name) {
            block = name;
            return this;
        }

        public Builder strategy(Strategy s) {
            strategy = s;
            return this;
        }

        public Builder profile(String name) {
            profile = name;
            return this;
        }

        public Builder tomcatThreads(Integer threads) {
            tomcatThreads = threads;
            return this;
        }

        public Builder poolSize(Integer size) {
            poolSize = size;
            return this;
        }

        public Builder dbPool(Integer size) {
            dbPool = size;
            return this;
        }

        public Builder ordersStore(String store) {
            ordersStore = store;
            return this;
        }

        public Builder jvmOptions(List<String> options) {
            jvmOptions = options;
            return this;
        }

        public Builder ordersJvmOptions(List<String> options) {
            ordersJvmOptions = options;
            return this;
        }

        public Builder concurrency(int clients) {
            concurrency = clients;
            return this;
        }

        public Builder latencyMs(int ms) {
            latencyMs = ms;
            return this;
        }

        public Builder query(String q) {
            query = q;
            return this;
        }

        public Builder ratePerSecond(Double rate) {
            ratePerSecond = rate;
            return this;
        }

        /** @param count requests per repetition, which clears the duration (a later one is kept); null: none */
        public Builder requests(Integer count) {
            requests = count;
            durationSeconds = count == null ? durationSeconds : null;
            return this;
        }

        public Builder durationSeconds(Integer seconds) {
            durationSeconds = seconds;
            return this;
        }

        public Builder warmupSeconds(int seconds) {
            warmupSeconds = seconds;
            return this;
        }

        public Builder repetitions(int count) {
            repetitions = count;
            return this;
        }

        public Builder timeoutSeconds(int seconds) {
            timeoutSeconds = seconds;
            return this;
        }

        public Builder mainCpus(String cpus) {
            mainCpus = cpus;
            return this;
        }

        /** @return the cell (the knobs unchecked: a matrix file's are, by {@code Block.validated}) */
        public Cell build() {
            return new Cell(block, strategy, profile, tomcatThreads, poolSize, dbPool, ordersStore, jvmOptions,
                    ordersJvmOptions, concurrency, latencyMs, query, ratePerSecond, requests, durationSeconds,
                    warmupSeconds, repetitions, timeoutSeconds, mainCpus);
        }
    }

    /** @return the CPU ms per request the query asks main-service to spend ({@code cpuMs}), 0 when none */
    public int cpuMs() {
        return Integer.parseInt(Tail.params(query).getOrDefault("cpuMs", "0"));
    }

    /** @return the tail the query asks for, if any */
    public Optional<Tail> tail() {
        return Tail.of(query);
    }

    /**
     * @return e.g. {@code scopeFork virtual c=100 latency=200ms threads=200 pool=500 cpus=0.5 db-pool=20 jvm=[-Dx=1]
     *         ?width=3}
     *         (db-pool only on PostgreSQL, followed by {@code r2dbc} on that driver; {@code orders-jvm=[..]} when
     *         orders-service has options of its own)
     */
    public String label() {
        return String.format(Locale.ROOT, "%s %s c=%d latency=%dms threads=%s pool=%s%s%s%s%s%s%s", strategy, profile,
                concurrency, latencyMs, orDefault(tomcatThreads), orDefault(poolSize),
                mainCpus == null ? "" : " cpus=" + mainCpus,
                dbPool == null ? "" : " db-pool=" + dbPool + (R2DBC.equals(ordersStore) ? " r2dbc" : ""),
                rate(" rate=%.0f/s"), jvm(" jvm="),
                ordersJvmOptions.isEmpty() ? "" : " orders-jvm=" + ordersJvmOptions,
                query.isEmpty() ? "" : " ?" + query);
    }

    /** @return a file-name-safe id, e.g. {@code 03-scopeFork-virtual-c100-l200-t200-p500-db20-common.parallelism4} */
    public String id(int index) {
        return String.format(Locale.ROOT, "%02d-%s-%s-c%d-l%d-t%s-p%s%s%s%s%s%s", index, strategy, profile,
                concurrency, latencyMs, orDefault(tomcatThreads), orDefault(poolSize),
                mainCpus == null ? "" : "-cpu" + mainCpus,
                dbPool == null ? "" : "-db" + dbPool + (R2DBC.equals(ordersStore) ? "r2dbc" : ""),
                rate("-r%.0f"),
                jvmOptions.isEmpty() ? "" : "-" + JvmOptions.tag(jvmOptions),
                query.isEmpty() ? "" : "-" + query.replaceAll("[^A-Za-z0-9.]+", "_"));
    }

    private String rate(String format) {
        return ratePerSecond == null ? "" : String.format(Locale.ROOT, format, ratePerSecond);
    }

    private String jvm(String prefix) {
        return jvmOptions.isEmpty() ? "" : prefix + jvmOptions;
    }

    private static String orDefault(Integer v) {
        return v == null ? "default" : v.toString();
    }
}
