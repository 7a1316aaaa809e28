package lab.fanout.bench.model;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * What the bench assumes of the services when a cell or an option leaves a knob unset: their own defaults, written
 * once here and checked against the services' sources (application.yml, FanoutProperties, DownstreamProperties) by
 * ServiceDefaultsTest, so that a change there fails the build instead of drifting. Constants, so that picocli's help
 * texts can name them.
 */
public final class ServiceDefaults {

    /** main-service's {@code server.tomcat.threads.max} (Tomcat's own default; no effect under the virtual profile). */
    public static final int TOMCAT_THREADS = 200;
    /** main-service's {@code fanout.pool.max-total}: connections over all downstreams. */
    public static final int POOL_TOTAL = 500;
    /** The downstreams main-service calls for every request (FanoutProperties.Downstreams.COUNT). */
    public static final int DOWNSTREAM_COUNT = 3;
    /** {@code fanout.pool.max-per-route} when unset: ⌈max-total ÷ 3⌉ = 167 (FanoutProperties.Pool). */
    public static final int POOL_PER_ROUTE = (POOL_TOTAL + DOWNSTREAM_COUNT - 1) / DOWNSTREAM_COUNT;
    /** The downstreams' {@code downstream.latency}, ms (DownstreamProperties). */
    public static final int LATENCY_MS = 200;
    /** main-service's {@code fanout.deadline}, s: past it a request ends as a 504. */
    public static final int DEADLINE_SECONDS = 10;
    /** main-service's {@code fanout.bounded-pool.threads} and {@code .queue} (BoundedPoolProperties). */
    public static final int BOUNDED_POOL_THREADS = 200;
    public static final int BOUNDED_POOL_QUEUE = 200;

    /** main-service's fan-out endpoint, the one the load goes to. */
    public static final String ORDERS_PATH = "/backoffice/api/v1/backoffice/orders";
    /**
     * @param query more query parameters, e.g. {@code latencyMs=50}, or empty
     * @return main-service's fan-out URL for {@code strategy} at {@code base}, e.g. {@code http://localhost:2222}
     */
    public static URI ordersUrl(URI base, Strategy strategy, String query) {
        return URI.create(base + ORDERS_PATH + "?concurrency=" + strategy + (query.isEmpty() ? "" : "&" + query));
    }

    /**
     * main-service's server and request threads, its Spring profiles: Tomcat with a virtual thread per request,
     * Tomcat's pool of platform threads, Spring WebFlux on Reactor Netty (docs/strategies.md).
     */
    public static final List<String> PROFILES = List.of("virtual", "platform", "netty");

    /** @return whether the profile has a pool of request threads that binds: only Tomcat's platform one does */
    public static boolean poolOfRequestThreads(String profile) {
        return profile.equals("platform");
    }
    public static final String MAIN = "main-service";
    /** The downstream with a database (its PostgreSQL store), whose memory a database cell may read. */
    public static final String ORDERS = "orders-service";
    /** The downstreams main-service calls, in the order reports show them. */
    public static final List<String> DOWNSTREAMS = List.of(ORDERS, "products-service", "accounts-service");
    /** Start order; stop order reversed: main-service stops first, so its in-flight calls can finish. */
    public static final List<String> SERVICES = List.of("accounts-service", ORDERS, "products-service", MAIN);
    /** Each service's {@code server.port} (their application.yml): the seed demo's ports, which its ab lines use. */
    public static final Map<String, Integer> PORTS = Map.of(
            "accounts-service", 8081, "orders-service", 8082, "products-service", 8083, MAIN, 2222);
    /** Each service's {@code management.server.port} (their application.yml): the actuator, off the public port. */
    public static final Map<String, Integer> MANAGEMENT_PORTS = Map.of(
            "accounts-service", 9081, "orders-service", 9082, "products-service", 9083, MAIN, 9222);

    private ServiceDefaults() {
    }
}
