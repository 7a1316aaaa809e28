package lab.fanout.downstream;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

class DownstreamMetricsTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final DownstreamMetrics metrics = new DownstreamMetrics(registry,
            new DownstreamProperties("/order/api/v1/orders", Duration.ofMillis(200), Duration.ZERO));

    @Test
    void countsARequestInFlightUntilItCompletesEvenWhenItFails() {
        var request = new MockHttpServletRequest();
        var response = new MockHttpServletResponse();
        metrics.preHandle(request, response, new Object());
        metrics.preHandle(request, response, new Object());
        assertThat(inFlight()).isEqualTo(2);
        metrics.afterCompletion(request, response, new Object(), new IllegalStateException("handler threw"));
        metrics.afterCompletion(request, response, new Object(), null);
        assertThat(inFlight()).isZero();
    }

    @Test
    void recordsTheLatencyItSimulated() throws InterruptedException {
        long noLimit = System.nanoTime() + TimeUnit.HOURS.toNanos(1);
        assertThat(metrics.simulateIo(Duration.ofMillis(20), noLimit)).isTrue();
        assertThat(metrics.simulateIo(Duration.ZERO, noLimit)).isTrue();
        var timer = registry.get("downstream.simulated.latency").timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.max(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(20);
    }

    /** The caller's budget (plus grace) comes first: the sleep ends there, says so, and records what it slept. */
    @Test
    void stopsAtTheGiveUpInstant() throws InterruptedException {
        assertThat(metrics.simulateIo(Duration.ofMinutes(1), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20)))
                .isFalse();
        var timer = registry.get("downstream.simulated.latency").timer();
        assertThat(timer.max(TimeUnit.MILLISECONDS)).isBetween(20.0, 60_000.0);
    }

    private double inFlight() {
        return registry.get("downstream.requests.in.flight").gauge().value();
    }
}
