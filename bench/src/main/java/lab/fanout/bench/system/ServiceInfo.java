package lab.fanout.bench.system;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import lab.fanout.bench.model.Deployment;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The knobs a service reports at {@code /actuator/info} ({@code knobs.runtime}, {@code knobs.fanout},
 * {@code knobs.downstream}, {@code knobs.simulation}; service-common's KnobsInfoContributor): the truth the bound is
 * computed from, whatever the harness asked for. Bound to records; what a service does not report reads as null (or
 * the default each accessor names), and fields the bench does not use are ignored.
 *
 * @param knobs {@code knobs} of the answer; null when the service did not answer or reports none
 */
public record ServiceInfo(Knobs knobs) {

    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    /** The part of {@code /actuator/info} read here. */
    record Info(Knobs knobs) {
    }

    /** {@code knobs}: each part empty when not reported. */
    public record Knobs(RuntimeKnobs runtime, Fanout fanout, Downstream downstream, Simulation simulation) {
        public Knobs {
            runtime = Objects.requireNonNullElseGet(runtime, () -> new RuntimeKnobs(null, null, null, null, null, null,
                    null, null, null, null, null));
            fanout = Objects.requireNonNullElseGet(fanout, () -> new Fanout(null));
            downstream = Objects.requireNonNullElseGet(downstream, () -> new Downstream(null));
            simulation = Objects.requireNonNullElseGet(simulation, () -> new Simulation(null));
        }
    }

    /** {@code knobs.runtime}: the JVM and Tomcat as the service sees them; lists empty when not reported. */
    public record RuntimeKnobs(List<String> profiles, Integer availableProcessors, Boolean virtualRequestThreads,
                               Integer tomcatThreadsMax, Integer commonPoolParallelism, Integer carrierParallelism,
                               Integer carrierMaxPoolSize, Integer carrierMinRunnable, List<String> garbageCollectors,
                               Long maxHeapBytes, List<String> jvmInputArguments) {
        public RuntimeKnobs {
            profiles = Objects.requireNonNullElse(profiles, List.of());
            garbageCollectors = Objects.requireNonNullElse(garbageCollectors, List.of());
            jvmInputArguments = Objects.requireNonNullElse(jvmInputArguments, List.of());
        }
    }

    /** {@code knobs.fanout} (main-service only). */
    public record Fanout(Pool pool) {
        public Fanout {
            pool = Objects.requireNonNullElseGet(pool, () -> new Pool(null, null));
        }
    }

    /** {@code knobs.fanout.pool}: fanout.pool.max-total and max-per-route. */
    public record Pool(Integer maxTotal, Integer maxPerRoute) {
    }

    /** {@code knobs.downstream} (the downstreams only): downstream.latency. */
    public record Downstream(Duration latency) {
    }

    /** {@code knobs.simulation}: simulation.request-knobs. */
    public record Simulation(Boolean requestKnobs) {
    }

    /** @param managementUrl the service's actuator base URL (its management port), e.g. {@code http://localhost:9222} */
    public static ServiceInfo fetch(URI managementUrl) {
        return parse(Http.get(managementUrl.resolve("/actuator/info"), Duration.ofSeconds(5)).orElse("{}"));
    }

    public static ServiceInfo parse(String body) {
        return new ServiceInfo(JSON.readValue(body, Info.class).knobs());
    }

    /**
     * @param latencyMs the cell's downstream latency, ms
     * @return the knobs main-service reported, as the bound reads them
     * @throws IllegalStateException when main-service reports no knobs (not this project's main-service?)
     */
    public Deployment deployment(int latencyMs) {
        if (!present() || poolMaxTotal() == null) {
            throw new IllegalStateException("main-service reports no knobs at /actuator/info (knobs.runtime, knobs.fanout)");
        }
        Deployment.Jvm jvm = new Deployment.Jvm(carrierParallelism(), carrierMaxPoolSize(), carrierMinRunnable(),
                garbageCollectors(), maxHeapBytes(), jvmInputArguments().stream().filter(a -> !a.equals("--enable-preview")).toList());
        return new Deployment(profile(), virtualRequestThreads(), tomcatThreads(), poolMaxTotal(), poolMaxPerRoute(),
                commonPoolParallelism(), availableProcessors(), latencyMs, jvm);
    }

    public boolean present() {
        return knobs != null;
    }

    /** @return the knobs, each part empty when the service reported none */
    private Knobs reported() {
        return knobs != null ? knobs : new Knobs(null, null, null, null);
    }

    private RuntimeKnobs runtime() {
        return reported().runtime();
    }

    /** @return the first active profile, e.g. virtual, or ? */
    public String profile() {
        return runtime().profiles().isEmpty() ? "?" : runtime().profiles().getFirst();
    }

    public boolean virtualRequestThreads() {
        return Boolean.TRUE.equals(runtime().virtualRequestThreads());
    }

    public Integer tomcatThreads() {
        return runtime().tomcatThreadsMax();
    }

    public Integer commonPoolParallelism() {
        return runtime().commonPoolParallelism();
    }

    /** @return the virtual-thread scheduler's parallelism (carrier threads), from its JDK management bean */
    public Integer carrierParallelism() {
        return runtime().carrierParallelism();
    }

    public Integer carrierMaxPoolSize() {
        return runtime().carrierMaxPoolSize();
    }

    public Integer carrierMinRunnable() {
        return runtime().carrierMinRunnable();
    }

    /** @return the collectors' names, e.g. [G1 Young Generation, G1 Concurrent GC, G1 Old Generation]; empty if unknown */
    public List<String> garbageCollectors() {
        return runtime().garbageCollectors();
    }

    /** @return Runtime.maxMemory() in bytes, or null if not reported */
    public Long maxHeapBytes() {
        return runtime().maxHeapBytes();
    }

    /** @return the JVM's input arguments (RuntimeMXBean), e.g. [--enable-preview, -Dx=1]; empty if not reported */
    public List<String> jvmInputArguments() {
        return runtime().jvmInputArguments();
    }

    /** @return the service's available processors; 1 if not reported */
    public int availableProcessors() {
        return Objects.requireNonNullElse(runtime().availableProcessors(), 1);
    }

    /** @return simulation.request-knobs: whether the service takes knobs (latencyMs, ...) per request; true if unsaid */
    public boolean requestKnobs() {
        return !Boolean.FALSE.equals(reported().simulation().requestKnobs());
    }

    public Integer poolMaxTotal() {
        return reported().fanout().pool().maxTotal();
    }

    public Integer poolMaxPerRoute() {
        return reported().fanout().pool().maxPerRoute();
    }

    /** @return downstream.latency in ms, or null on main-service */
    public Integer latencyMs() {
        Duration latency = reported().downstream().latency();
        return latency == null ? null : (int) latency.toMillis();
    }

    /** @return e.g. {@code profile=platform tomcatThreads=10 pool=500/500 commonPool=1} or {@code latency=200ms} */
    public String summary() {
        if (!present()) {
            return "(no knobs at /actuator/info)";
        }
        List<String> parts = new ArrayList<>();
        if (latencyMs() != null) {
            parts.add("latency=" + latencyMs() + "ms");
        } else {
            parts.add("profile=" + profile() + (virtualRequestThreads() ? " (virtual request threads)" : ""));
            parts.add("tomcatThreads=" + tomcatThreads() + " pool=" + poolMaxTotal() + "/" + poolMaxPerRoute()
                    + " commonPoolParallelism=" + commonPoolParallelism() + " carrierParallelism=" + carrierParallelism());
            List<String> options = jvmInputArguments().stream().filter(a -> !a.equals("--enable-preview")).toList();
            if (!options.isEmpty()) {
                parts.add("jvm=" + options);
            }
        }
        return String.join(" ", parts);
    }
}
