package lab.fanout.common;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The per-request simulation knobs, bound from query parameters of the same names. main-service accepts them and
 * forwards latency and jitter to every downstream call, the fault knobs only to the downstreams named in
 * {@code faultTarget}; a downstream service applies what it receives. A knob not given takes the downstream's
 * configured default ({@code downstream.latency}, {@code downstream.faults.*}).
 * <p>
 * Every knob has a limit (60 s for times, 0..1 for probabilities, 400..599 for statuses), so nobody can tie the lab
 * up with an hour-long sleep; beyond it the answer is 400 problem+json naming the limit. A fault's magnitude given
 * without its probability ({@code errorStatus} without {@code errorRate}, {@code tailMs} without {@code tailRate})
 * applies to every request. A request drawn to fail (error or close) fails fast, without the latency and jitter;
 * add a tail to make it fail slowly. So {@code latencyMs=1000&faultTarget=orders&errorRate=1} is "orders fails at
 * once while its siblings take a second".
 *
 * @param latencyMs   simulated I/O latency in ms, 0..60000
 * @param jitterMs    extra random latency in ms, uniform in [0, jitterMs], 0..60000
 * @param errorRate   probability, 0..1, of answering {@code errorStatus} (problem+json) instead of the catalogue
 * @param errorStatus the status of an injected error, 400..599 (default 500)
 * @param tailRate    probability, 0..1, of adding {@code tailMs} to the latency: a long tail
 * @param tailMs      the long tail's extra latency in ms, 0..60000
 * @param closeRate   probability, 0..1, of closing the connection without sending a byte
 *                    (the client sees no response: Apache HttpClient throws {@code NoHttpResponseException})
 * @param dribbleMs   slow body: the response body is spread over this many ms after the latency, 0..60000
 * @param faultTarget main-service only: the downstreams that get the fault knobs, any of {@code orders},
 *                    {@code products}, {@code accounts}; default all three. Downstream services ignore it.
 */
public record Simulation(@Nullable @Min(0) @Max(MAX_MS) Integer latencyMs,
                         @Nullable @Min(0) @Max(MAX_MS) Integer jitterMs,
                         @Nullable @DecimalMin("0") @DecimalMax("1") Double errorRate,
                         @Nullable @Min(400) @Max(599) Integer errorStatus,
                         @Nullable @DecimalMin("0") @DecimalMax("1") Double tailRate,
                         @Nullable @Min(0) @Max(MAX_MS) Integer tailMs,
                         @Nullable @DecimalMin("0") @DecimalMax("1") Double closeRate,
                         @Nullable @Min(0) @Max(MAX_MS) Integer dribbleMs,
                         @Nullable List<@Pattern(regexp = TARGETS, message = "must be one of [orders, products, accounts]")
                                 String> faultTarget) {

    public static final int MAX_MS = 60_000;

    private static final String TARGETS = "orders|products|accounts";

    /** No knob given: every downstream uses its configured defaults. */
    public static final Simulation NONE = new Simulation(null, null, null, null, null, null, null, null, null);

    /** Shorthand for the latency knobs alone, as the seed demo had them. */
    public Simulation(@Nullable Integer latencyMs, @Nullable Integer jitterMs) {
        this(latencyMs, jitterMs, null, null, null, null, null, null, null);
    }

    /**
     * @param target a downstream's short name: {@code orders}, {@code products} or {@code accounts}
     * @return what main-service forwards to that downstream: latency and jitter always, the fault knobs only if
     * {@code faultTarget} names it or is not given; never {@code faultTarget} itself
     */
    public Simulation forTarget(String target) {
        boolean targeted = faultTarget == null || faultTarget.isEmpty() || faultTarget.contains(target);
        return targeted ? new Simulation(latencyMs, jitterMs, errorRate, errorStatus, tailRate, tailMs, closeRate,
                dribbleMs, null) : new Simulation(latencyMs, jitterMs);
    }

    /** @return the given knobs as query parameters, in a stable order, leaving out the ones not given */
    public Map<String, Object> asQueryParameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        put(parameters, "latencyMs", latencyMs);
        put(parameters, "jitterMs", jitterMs);
        put(parameters, "errorRate", errorRate);
        put(parameters, "errorStatus", errorStatus);
        put(parameters, "tailRate", tailRate);
        put(parameters, "tailMs", tailMs);
        put(parameters, "closeRate", closeRate);
        put(parameters, "dribbleMs", dribbleMs);
        if (faultTarget != null && !faultTarget.isEmpty()) {
            parameters.put("faultTarget", String.join(",", faultTarget));
        }
        return parameters;
    }

    /** @return how long a downstream request should take, the given defaults filling what the caller left out */
    public Duration delay(Duration defaultLatency, Duration defaultJitter) {
        Duration base = latencyMs != null ? Duration.ofMillis(latencyMs) : defaultLatency;
        long jitter = jitterMs != null ? jitterMs : defaultJitter.toMillis();
        return jitter == 0 ? base : base.plusMillis(ThreadLocalRandom.current().nextLong(jitter + 1));
    }

    private static void put(Map<String, Object> parameters, String name, @Nullable Object value) {
        if (value != null) {
            parameters.put(name, value);
        }
    }
}
