package lab.fanout.main.client;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.config.FanoutProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * A Resilience4j circuit breaker per downstream, named after its service ({@code orders-service}), over a time-based
 * sliding window of its calls ({@link FanoutProperties.Breaker}): failures (error statuses, broken connections,
 * timeouts, the deadline) and slow calls open it. Open, it refuses calls at once (503 {@code circuit-open}); after the
 * wait it turns half-open by itself and lets a few probes through, whose outcome closes it or opens it again. Calls
 * that were cancelled (a failed sibling, a lost hedging race) or never got a pooled connection say nothing about the
 * downstream and are not recorded.
 * <p>
 * Switched off ({@code fanout.breaker.enabled=false}, the default) each breaker is in Resilience4j's {@code DISABLED}
 * state: it permits every call and records none. Its state is on {@code /actuator/prometheus} either way:
 * {@code resilience4j_circuitbreaker_state{name,state}} (1 for the current state), with the calls and rates beside it.
 */
@Component
public class DownstreamBreakers {

    private static final Log log = LogFactory.getLog(DownstreamBreakers.class);

    private final Map<Downstream, CircuitBreaker> breakers = new EnumMap<>(Downstream.class);
    private final FanoutProperties.Breaker settings;

    DownstreamBreakers(FanoutProperties properties, MeterRegistry meters) {
        this.settings = properties.breaker();
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED)
                .slidingWindowSize((int) Math.max(1, settings.window().toSeconds()))
                .minimumNumberOfCalls(settings.minimumCalls())
                .failureRateThreshold(settings.failureRateThreshold())
                .slowCallDurationThreshold(settings.slowCallDuration())
                .slowCallRateThreshold(settings.slowCallRateThreshold())
                .waitDurationInOpenState(settings.waitInOpen())
                .permittedNumberOfCallsInHalfOpenState(settings.halfOpenCalls())
                // no call has to come along to end the wait: probes may start as soon as it is over
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build());
        for (Downstream downstream : Downstream.values()) {
            CircuitBreaker breaker = registry.circuitBreaker(downstream.serviceName());
            if (!settings.enabled()) {
                breaker.transitionToDisabledState();
            }
            breaker.getEventPublisher().onStateTransition(event -> log.info("circuit breaker of "
                    + event.getCircuitBreakerName() + ": " + event.getStateTransition()));
            breakers.put(downstream, breaker);
        }
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(registry).bindTo(meters);
    }

    /**
     * Called before a request's calls start: a request needs every downstream, so one open breaker decides it.
     *
     * @throws FanoutException CIRCUIT_OPEN naming the first downstream whose breaker is open
     */
    public void refuseIfAnyOpen() {
        for (Downstream downstream : Downstream.values()) {
            if (breakers.get(downstream).getState() == CircuitBreaker.State.OPEN) {
                throw open(downstream);
            }
        }
    }

    /** @return the state of {@code downstream}'s breaker, e.g. {@code CLOSED}, {@code OPEN}, {@code DISABLED} */
    public CircuitBreaker.State state(Downstream downstream) {
        return breakers.get(downstream).getState();
    }

    /**
     * @return a permit for one call, whose outcome the caller reports once
     * @throws FanoutException CIRCUIT_OPEN when the breaker refuses the call (open, or half-open with its probes out)
     */
    Permit acquire(Downstream downstream) {
        CircuitBreaker breaker = breakers.get(downstream);
        if (!breaker.tryAcquirePermission()) {
            throw open(downstream);
        }
        return new Permit(breaker);
    }

    private FanoutException open(Downstream downstream) {
        FanoutException e = new FanoutException(FanoutException.Kind.CIRCUIT_OPEN, downstream,
                "The circuit breaker of " + downstream.serviceName() + " is open: too many of its calls in the last "
                        + settings.window().toSeconds() + " s failed or took over "
                        + settings.slowCallDuration().toMillis() + " ms; calls to it are refused until probes, within " + settings.waitInOpen().toMillis()
                        + " ms of its opening, find it answering again", null);
        e.property("breaker", downstream.serviceName());
        return e;
    }

    /** One permitted call: its outcome goes to the breaker once, with the call's duration. */
    static final class Permit {

        private final CircuitBreaker breaker;
        private final long start = System.nanoTime();
        private boolean reported;

        private Permit(CircuitBreaker breaker) {
            this.breaker = breaker;
        }

        void succeeded() {
            if (report()) {
                breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        }

        /** The call failed: recorded if the failure is the downstream's, else the permit is given back. */
        void failed(FanoutException failure, boolean cancelled) {
            if (!report()) {
                return;
            }
            if (cancelled || failure.kind() == FanoutException.Kind.POOL_EXHAUSTED
                    || failure.kind() == FanoutException.Kind.CIRCUIT_OPEN) {
                breaker.releasePermission();
            } else {
                breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, failure);
            }
        }

        /** Cancelled before it ended (reactive): nothing learnt about the downstream. */
        void cancelled() {
            if (report()) {
                breaker.releasePermission();
            }
        }

        private synchronized boolean report() {
            boolean first = !reported;
            reported = true;
            return first;
        }
    }
}
