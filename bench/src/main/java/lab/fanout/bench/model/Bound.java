package lab.fanout.bench.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most requests per second one cell can complete: the tightest ceiling its resources set, named after the
 * resource ({@link #tightest} is the one place that picks it).
 * <p>
 * <b>Little's law</b> (L = λW; J. D. C. Little, Operations Research 9(3), 1961), known before the cell runs
 * ({@link #littlesLaw}): per resource a request holds, λ ≤ capacity ÷ time held. Clients: c ÷ W. Request threads
 * (platform profile, strategies that hold the request thread, so not reactive): T ÷ W. Pool: P ÷ (3 × latency), as
 * every request holds 3 connections for one latency each; route: R ÷ latency. Common pool (completableFuture): p ÷ (3 ×
 * latency). Rate (open model): the offered rate. W = latency × calls on the critical path: 1 (parallel, bounded pool),
 * 3 (sequential), ⌈3 ÷ p⌉ (common pool). Db pool ({@link Builder#dbPool}, orders-service on PostgreSQL): J ÷ query
 * time. Bounded pool ({@link Builder#boundedPoolThreads}): N ÷ (3 × latency).
 * <p>
 * <b>The CPU</b> ({@link #withCpu}), known after the cell ran: the utilisation law U = X × D and the bottleneck bound
 * X ≤ m ÷ D (Denning and Buzen, Computing Surveys 10(3), 1978; Lazowska et al., "Quantitative System Performance",
 * 1984, ch. 3 and 5), m = cores, D = CPU seconds per request of main-service, the downstreams and the driver on
 * the shared bed; where main-service has CPU of its own ({@code --main-cpus}), m = its cores or quota and D its own.
 * <p>
 * Left out: the network, GC pauses, connection set-up: efficiency = measured ÷ bound shows what they cost.
 *
 * @param requestsPerSecond the bound, req/s; {@code POSITIVE_INFINITY} when nothing bounds it (latency 0)
 * @param limit             the resource that sets it: clients, request threads, pool, route, common pool, db pool,
 *                          bounded pool, carriers (pinned), rate or CPU
 * @param ceilings          every resource's ceiling, req/s, in tie-break order (the first listed wins)
 */
public record Bound(double requestsPerSecond, String limit, Map<String, Double> ceilings) {

    public static final String CPU = "CPU";
    public static final String DB_POOL = "db pool";
    public static final String BOUNDED_POOL = "bounded pool";

    public Bound {
        ceilings = Collections.unmodifiableMap(new LinkedHashMap<>(ceilings));
    }

    public Bound(double requestsPerSecond, String limit) {
        this(requestsPerSecond, limit, Map.of(limit, requestsPerSecond));
    }

    /** @return a builder of the Little's-law bound holding {@link Builder}'s defaults */
    public static Builder littlesLaw() {
        return new Builder();
    }

    /**
     * The Little's-law bound of a cell's knobs by name (Resilience4j's {@code custom()} style). Defaults: scopeFork on
     * the virtual profile, 100 clients, 200 Tomcat threads, an HTTP pool of 500 in total and per route (a cell's
     * {@code poolSize}), 200 ms downstreams, a common pool of parallelism 1, a closed loop, and none of the ceilings
     * that need a knob of their own: db pool, bounded pool, pinned carriers.
     */
    public static final class Builder {

        private Strategy strategy = Strategy.SCOPE_FORK;
        private boolean virtualProfile = true;
        private int clients = 100;
        private Integer tomcatThreads = ServiceDefaults.TOMCAT_THREADS;
        private int poolTotal = ServiceDefaults.POOL_TOTAL;
        private int poolPerRoute = ServiceDefaults.POOL_TOTAL;
        private int latencyMs = ServiceDefaults.LATENCY_MS;
        private int parallelism = 1;
        private Double ratePerSecond;
        private Integer dbPool;
        private Integer boundedPoolThreads;
        private Integer pinnedCarriers;

        private Builder() {
        }

        public Builder strategy(Strategy s) {
            strategy = s;
            return this;
        }

        /** @param virtual true when no request thread is held: the virtual profile, or Reactor Netty's */
        public Builder virtualProfile(boolean virtual) {
            virtualProfile = virtual;
            return this;
        }

        /** @param concurrency the load driver's clients ({@code Integer.MAX_VALUE}: none bound it, as vegeta's) */
        public Builder clients(int concurrency) {
            clients = concurrency;
            return this;
        }

        /** @param threads Tomcat max threads (ignored under the virtual profile and for reactive); null on netty */
        public Builder tomcatThreads(Integer threads) {
            tomcatThreads = threads;
            return this;
        }

        /** @param size the HTTP pool's max-total and max-per-route, as a cell's {@code poolSize} sets both */
        public Builder pool(int size) {
            return poolTotal(size).poolPerRoute(size);
        }

        public Builder poolTotal(int connections) {
            poolTotal = connections;
            return this;
        }

        public Builder poolPerRoute(int connections) {
            poolPerRoute = connections;
            return this;
        }

        /** @param ms downstream latency of one call, ms */
        public Builder latencyMs(int ms) {
            latencyMs = ms;
            return this;
        }

        /** @param threads the common ForkJoinPool's parallelism in main-service */
        public Builder parallelism(int threads) {
            parallelism = threads;
            return this;
        }

        /** @param rate offered rate of an open-model cell, req/s, or null for a closed loop */
        public Builder ratePerSecond(Double rate) {
            ratePerSecond = rate;
            return this;
        }

        /** @param size orders-service's JDBC pool, connections ({@link Bound#withDbPool}); null: the memory store */
        public Builder dbPool(Integer size) {
            dbPool = size;
            return this;
        }

        /** @param threads the bounded pool's threads ({@link Bound#withBoundedPool}); null: unknown */
        public Builder boundedPoolThreads(Integer threads) {
            boundedPoolThreads = threads;
            return this;
        }

        /** @param carriers a {@code pinning=native} cell's carriers ({@link Bound#withPinnedCarriers}); null: none */
        public Builder pinnedCarriers(Integer carriers) {
            pinnedCarriers = carriers;
            return this;
        }

        /** @return the tightest ceiling of these knobs (the CPU's comes after the run, {@link Bound#withCpu}) */
        public Bound build() {
            double latency = latencyMs / 1000.0;
            double w = latency * callsOnCriticalPath(strategy, parallelism);
            Map<String, Double> limits = new LinkedHashMap<>();
            limits.put("clients", clients / w);
            if (!virtualProfile && strategy.holdsRequestThread()) {
                limits.put("request threads", tomcatThreads / w);
            }
            limits.put("pool", poolTotal / (3 * latency));
            limits.put("route", poolPerRoute / latency);
            if (strategy.shape() == Strategy.Shape.COMMON_POOL) {
                limits.put("common pool", parallelism / (3 * latency));
            }
            if (ratePerSecond != null) {
                limits.put("rate", ratePerSecond);
            }
            return tightest(limits).withDbPool(dbPool, latencyMs).withBoundedPool(strategy, boundedPoolThreads,
                    latencyMs).withPinnedCarriers(strategy, virtualProfile, pinnedCarriers, latencyMs);
        }
    }

    /**
     * This bound beside the carriers' when every call is made from a native frame ({@code pinning=native}) on a
     * virtual thread, which then keeps its carrier for the call's latency: λ ≤ carriers ÷ (3 × latency), Little's
     * law with the carriers as the resource held. The virtual-thread strategies make their calls on virtual
     * threads; sequential on the request thread, a virtual one under the virtual profile; the others on platform
     * threads, which nothing pins.
     *
     * @param carriers the virtual-thread scheduler's parallelism, or null when unknown (the bound is then unchanged)
     */
    Bound withPinnedCarriers(Strategy strategy, boolean virtualProfile, Integer carriers, int latencyMs) {
        boolean onVirtualThreads = strategy == Strategy.VIRTUAL_THREAD_PER_TASK || strategy == Strategy.SCOPE_FORK
                || strategy == Strategy.SEQUENTIAL && virtualProfile;
        if (carriers == null || !onVirtualThreads || latencyMs <= 0) {
            return this;
        }
        Map<String, Double> limits = new LinkedHashMap<>(ceilings);
        limits.put("carriers (pinned)", carriers / (3 * latencyMs / 1000.0));
        return tightest(limits);
    }

    /**
     * This bound beside orders-service's JDBC pool when it serves from PostgreSQL: λ ≤ J ÷ query time, Little's law
     * with the pool's J connections as the resource held. Every request makes one orders call, whose query holds a
     * connection for the downstream latency ({@code pg_sleep} inside it) plus the read, which is left out, so the
     * query time is the latency. The wait for a connection is not held time: it is the queue this ceiling makes.
     *
     * @param dbPool    HikariCP's maximum pool size, connections; null for the memory store (the bound is unchanged)
     * @param latencyMs the downstream latency, ms; ≤ 0 leaves the bound unchanged (no query holds a connection long)
     */
    Bound withDbPool(Integer dbPool, int latencyMs) {
        if (dbPool == null || latencyMs <= 0) {
            return this;
        }
        Map<String, Double> limits = new LinkedHashMap<>(ceilings);
        limits.put(DB_POOL, dbPool / (latencyMs / 1000.0));
        return tightest(limits);
    }

    /**
     * This bound beside the bounded pool's, for its strategy: λ ≤ N ÷ (3 × latency), Little's law with the pool's N
     * threads as the resource held, each call holding one for a latency (Little, Operations Research 9(3), 1961; the
     * same as the common pool's p ÷ (3 × latency)). Its queue holds calls, not throughput: it adds waiting, and past it
     * requests are refused (503 bulkhead-full), which the bound does not count.
     *
     * @param threads   the pool's threads ({@code fanout.bounded-pool.threads}); null when unknown (unchanged bound)
     * @param latencyMs the downstream latency, ms; ≤ 0 leaves the bound unchanged
     */
    Bound withBoundedPool(Strategy strategy, Integer threads, int latencyMs) {
        if (strategy != Strategy.BOUNDED_POOL || threads == null || latencyMs <= 0) {
            return this;
        }
        Map<String, Double> limits = new LinkedHashMap<>(ceilings);
        limits.put(BOUNDED_POOL, threads / (3 * latencyMs / 1000.0));
        return tightest(limits);
    }

    /**
     * This bound beside the CPU's, X ≤ cores ÷ D. D is measured in the cell itself, so it holds the overheads of
     * that load, and measured ÷ (cores ÷ D) is the share of the cores the system used: near 100 % the CPU was the
     * limit.
     *
     * @param cpuSecondsPerRequest D, s; null or ≤ 0 when unknown (the bound is then returned as it is)
     * @param cores                CPUs the system's processes share (main-service's availableProcessors)
     */
    public Bound withCpu(Double cpuSecondsPerRequest, double cores) {
        if (cpuSecondsPerRequest == null || !(cpuSecondsPerRequest > 0) || !(cores > 0)) {
            return this;
        }
        Map<String, Double> limits = new LinkedHashMap<>(ceilings);
        limits.put(CPU, cores / cpuSecondsPerRequest);
        return tightest(limits);
    }

    /** @return the CPU's ceiling, req/s, or null when it was not measured */
    public Double cpuCeiling() {
        return ceilings.get(CPU);
    }

    /** The smallest ceiling, the first listed on a tie (a Little's-law resource before an equally tight CPU). */
    static Bound tightest(Map<String, Double> limits) {
        Map.Entry<String, Double> tightest = limits.entrySet().stream().filter(e -> !e.getValue().isNaN())
                .reduce((a, b) -> b.getValue() < a.getValue() ? b : a).orElse(null);
        return tightest == null || tightest.getValue().isInfinite()
                ? new Bound(Double.POSITIVE_INFINITY, "none (latency 0)", limits)
                : new Bound(tightest.getValue(), tightest.getKey(), limits);
    }

    /**
     * 1 for parallel strategies (the bounded pool with 3 threads or more too), 3 for sequential, ⌈3 ÷ parallelism⌉ on
     * the common pool.
     */
    static int callsOnCriticalPath(Strategy strategy, int parallelism) {
        return switch (strategy.shape()) {
            case SEQUENTIAL -> 3;
            case PARALLEL, BOUNDED_POOL -> 1;
            case COMMON_POOL -> Math.ceilDiv(3, Math.max(1, parallelism));
        };
    }

    /** @return measured ÷ bound, or NaN when nothing bounds the cell */
    public double efficiency(double measuredRequestsPerSecond) {
        return Double.isInfinite(requestsPerSecond) ? Double.NaN : measuredRequestsPerSecond / requestsPerSecond;
    }
}
