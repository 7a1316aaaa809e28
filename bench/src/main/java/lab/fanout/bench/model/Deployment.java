package lab.fanout.bench.model;

import java.util.List;
import java.util.Locale;

/**
 * The knobs main-service reported for a cell (its {@code /actuator/info}), which the bound uses: the truth, whatever
 * the matrix asked for.
 *
 * @param profile       active profile, e.g. virtual
 * @param virtual       request threads are virtual
 * @param tomcatThreads server.tomcat.threads.max
 * @param poolTotal     fanout.pool.max-total
 * @param poolPerRoute  fanout.pool.max-per-route
 * @param parallelism   common ForkJoinPool parallelism of main-service's JVM (not the harness's): the
 *                      {@code completableFuture} strategy's bound, p ÷ (3 × latency)
 * @param cores         available processors of main-service
 * @param latencyMs     downstream latency of the cell, ms
 * @param jvm           main-service's JVM: scheduler, collector, heap and options
 */
public record Deployment(String profile, boolean virtual, int tomcatThreads, int poolTotal, int poolPerRoute,
                         int parallelism, int cores, int latencyMs, Jvm jvm) {

    /**
     * What main-service's JVM runs with, read from the JVM itself ({@code knobs.runtime}), so a {@code -D} or
     * {@code -XX} shows as its effect.
     *
     * @param carrierParallelism  the virtual-thread scheduler's carriers (VirtualThreadSchedulerMXBean); null = unknown
     * @param carrierMaxPoolSize  the most carriers it may add while others block; null = unknown
     * @param carrierMinRunnable  jdk.virtualThreadScheduler.minRunnable in effect; null = unknown
     * @param garbageCollectors   the collectors' MXBean names, e.g. G1 Young Generation
     * @param maxHeapBytes        Runtime.maxMemory(), bytes; null = unknown
     * @param options             the JVM's input arguments other than --enable-preview (the ones the lab set)
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

        /** @return e.g. {@code G1 Young Generation, G1 Concurrent GC, G1 Old Generation; max heap 1,986 MB} */
        public String collectorAndHeap() {
            return (garbageCollectors.isEmpty() ? "n/a" : String.join(", ", garbageCollectors)) + "; max heap "
                    + (maxHeapBytes == null ? "n/a" : String.format(Locale.ROOT, "%,d MB", maxHeapBytes / (1024 * 1024)));
        }

        /** @return the options the lab set, short enough for a chart axis (JvmOptions.label), or {@code JVM defaults} */
        public String chartLabel() {
            return options.isEmpty() ? "JVM defaults" : JvmOptions.label(options);
        }

        /** @return the options the lab set, space-separated, or {@code none (JVM defaults)} */
        public String optionsText() {
            return options.isEmpty() ? "none (JVM defaults)" : String.join(" ", options);
        }
    }

    /** Without the JVM's details (tests, older services). */
    public Deployment(String profile, boolean virtual, int tomcatThreads, int poolTotal, int poolPerRoute,
                      int parallelism, int cores, int latencyMs) {
        this(profile, virtual, tomcatThreads, poolTotal, poolPerRoute, parallelism, cores, latencyMs, Jvm.UNKNOWN);
    }
}
