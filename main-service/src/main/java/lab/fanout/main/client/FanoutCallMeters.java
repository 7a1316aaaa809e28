package lab.fanout.main.client;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * What the downstream calls cost beyond their request, at {@code /actuator/prometheus}:
 * {@code fanout_calls_in_flight} (calls running now; each holds a pooled connection, or waits for one, and a blocking
 * call also a thread)
 * and {@code fanout_calls_wasted_total{strategy,downstream}} (calls that finished after their request had been
 * answered: their result, or their failure, reached nobody).
 */
@Component
public class FanoutCallMeters {

    private final MeterRegistry registry;
    private final AtomicInteger inFlight = new AtomicInteger();

    FanoutCallMeters(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("fanout.calls.in.flight", inFlight, AtomicInteger::get)
                .description("Downstream calls running now, each holding a pooled connection or waiting for one (blocking calls also a thread)")
                .register(registry);
    }

    /** @return the number of downstream calls running now */
    public int inFlight() {
        return inFlight.get();
    }

    void started() {
        inFlight.incrementAndGet();
    }

    void ended() {
        inFlight.decrementAndGet();
    }

    /**
     * @param strategy the strategy that answered the request, e.g. {@code completableFuture}
     * @param service  the downstream the wasted call went to, e.g. {@code orders-service}
     */
    public void wasted(String strategy, String service) {
        Counter.builder("fanout.calls.wasted")
                .description("Downstream calls that finished after their request had been answered")
                .tag("strategy", strategy).tag("downstream", service)
                .register(registry).increment();
    }
}
