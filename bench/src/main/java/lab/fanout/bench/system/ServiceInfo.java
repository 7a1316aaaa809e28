package lab.fanout.bench.system;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The knobs a service reports at {@code /actuator/info} ({@code knobs.runtime}, {@code knobs.fanout},
 * {@code knobs.downstream}): the truth the bound is computed from, whatever the harness asked for.
 *
 * @param json {@code knobs} of the answer; a missing node when the service did not answer
 */
public record ServiceInfo(JsonNode json) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** @param managementUrl the service's actuator base URL (its management port), e.g. {@code http://localhost:9222} */
    public static ServiceInfo fetch(URI managementUrl) {
        return parse(Http.get(managementUrl.resolve("/actuator/info"), Duration.ofSeconds(5)).orElse("{}"));
    }

    public static ServiceInfo parse(String body) {
        return new ServiceInfo(JSON.readTree(body).path("knobs"));
    }

    public boolean present() {
        return !json.isMissingNode();
    }

    public String profile() {
        return json.path("runtime").path("profiles").path(0).asString("?");
    }

    public boolean virtualRequestThreads() {
        return json.path("runtime").path("virtualRequestThreads").asBoolean(false);
    }

    public Integer tomcatThreads() {
        return integer(json.path("runtime").path("tomcatThreadsMax"));
    }

    public Integer commonPoolParallelism() {
        return integer(json.path("runtime").path("commonPoolParallelism"));
    }

    /** @return the virtual-thread scheduler's parallelism (carrier threads), from its JDK management bean */
    public Integer carrierParallelism() {
        return integer(json.path("runtime").path("carrierParallelism"));
    }

    public Integer carrierMaxPoolSize() {
        return integer(json.path("runtime").path("carrierMaxPoolSize"));
    }

    public Integer carrierMinRunnable() {
        return integer(json.path("runtime").path("carrierMinRunnable"));
    }

    /** @return the collectors' names, e.g. [G1 Young Generation, G1 Concurrent GC, G1 Old Generation]; empty if unknown */
    public List<String> garbageCollectors() {
        return strings(json.path("runtime").path("garbageCollectors"));
    }

    /** @return Runtime.maxMemory() in bytes, or null if not reported */
    public Long maxHeapBytes() {
        JsonNode n = json.path("runtime").path("maxHeapBytes");
        return n.isNumber() ? n.asLong() : null;
    }

    /** @return the JVM's input arguments (RuntimeMXBean), e.g. [--enable-preview, -Dx=1]; empty if not reported */
    public List<String> jvmInputArguments() {
        return strings(json.path("runtime").path("jvmInputArguments"));
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(n -> values.add(n.asString()));
        return values;
    }

    /** @return the service's available processors; 1 if not reported */
    public int availableProcessors() {
        return json.path("runtime").path("availableProcessors").asInt(1);
    }

    /** @return simulation.request-knobs: whether the service takes knobs (latencyMs, ...) per request; true if unsaid */
    public boolean requestKnobs() {
        return json.path("simulation").path("requestKnobs").asBoolean(true);
    }

    public Integer poolMaxTotal() {
        return integer(json.path("fanout").path("pool").path("maxTotal"));
    }

    public Integer poolMaxPerRoute() {
        return integer(json.path("fanout").path("pool").path("maxPerRoute"));
    }

    /** @return downstream.latency in ms (reported as an ISO duration, e.g. PT0.2S), or null on main-service */
    public Integer latencyMs() {
        JsonNode latency = json.path("downstream").path("latency");
        return latency.isString() ? (int) Duration.parse(latency.asString()).toMillis() : null;
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

    private static Integer integer(JsonNode n) {
        return n.isNumber() ? n.asInt() : null;
    }
}
