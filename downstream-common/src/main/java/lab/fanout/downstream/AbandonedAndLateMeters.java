package lab.fanout.downstream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What happened to the callers' interest in our work, at {@code /actuator/prometheus}:
 * {@code downstream_requests_abandoned_total} (the caller closed the connection before the response was written:
 * it cancelled the call or its timeout fired) and {@code downstream_requests_late_total} (the work finished after the
 * budget the caller sent in {@code X-Fanout-Budget-Ms} ran out). A request can be both.
 */
public class AbandonedAndLateMeters {

    private final Counter abandoned;
    private final Counter late;

    AbandonedAndLateMeters(MeterRegistry registry) {
        abandoned = Counter.builder("downstream.requests.abandoned")
                .description("Requests whose caller closed the connection before the response was written")
                .register(registry);
        late = Counter.builder("downstream.requests.late")
                .description("Requests that finished after the budget their caller sent (X-Fanout-Budget-Ms) ran out,"
                        + " or were stopped a grace period after it")
                .register(registry);
    }

    void abandoned() {
        abandoned.increment();
    }

    void late() {
        late.increment();
    }
}
