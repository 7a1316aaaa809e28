package lab.fanout.common;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.jspecify.annotations.Nullable;

/**
 * The per-request simulation knobs, bound from query parameters of the same names. main-service accepts them and
 * forwards them to every downstream call; a downstream service applies them. A missing one takes the downstream's
 * configured default.
 *
 * @param latencyMs simulated I/O latency in ms, 0..60000 (60 s: nobody can tie the lab up with an hour-long sleep)
 * @param jitterMs  extra random latency in ms, uniform in [0, jitterMs], 0..60000
 */
public record Simulation(@Nullable @Min(0) @Max(MAX_MS) Integer latencyMs,
                         @Nullable @Min(0) @Max(MAX_MS) Integer jitterMs) {

    public static final int MAX_MS = 60_000;

    /** @return the given knobs as query parameters, in a stable order, leaving out the ones not given */
    public Map<String, Object> asQueryParameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        if (latencyMs != null) {
            parameters.put("latencyMs", latencyMs);
        }
        if (jitterMs != null) {
            parameters.put("jitterMs", jitterMs);
        }
        return parameters;
    }

    /** @return how long a downstream request should take, the given defaults filling what the caller left out */
    public Duration delay(Duration defaultLatency, Duration defaultJitter) {
        Duration base = latencyMs != null ? Duration.ofMillis(latencyMs) : defaultLatency;
        long jitter = jitterMs != null ? jitterMs : defaultJitter.toMillis();
        return jitter == 0 ? base : base.plusMillis(ThreadLocalRandom.current().nextLong(jitter + 1));
    }
}
