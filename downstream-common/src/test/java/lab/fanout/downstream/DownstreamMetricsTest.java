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
    void recordsTheSimulatedIoItIsGiven() {
        metrics.recordSimulatedIo(Duration.ofMillis(20));
        metrics.recordSimulatedIo(Duration.ZERO);
        var timer = registry.get("downstream.simulated.latency").timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.max(TimeUnit.MILLISECONDS)).isEqualTo(20);
    }

    private double inFlight() {
        return registry.get("downstream.requests.in.flight").gauge().value();
    }
}
