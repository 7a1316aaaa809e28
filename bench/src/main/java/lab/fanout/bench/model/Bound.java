package lab.fanout.bench.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most requests per second one cell can complete, from Little's law (J. D. C. Little, "A Proof for the Queuing
 * Formula: L = λW", Operations Research 9(3), 1961). Applied to each resource a request holds, L = λW gives
 * λ ≤ capacity ÷ time each request holds it; the bound is the tightest of these:
 * <ul>
 * <li>clients: c in-flight requests (hey -c), each held for the ideal latency W → c ÷ W</li>
 * <li>request threads (platform profile only): Tomcat's max threads T, each held for W → T ÷ W</li>
 * <li>pool: P connections in total, a request holds 3 for one latency each → P ÷ (3 × latency), which is
 *     (P ÷ calls in flight per request) ÷ W for parallel (3, 1 × latency) and sequential (1, 3 × latency) alike;
 *     and one route's R connections, held for one latency per request → R ÷ latency</li>
 * <li>common pool (completableFuture only): its p workers run every request's 3 calls → p ÷ (3 × latency)</li>
 * <li>rate (open model only): the offered rate</li>
 * </ul>
 * W = latency × calls on the critical path: 1 (parallel), 3 (sequential), ⌈3 ÷ p⌉ (common pool). CPU, the network and
 * the load driver are left out on purpose: efficiency = measured ÷ bound shows what they cost.
 *
 * @param requestsPerSecond the bound in req/s; {@code Double.POSITIVE_INFINITY} when nothing bounds it (latency 0)
 * @param limit             the resource that sets it: clients, request threads, pool, route, common pool or rate
 */
public record Bound(double requestsPerSecond, String limit) {

    /**
     * @param threads      Tomcat max threads; ignored under the virtual profile (a virtual thread per request)
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
        if (!virtualProfile) {
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
        // first smallest wins, so a tie names the resource listed first (clients before threads before pool)
        Map.Entry<String, Double> tightest = limits.entrySet().stream()
                .reduce((a, b) -> b.getValue() < a.getValue() ? b : a).orElseThrow();
        return Double.isInfinite(tightest.getValue()) || Double.isNaN(tightest.getValue())
                ? new Bound(Double.POSITIVE_INFINITY, "none (latency 0)")
                : new Bound(tightest.getValue(), tightest.getKey());
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
