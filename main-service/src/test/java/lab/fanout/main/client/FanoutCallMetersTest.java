package lab.fanout.main.client;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The adaptive hedge delay (a downstream's recent p95, none while too few calls are known) and the hedge counters. */
class FanoutCallMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FanoutCallMeters meters = new FanoutCallMeters(registry);

    /** Dashboards rate() both ends of a loser from the first hedge on: a dead heat is rare, its series must be 0. */
    @Test
    void aHedgeSentCreatesBothLoserSeriesAtZero() {
        meters.hedgeSent("scopeFork", Downstream.ORDERS);
        assertThat(loserCount("fanout.hedges.losers.answered")).isZero();
        assertThat(loserCount("fanout.hedges.losers.cancelled")).isZero();

        meters.hedgeLost("scopeFork", Downstream.ORDERS, false, Duration.ofMillis(30));
        meters.hedgeLost("scopeFork", Downstream.ORDERS, true, Duration.ofMillis(20));
        meters.hedgeLost("scopeFork", Downstream.ORDERS, true, Duration.ofMillis(20));
        assertThat(loserCount("fanout.hedges.losers.answered")).isEqualTo(1);
        assertThat(loserCount("fanout.hedges.losers.cancelled")).isEqualTo(2);
    }

    private double loserCount(String name) {
        return registry.get(name).tag("strategy", "scopeFork").tag("downstream", "orders-service").counter().count();
    }

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
