package lab.fanout.bench.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most requests per second one cell can complete: the tightest of the ceilings its resources set, named after the
 * resource that sets it ({@link #tightest} is the one place that picks it).
 * <p>
 * <b>Little's law</b> (J. D. C. Little, "A Proof for the Queuing Formula: L = λW", Operations Research 9(3), 1961),
 * known before the cell runs ({@link #of}). Applied to each resource a request holds, L = λW gives
 * λ ≤ capacity ÷ time each request holds it:
 * <ul>
 * <li>clients: c in-flight requests (hey -c), each held for the ideal latency W → c ÷ W</li>
 * <li>request threads (platform profile only, and only for a strategy that holds its request thread while its calls
 *     run: not reactive, whose request thread is released at once and comes back only for the short async dispatch
 *     that writes the answer): Tomcat's max threads T, each held for W → T ÷ W</li>
 * <li>pool: P connections in total, a request holds 3 for one latency each → P ÷ (3 × latency), which is
 *     (P ÷ calls in flight per request) ÷ W for parallel (3, 1 × latency) and sequential (1, 3 × latency) alike;
 *     and one route's R connections, held for one latency per request → R ÷ latency</li>
 * <li>common pool (completableFuture only): its p workers run every request's 3 calls → p ÷ (3 × latency)</li>
 * <li>rate (open model only): the offered rate</li>
 * </ul>
 * W = latency × calls on the critical path: 1 (parallel), 3 (sequential), ⌈3 ÷ p⌉ (common pool).
 * <p>
 * <b>The CPU</b> ({@link #withCpu}), known only after the cell ran, from the CPU it measured: the utilisation law
 * U = X × D and the bottleneck bound X ≤ m ÷ D of operational analysis (P. J. Denning and J. P. Buzen, "The
 * Operational Analysis of Queueing Network Models", Computing Surveys 10(3), 1978; E. D. Lazowska et al.,
 * "Quantitative System Performance", 1984, ch. 3 and 5), for the CPU as one service centre with m = cores servers and
 * D = CPU-seconds the whole system (main-service, the three downstreams, the driver) spends per request.
 * <p>
 * Left out: the network, GC pauses as such, connection set-up: efficiency = measured ÷ bound shows what they cost.
 *
 * @param requestsPerSecond the bound in req/s; {@code Double.POSITIVE_INFINITY} when nothing bounds it (latency 0)
 * @param limit             the resource that sets it: clients, request threads, pool, route, common pool, rate or CPU
 * @param ceilings          every resource's ceiling, req/s, in the order ties are broken (the first listed wins)
 */
public record Bound(double requestsPerSecond, String limit, Map<String, Double> ceilings) {

    /** The {@link #limit} when the CPU sets the bound. */
    public static final String CPU = "CPU";

    public Bound {
        ceilings = Collections.unmodifiableMap(new LinkedHashMap<>(ceilings));
    }

    /** A bound with one ceiling (tests, reports of other tools). */
    public Bound(double requestsPerSecond, String limit) {
        this(requestsPerSecond, limit, Map.of(limit, requestsPerSecond));
    }

    /**
     * @param threads      Tomcat max threads; ignored under the virtual profile (a virtual thread per request) and for a
     *                     strategy that does not hold its request thread ({@link Strategy#holdsRequestThread()})
     * @param poolTotal    fanout.pool.max-total
     * @param poolPerRoute fanout.pool.max-per-route
     * @param latencyMs    downstream latency of one call, ms
     * @param parallelism  the common ForkJoinPool's parallelism in main-service
     * @param ratePerSecond offered rate of an open-model cell, or null for a closed loop
     */
    public static Bound of(Strategy strategy, boolean virtualProfile, int concurrency, int threads, int poolTotal,
                           int poolPerRoute, int latencyMs, int parallelism, Double ratePerSecond) {
        double latency = latencyMs / 1000.0;
        double w = latency * callsOnCriticalPath(strategy, parallelism);
        Map<String, Double> limits = new LinkedHashMap<>();
        limits.put("clients", concurrency / w);
        if (!virtualProfile && strategy.holdsRequestThread()) {
            limits.put("request threads", threads / w);
        }
        limits.put("pool", poolTotal / (3 * latency));
        limits.put("route", poolPerRoute / latency);
        if (strategy.shape() == Strategy.Shape.COMMON_POOL) {
            limits.put("common pool", parallelism / (3 * latency));
        }
        if (ratePerSecond != null) {
            limits.put("rate", ratePerSecond);
        }
        return tightest(limits);
    }

    /**
     * This bound beside the CPU's: X ≤ cores ÷ D (utilisation law and bottleneck bound, Denning and Buzen 1978),
     * the tighter of the two kept, with the resource that sets it.
     * <p>
     * D is measured in the cell itself, so at saturation it holds the overheads that grow with load (context
     * switches, GC, lock and run-queue contention), and cores ÷ D is the ceiling of that very cell, not a prediction
     * for another load (D at light load is smaller, so its bound higher). By the utilisation law, measured ÷ (cores ÷ D)
     * = X × D ÷ cores = the share of the cores the system's processes used in the cell: efficiency against a CPU bound
     * near 100 % means the CPU was the limit; clearly below, something else kept it idle, or other work took it.
     *
     * @param cpuSecondsPerRequest D: CPU seconds the system used per answered request, s; null or ≤ 0 when unknown
     *                             (then this bound is returned as it is)
     * @param cores                CPUs the system's processes share (main-service's
     *                             {@code Runtime.availableProcessors()}: its affinity mask, i.e. the cpuset, and a
     *                             cgroup CPU quota if any)
     */
    public Bound withCpu(Double cpuSecondsPerRequest, int cores) {
        if (cpuSecondsPerRequest == null || !(cpuSecondsPerRequest > 0) || cores < 1) {
            return this;
        }
        Map<String, Double> limits = new LinkedHashMap<>(ceilings);
        limits.put(CPU, cores / cpuSecondsPerRequest);
        return tightest(limits);
    }

    /** @return the CPU's ceiling in req/s, or null when it was not measured */
    public Double cpuCeiling() {
        return ceilings.get(CPU);
    }

    /**
     * The one place that picks the binding ceiling: the smallest, the first listed on a tie (clients before threads
     * before pool ... before the CPU, so a Little's-law resource is named when the CPU is exactly as tight).
     */
    static Bound tightest(Map<String, Double> limits) {
        Map.Entry<String, Double> tightest = limits.entrySet().stream().filter(e -> !e.getValue().isNaN())
                .reduce((a, b) -> b.getValue() < a.getValue() ? b : a).orElse(null);
        return tightest == null || tightest.getValue().isInfinite()
                ? new Bound(Double.POSITIVE_INFINITY, "none (latency 0)", limits)
                : new Bound(tightest.getValue(), tightest.getKey(), limits);
    }

    /** 1 for parallel strategies, 3 for sequential, ⌈3 ÷ parallelism⌉ on the common pool. */
    static int callsOnCriticalPath(Strategy strategy, int parallelism) {
        return switch (strategy.shape()) {
            case SEQUENTIAL -> 3;
            case PARALLEL -> 1;
            case COMMON_POOL -> (3 + Math.max(1, parallelism) - 1) / Math.max(1, parallelism);
        };
    }

    /** @return measured ÷ bound, or NaN when nothing bounds the cell */
    public double efficiency(double measuredRequestsPerSecond) {
        return Double.isInfinite(requestsPerSecond) ? Double.NaN : measuredRequestsPerSecond / requestsPerSecond;
    }
}
