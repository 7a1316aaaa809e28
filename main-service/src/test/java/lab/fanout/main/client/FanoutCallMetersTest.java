package lab.fanout.main.client;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The adaptive hedge's delay: a downstream's recent p95, and none while too few calls are known. */
class FanoutCallMetersTest {

    private final FanoutCallMeters meters = new FanoutCallMeters(new SimpleMeterRegistry());

    @Test
    void knowsNoP95BeforeTwentyCalls() {
        for (int i = 1; i < FanoutCallMeters.RECENT_MIN_CALLS; i++) {
            meters.recordLatency(Downstream.ORDERS, Duration.ofMillis(100));
        }

        assertThat(meters.recentP95(Downstream.ORDERS)).isEmpty();
    }

    /** 95 calls of 100 ms and 5 of 2 s: the p95 is near 100 ms (HdrHistogram's buckets), per downstream. */
    @Test
    void theP95IsTheRecentCallsOfThatDownstream() {
        for (int i = 0; i < 95; i++) {
            meters.recordLatency(Downstream.ORDERS, Duration.ofMillis(100));
        }
        for (int i = 0; i < 5; i++) {
            meters.recordLatency(Downstream.ORDERS, Duration.ofSeconds(2));
        }
        for (int i = 0; i < 20; i++) {
            meters.recordLatency(Downstream.PRODUCTS, Duration.ofMillis(500));
        }

        assertThat(meters.recentP95(Downstream.ORDERS)).hasValueSatisfying(
                p95 -> assertThat(p95.toMillis()).isBetween(95L, 110L));
        assertThat(meters.recentP95(Downstream.PRODUCTS)).hasValueSatisfying(
                p95 -> assertThat(p95.toMillis()).isBetween(480L, 530L));
        assertThat(meters.recentP95(Downstream.ACCOUNTS)).isEmpty();
    }
}
