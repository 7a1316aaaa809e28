package lab.fanout.bench.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.AotCache;
import lab.fanout.bench.system.CpuPlacement;
import lab.fanout.bench.system.Environment;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.OrdersStore;
import picocli.CommandLine.Option;

/** The service knobs of {@code ./lab up}: one place for their names, defaults and help. */
final class KnobOptions {

    enum Profile { virtual, platform, netty }

    /** Where orders-service keeps its orders (docs/orders-store.md). */
    enum Store { memory, postgres, r2dbc }

    static final String BREAKER = "-Dfanout.breaker.enabled=true";

    /** main-service's admission control (fanout.admission.mode; docs/overload.md). */
    enum Admission { off, fixed, adaptive }

    @Option(names = "--profile", defaultValue = "virtual",
            description = "main-service's server and request threads: virtual (Tomcat, a virtual thread per request),"
                    + " platform (Tomcat's pool of platform threads), netty (Spring WebFlux on Reactor Netty)"
                    + " (default: ${DEFAULT-VALUE})")
    Profile profile;

    @Option(names = "--tomcat-threads", paramLabel = "N",
            description = "server.tomcat.threads.max of main-service (default " + ServiceDefaults.TOMCAT_THREADS
                    + "; no effect under virtual)")
    Integer tomcatThreads;

    @Option(names = "--pool-size", paramLabel = "N",
            description = "HTTP connection pool of main-service, total and per downstream (default: "
                    + ServiceDefaults.POOL_TOTAL
                    + " total, " + ServiceDefaults.POOL_PER_ROUTE + " per downstream)")
    Integer poolSize;

    @Option(names = "--latency-ms", paramLabel = "MS", description = "latency of every downstream call in ms (default "
            + ServiceDefaults.LATENCY_MS + ")")
    Integer latencyMs;

    @Option(names = "--main-cpus", paramLabel = "N", description = MAIN_CPUS_HELP)
    String mainCpus;

    /** Shared with {@code ./lab bench}: one text for the one knob. */
    static final String MAIN_CPUS_HELP = "main-service's own CPU, in a cgroup the lab makes and removes (root, cgroup"
            + " v1 or v2): N whole cores by cpuset, the last ones (1 = core 1 of 2), the downstreams, Prometheus,"
            + " Zipkin and the load driver on the others; or, written with a decimal point (0.5, 1.0, 1.5), cores of"
            + " CFS quota over 100 ms, like a pod's limits.cpu, the load side unconfined; all: everything shares"
            + " every core, which measures the machine rather than main-service (default: all)";

    @Option(names = "--jvm-option", paramLabel = "OPTION",
            description = {"JVM option of main-service, repeatable: -D<name>=<value>, -X<option> or -XX:<option>;"
                    + " write it with '=', e.g. --jvm-option=-Djava.util.concurrent.ForkJoinPool.common.parallelism=8,"
                    + " --jvm-option=-Djdk.virtualThreadScheduler.parallelism=1, --jvm-option=-XX:+UseZGC,"
                    + " --jvm-option=-Xmx512m"})
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--aot", description = "start each service with its JDK AOT cache (.lab/aot), trained first"
            + " (about a minute) when missing or its jar was rebuilt")
    boolean aot;

    @Option(names = "--breaker", description = "main-service's circuit breaker per downstream (Resilience4j,"
            + " fanout.breaker.enabled; off by default): an open one answers 503 at once instead of waiting out"
            + " timeouts")
    boolean breaker;

    @Option(names = "--admission", paramLabel = "MODE", description = "main-service's limit on requests in flight:"
            + " ${COMPLETION-CANDIDATES}; fixed holds --max-in-flight, adaptive moves between 20 and it (Netflix"
            + " Gradient2); off admits every request, up to OutOfMemoryError (default: fixed at 200, never above the"
            + " heap's ceiling, max heap x 0.4 / 256 KiB; docs/overload.md)")
    Admission admission;

    @Option(names = "--max-in-flight", paramLabel = "N", description = "with --admission fixed or adaptive (or the"
            + " default): the limit, at most the heap's ceiling (default: fixed 200, adaptive the ceiling; both at"
            + " /actuator/info's admission)")
    Integer maxInFlight;

    @Option(names = "--refusal-status", paramLabel = "STATUS", description = "the HTTP status of an overloaded answer:"
            + " 429 or 503 (default 429: Tomcat closes the connection after every 503, so each refusal costs its"
            + " client a reconnect; docs/overload.md, \"Which status\")")
    Integer refusalStatus;

    @Option(names = "--bounded-pool-threads", paramLabel = "N", description = "platform threads of the"
            + " completableFutureWithBoundedPool strategy's pool, 1..10000 (default "
            + ServiceDefaults.BOUNDED_POOL_THREADS + ")")
    Integer boundedPoolThreads;

    @Option(names = "--bounded-pool-queue", paramLabel = "N", description = "calls that may wait for one of those"
            + " threads, 1..100000; past threads + queue a request is answered 503 bulkhead-full (default "
            + ServiceDefaults.BOUNDED_POOL_QUEUE + ")")
    Integer boundedPoolQueue;

    @Option(names = "--orders-store", defaultValue = "memory",
            description = "where orders-service keeps its orders: ${COMPLETION-CANDIDATES}; postgres starts an"
                    + " embedded PostgreSQL (data in .lab/orders-db) unless --db-url, and spends the latency in the"
                    + " query, holding a pooled JDBC connection; r2dbc the same through R2DBC's non-blocking driver"
                    + " and r2dbc-pool (default: ${DEFAULT-VALUE})")
    Store ordersStore;

    @Option(names = "--db-pool", paramLabel = "N", description = "with --orders-store postgres or r2dbc:"
            + " orders-service's pool (HikariCP or r2dbc-pool), 1..1000 (default 10)")
    Integer dbPool;

    @Option(names = "--db-url", paramLabel = "URL", description = "with --orders-store postgres or r2dbc: an"
            + " existing server, e.g. jdbc:postgresql://localhost:5432/lab (r2dbc takes its host, port and database);"
            + " user and password only from the environment,"
            + " ORDERS_DB_USERNAME and ORDERS_DB_PASSWORD")
    String dbUrl;

    /** @throws IllegalArgumentException a bad knob, e.g. a --jvm-option not -D/-X (message: the fix) */
    LaunchSpec apply(LaunchSpec spec) {
        List<String> jvm = new ArrayList<>(jvmOptions);
        if (breaker) {
            jvm.add(BREAKER);   // a system property: Spring reads it as fanout.breaker.enabled
        }
        if (maxInFlight != null && (maxInFlight < 1 || admission == Admission.off)) {
            throw new IllegalArgumentException(maxInFlight < 1 ? "--max-in-flight must be 1 or more, was "
                    + maxInFlight : "--max-in-flight sets the limit of --admission fixed or adaptive; off has none");
        }
        if (admission != null) {
            jvm.add("-Dfanout.admission.mode=" + admission);
        }
        if (maxInFlight != null) {
            jvm.add("-Dfanout.admission.max-in-flight=" + maxInFlight);
        }
        if (profile == Profile.netty && tomcatThreads != null) {
            throw new IllegalArgumentException("--tomcat-threads sets Tomcat's pool, and --profile netty runs Reactor"
                    + " Netty: drop it, or use --profile platform");
        }
        refusalStatus(jvm);
        boundedPool(jvm, "threads", boundedPoolThreads, 10_000);
        boundedPool(jvm, "queue", boundedPoolQueue, 100_000);
        // the knobs and options checked (built) before the placement and the store are read, whose errors come after
        LaunchSpec knobs = spec.toBuilder().profile(profile.name()).tomcatThreads(tomcatThreads).poolSize(poolSize)
                .latencyMs(latencyMs).mainJvmArgs(jvm).build();
        return knobs.toBuilder().cpus(CpuPlacement.parse(mainCpus, Environment.cores()))
                .aot(aot ? AotCache.Mode.USE : AotCache.Mode.OFF)
                .extraDownstreamProperties(ordersStore(spec.repoRoot())).build();
    }

    /** @throws IllegalArgumentException neither 429 nor 503, or with --admission off (which refuses nothing) */
    private void refusalStatus(List<String> jvm) {
        if (refusalStatus == null) {
            return;
        }
        if (admission == Admission.off) {
            throw new IllegalArgumentException("--refusal-status is the status of --admission fixed or adaptive's"
                    + " refusals; off refuses none");
        }
        if (refusalStatus != 429 && refusalStatus != 503) {
            throw new IllegalArgumentException("--refusal-status must be 429 or 503, was " + refusalStatus);
        }
        jvm.add("-Dfanout.admission.refusal-status=" + refusalStatus);
    }

    /** @throws IllegalArgumentException a value out of main-service's range, which would stop its start */
    private static void boundedPool(List<String> jvm, String knob, Integer value, int max) {
        if (value != null && (value < 1 || value > max)) {
            throw new IllegalArgumentException("--bounded-pool-" + knob + " must be in 1.." + max + ", was " + value);
        }
        if (value != null) {
            jvm.add("-Dfanout.bounded-pool." + knob + "=" + value);
        }
    }

    /** @return orders-service's store properties (the others ignore them); empty for the memory store */
    private Map<String, String> ordersStore(Path repo) {
        if (ordersStore == Store.memory) {
            if (dbPool != null || dbUrl != null) {
                throw new IllegalArgumentException("--db-pool and --db-url apply to --orders-store postgres or r2dbc");
            }
            return Map.of();
        }
        if (dbPool != null && (dbPool < 1 || dbPool > 1000)) {
            throw new IllegalArgumentException("--db-pool must be in 1..1000, was " + dbPool);
        }
        if (dbUrl != null && (dbUrl.contains("password=") || dbUrl.matches("[^?]*//[^/@]*:[^/@]*@.*"))) {
            // a password on a command line shows in ps and in shell history
            throw new IllegalArgumentException("--db-url must not hold a password: export ORDERS_DB_USERNAME and"
                    + " ORDERS_DB_PASSWORD instead");
        }
        return OrdersStore.database(ordersStore.name(), dbPool, dbUrl == null ? repo.resolve(".lab/orders-db") : null,
                dbUrl, null);
    }

    /** @return the options as typed, e.g. {@code --profile platform --pool-size 10}, for messages */
    String asArgs() {
        return "--profile " + profile + option("--tomcat-threads", tomcatThreads) + option("--pool-size", poolSize)
                + option("--latency-ms", latencyMs) + jvmOptions.stream().map(o -> " --jvm-option=" + o)
                .collect(Collectors.joining()) + (aot ? " --aot" : "") + (breaker ? " --breaker" : "")
                + (admission == null ? "" : " --admission " + admission) + option("--max-in-flight", maxInFlight)
                + option("--refusal-status", refusalStatus)
                + option("--bounded-pool-threads", boundedPoolThreads)
                + option("--bounded-pool-queue", boundedPoolQueue)
                + (ordersStore == Store.memory ? "" : " --orders-store " + ordersStore) + option("--db-pool", dbPool)
                + (dbUrl == null ? "" : " --db-url " + dbUrl) + (mainCpus == null ? "" : " --main-cpus " + mainCpus);
    }

    boolean anyGiven() {
        return !asArgs().equals("--profile virtual");
    }

    private static String option(String name, Integer value) {
        return value == null ? "" : " " + name + " " + value;
    }
}
