package lab.fanout.bench.system;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import lab.fanout.bench.model.Deployment;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The knobs a service reports at {@code /actuator/info} (service-common's KnobsInfoContributor): the truth the bound
 * is computed from, whatever the harness asked for. Null where the service does not say.
 *
 * @param present               whether it reports {@code knobs} at all
 * @param profile               the first active profile, e.g. virtual; ? if unknown
 * @param virtualRequestThreads whether Tomcat's request threads are virtual
 * @param tomcatThreads         {@code server.tomcat.threads.max}
 * @param carrierParallelism    the virtual-thread scheduler's parallelism (carrier threads), from its JDK MXBean
 * @param garbageCollectors     the collectors' MXBean names, e.g. [G1 Young Generation, G1 Old Generation]
 * @param maxHeapBytes          Runtime.maxMemory(), bytes
 * @param jvmInputArguments     the JVM's input arguments (RuntimeMXBean), e.g. [--enable-preview, -Dx=1]
 * @param availableProcessors   the service's available processors; 1 if unknown
 * @param requestKnobs          {@code simulation.request-knobs}: it takes knobs (latencyMs, ...) per request; true
 *                              if unsaid
 * @param poolMaxTotal          {@code fanout.pool.max-total} (main-service only)
 * @param latencyMs             {@code downstream.latency}, ms (the downstreams only)
 * @param dbPoolSize            {@code ordersDatabase.maximumPoolSize}: orders-service's pool on PostgreSQL (HikariCP's
 *                              or r2dbc-pool's); null otherwise
 * @param ordersStore           orders-service's store on PostgreSQL: {@code r2dbc} where {@code ordersDatabase.driver}
 *                              says so, else {@code postgres} (JDBC); null for the memory store
 * @param boundedPoolThreads    {@code fanout.bounded-pool.threads} (main-service only)
 * @param reactiveClient        {@code fanout.reactive.client}, e.g. {@code reactor-netty} (main-service only)
 */
public record ServiceInfo(boolean present, String profile, boolean virtualRequestThreads, Integer tomcatThreads,
                          Integer commonPoolParallelism, Integer carrierParallelism, Integer carrierMaxPoolSize,
                          Integer carrierMinRunnable, List<String> garbageCollectors, Long maxHeapBytes,
                          List<String> jvmInputArguments, int availableProcessors, boolean requestKnobs,
                          Integer poolMaxTotal, Integer poolMaxPerRoute, Integer latencyMs, Integer dbPoolSize,
                          Integer boundedPoolThreads, String ordersStore, String reactiveClient) {

    // an absent list binds as empty, an absent object as null (orEmpty makes it empty)
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .withConfigOverride(List.class, o -> o.setNullHandling(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
            .build();

    /** The part of the answer read here: {@code knobs.runtime}, {@code .fanout.pool}, {@code .downstream} and more. */
    private record Info(Knobs knobs, OrdersDatabase ordersDatabase) {
    }

    private record OrdersDatabase(Integer maximumPoolSize, String driver) {
    }

    private record Knobs(Runtime runtime, Fanout fanout, Downstream downstream, Simulation simulation,
                         @JsonProperty("fanout.bounded-pool") BoundedPool boundedPool) {
    }

    private record BoundedPool(Integer threads) {
    }

    private record Runtime(List<String> profiles, Integer availableProcessors, Boolean virtualRequestThreads,
                           Integer tomcatThreadsMax, Integer commonPoolParallelism, Integer carrierParallelism,
                           Integer carrierMaxPoolSize, Integer carrierMinRunnable, List<String> garbageCollectors,
                           Long maxHeapBytes, List<String> jvmInputArguments) {
    }

    private record Fanout(Pool pool, Reactive reactive) {
    }

    private record Reactive(String client) {
    }

    private record Pool(Integer maxTotal, Integer maxPerRoute) {
    }

    private record Downstream(Duration latency) {
    }

    private record Simulation(Boolean requestKnobs) {
    }

    /** @param managementUrl the service's actuator (its management port), e.g. {@code http://localhost:9222} */
    public static ServiceInfo fetch(URI managementUrl) {
        return parse(Http.get(managementUrl.resolve("/actuator/info"), Duration.ofSeconds(5)).orElse("{}"));
    }

    public static ServiceInfo parse(String body) {
        Info info = JSON.readValue(body, Info.class);
        Knobs reported = info.knobs();
        Knobs k = orEmpty(reported, Knobs.class);
        Runtime r = orEmpty(k.runtime(), Runtime.class);
        Fanout fanout = orEmpty(k.fanout(), Fanout.class);
        Pool pool = orEmpty(fanout.pool(), Pool.class);
        Duration latency = orEmpty(k.downstream(), Downstream.class).latency();
        return new ServiceInfo(reported != null, r.profiles().isEmpty() ? "?" : r.profiles().getFirst(),
                Boolean.TRUE.equals(r.virtualRequestThreads()), r.tomcatThreadsMax(), r.commonPoolParallelism(),
                r.carrierParallelism(), r.carrierMaxPoolSize(), r.carrierMinRunnable(), r.garbageCollectors(),
                r.maxHeapBytes(), r.jvmInputArguments(), Objects.requireNonNullElse(r.availableProcessors(), 1),
                !Boolean.FALSE.equals(orEmpty(k.simulation(), Simulation.class).requestKnobs()), pool.maxTotal(),
                pool.maxPerRoute(), latency == null ? null : (int) latency.toMillis(),
                info.ordersDatabase() == null ? null : info.ordersDatabase().maximumPoolSize(),
                orEmpty(k.boundedPool(), BoundedPool.class).threads(), info.ordersDatabase() == null ? null
                        : "r2dbc".equals(info.ordersDatabase().driver()) ? "r2dbc" : "postgres",
                orEmpty(fanout.reactive(), Reactive.class).client());
    }

    private static <T> T orEmpty(T part, Class<T> type) {
        return part != null ? part : JSON.readValue("{}", type);
    }

    /**
     * @param latencyMs the cell's downstream latency, ms
     * @return the knobs main-service reported, as the bound reads them
     * @throws IllegalStateException when main-service reports no knobs (not this project's main-service?)
     */
    public Deployment deployment(int latencyMs) {
        if (!present || poolMaxTotal == null) {
            throw new IllegalStateException("main-service reports no knobs at /actuator/info (knobs.runtime,"
                    + " knobs.fanout)");
        }
        Deployment.Jvm jvm = new Deployment.Jvm(carrierParallelism, carrierMaxPoolSize, carrierMinRunnable,
                garbageCollectors, maxHeapBytes, jvmOptions());
        return new Deployment(profile, virtualRequestThreads, tomcatThreads, poolMaxTotal, poolMaxPerRoute,
                commonPoolParallelism, availableProcessors, latencyMs, jvm, null, boundedPoolThreads, reactiveClient);
    }

    /** @return the input arguments other than those every service gets ({@code --enable-preview}, ...): a run's own */
    public List<String> jvmOptions() {
        return jvmInputArguments.stream().filter(a -> !LocalSystem.ALWAYS.contains(a)).toList();
    }

    /** @return e.g. {@code profile=platform tomcatThreads=10 pool=500/500 commonPool=1} or {@code latency=200ms} */
    public String summary() {
        if (!present) {
            return "(no knobs at /actuator/info)";
        }
        if (latencyMs != null) {
            return "latency=" + latencyMs + "ms";
        }
        List<String> parts = new ArrayList<>(List.of(
                "profile=" + profile + (virtualRequestThreads ? " (virtual request threads)" : ""),
                (tomcatThreads == null ? "" : "tomcatThreads=" + tomcatThreads + " ") + "pool=" + poolMaxTotal + "/"
                        + poolMaxPerRoute
                        + " commonPoolParallelism=" + commonPoolParallelism
                        + " carrierParallelism=" + carrierParallelism));
        if (!jvmOptions().isEmpty()) {
            parts.add("jvm=" + jvmOptions());
        }
        return String.join(" ", parts);
    }
}
