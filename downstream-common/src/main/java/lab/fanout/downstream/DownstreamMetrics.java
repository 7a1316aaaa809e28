package lab.fanout.downstream;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.AsyncHandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * What a downstream service does with its load, so that a dashboard can rule it out (or in) as the bottleneck:
 * <ul>
 * <li>{@code downstream_requests_in_flight}: catalogue requests being served now. By Little's law it should be
 * about arrival rate (req/s) x simulated latency (s); much more means requests queue somewhere in this service.</li>
 * <li>{@code downstream_simulated_latency_seconds}: the simulated I/O latency each request spent (histogram), which
 * main-service's {@code http_client_requests_seconds{client_name=...}} should match plus network and queueing. The
 * memory store's is its sleep; a database store's is its query, once it holds a connection (the wait for the
 * connection is the pool's own metric).</li>
 * </ul>
 * Series carry the common {@code application} tag, which names the service.
 */
class DownstreamMetrics implements WebMvcConfigurer, AsyncHandlerInterceptor {

    private final AtomicInteger inFlight = new AtomicInteger();
    private final Timer simulatedLatency;
    private final DownstreamProperties properties;

    DownstreamMetrics(MeterRegistry registry, DownstreamProperties properties) {
        this.properties = properties;
        Gauge.builder("downstream.requests.in.flight", inFlight, AtomicInteger::get)
                .description("SerializedCatalogue requests being served now, simulated latency included")
                .register(registry);
        simulatedLatency = Timer.builder("downstream.simulated.latency")
                .description("Simulated I/O latency applied to each catalogue request (latency + jitter)")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(60))
                .register(registry);
    }

    /** @param io how long one request's simulated I/O took, as its {@link CatalogueStore} reports it */
    void recordSimulatedIo(Duration io) {
        simulatedLatency.record(io);
    }

    /**
     * @param until    a {@link System#nanoTime()} instant to sleep until
     * @param giveUpAt a {@link System#nanoTime()} instant not to sleep past
     * @return false if {@code giveUpAt} came first (having slept until it)
     */
    static boolean sleepUntil(long until, long giveUpAt) throws InterruptedException {
        long wake = until - giveUpAt < 0 ? until : giveUpAt;   // compared by difference: nanoTime may be negative
        long nanos = wake - System.nanoTime();
        if (nanos > 0) {
            Thread.sleep(Duration.ofNanos(nanos));
        }
        return wake == until;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns(properties.path(), properties.path() + "/**");
    }

    /**
     * Counts a request once: an asynchronous answer (a {@link NonBlockingCatalogueStore}'s) passes the interceptors a
     * second time, in the ASYNC dispatch that renders it, which is not counted.
     */
    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getDispatcherType() != DispatcherType.ASYNC) {
            inFlight.incrementAndGet();
        }
        return true;
    }

    /**
     * Called after preHandle returned true, also when the handler threw, but not for a dispatch that started an
     * asynchronous answer (afterConcurrentHandlingStarted instead): that one ends in {@link #asyncAnswerEnded}. Its
     * ASYNC dispatch is not counted here either: after a connection closed without an answer (a {@code close} fault,
     * an abandoned or late request) Tomcat need not dispatch it at all.
     */
    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
                                @Nullable Exception ex) {
        if (request.getDispatcherType() != DispatcherType.ASYNC) {
            inFlight.decrementAndGet();
        }
    }

    /** An asynchronous answer was written, or its connection closed, or its failure handed to Spring MVC. */
    void asyncAnswerEnded() {
        inFlight.decrementAndGet();
    }
}
