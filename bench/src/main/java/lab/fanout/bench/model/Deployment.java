package lab.fanout.bench.model;

import java.util.List;
import java.util.Locale;

/**
 * The knobs main-service reported for a cell at its {@code /actuator/info}: the truth the bound uses, whatever the
 * matrix asked for.
 *
 * @param tomcatThreads {@code server.tomcat.threads.max}; null on Reactor Netty (the netty profile), which has no
 *                    pool of request threads
 * @param parallelism the common ForkJoinPool's parallelism in main-service's JVM (the completableFuture bound)
 * @param cores       main-service's available processors
 * @param latencyMs   downstream latency of the cell, ms
 * @param dbPool      orders-service's JDBC pool as HikariCP runs it ({@code maximumPoolSize} at its
 *                    {@code /actuator/info}) when it serves from PostgreSQL; null for the memory store or unknown
 * @param boundedPool the bounded pool's threads ({@code fanout.bounded-pool.threads}); null if unknown
 * @param reactiveClient the reactive strategy's client ({@code fanout.reactive.client}: {@code reactor-netty} or
 *                    {@code httpclient5}); null where the run did not record it (runs before 2026-12-08)
 */
public record Deployment(String profile, boolean virtual, Integer tomcatThreads, int poolTotal, int poolPerRoute,
                         int parallelism, int cores, int latencyMs, Jvm jvm, Integer dbPool, Integer boundedPool,
                         String reactiveClient) {

    public Deployment(String profile, boolean virtual, Integer tomcatThreads, int poolTotal, int poolPerRoute,
                      int parallelism, int cores, int latencyMs, Jvm jvm, Integer dbPool, Integer boundedPool) {
        this(profile, virtual, tomcatThreads, poolTotal, poolPerRoute, parallelism, cores, latencyMs, jvm, dbPool,
                boundedPool, null);
    }

    public Deployment(String profile, boolean virtual, Integer tomcatThreads, int poolTotal, int poolPerRoute,
                      int parallelism, int cores, int latencyMs, Jvm jvm, Integer dbPool) {
        this(profile, virtual, tomcatThreads, poolTotal, poolPerRoute, parallelism, cores, latencyMs, jvm, dbPool,
                null);
    }

    /** On the memory store (no JDBC pool). */
    public Deployment(String profile, boolean virtual, Integer tomcatThreads, int poolTotal, int poolPerRoute,
                      int parallelism, int cores, int latencyMs, Jvm jvm) {
        this(profile, virtual, tomcatThreads, poolTotal, poolPerRoute, parallelism, cores, latencyMs, jvm, null);
    }

    /** @return this deployment with orders-service's JDBC pool, null for the memory store */
    public Deployment withDbPool(Integer size) {
        return new Deployment(profile, virtual, tomcatThreads, poolTotal, poolPerRoute, parallelism, cores, latencyMs,
                jvm, size, boundedPool, reactiveClient);
    }

    /**
     * main-service's JVM as it reports itself, so that a {@code -D} or {@code -XX} shows as its effect; null = unknown.
     *
     * @param carrierParallelism the virtual-thread scheduler's carrier threads
     * @param carrierMaxPoolSize the most carriers it may add while others are pinned or blocked
     * @param maxHeapBytes       Runtime.maxMemory(), bytes
     * @param options            the JVM's input arguments but --enable-preview (the ones the lab set)
     */
    public record Jvm(Integer carrierParallelism, Integer carrierMaxPoolSize, Integer carrierMinRunnable,
                      List<String> garbageCollectors, Long maxHeapBytes, List<String> options) {

        public static final Jvm UNKNOWN = new Jvm(null, null, null, List.of(), null, List.of());

        public Jvm {
            garbageCollectors = List.copyOf(garbageCollectors);
            options = List.copyOf(options);
        }

        /** @return e.g. {@code parallelism 2, maxPoolSize 256, minRunnable 1}, or n/a */
        public String carriers() {
            return carrierParallelism == null ? "n/a" : "parallelism " + carrierParallelism + ", maxPoolSize "
                    + carrierMaxPoolSize + ", minRunnable " + carrierMinRunnable;
        }

        /** @return e.g. {@code G1 Young Generation, G1 Old Generation; max heap 1,986 MB} */
        public String collectorAndHeap() {
            return (garbageCollectors.isEmpty() ? "n/a" : String.join(", ", garbageCollectors)) + "; max heap "
                    + (maxHeapBytes == null ? "n/a" : String.format(Locale.ROOT, "%,d MB", maxHeapBytes >> 20));
        }

        /** @return the options short enough for a chart axis ({@link JvmOptions#label}), or {@code JVM defaults} */
        public String chartLabel() {
            return options.isEmpty() ? "JVM defaults" : JvmOptions.label(options);
        }

        public String optionsText() {
            return options.isEmpty() ? "none (JVM defaults)" : String.join(" ", options);
        }
    }

    /** Without the JVM's details. */
    public Deployment(String profile, boolean virtual, Integer tomcatThreads, int poolTotal, int poolPerRoute,
                      int parallelism, int cores, int latencyMs) {
        this(profile, virtual, tomcatThreads, poolTotal, poolPerRoute, parallelism, cores, latencyMs, Jvm.UNKNOWN);
    }
}
