package lab.fanout.main.admission;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import lab.fanout.main.config.AdmissionProperties;
import lab.fanout.main.config.AdmissionProperties.Mode;

/**
 * The limit on fan-out requests in flight ({@link AdmissionProperties}), on Netflix concurrency-limits'
 * {@link SimpleLimiter}: a semaphore whose permits follow a {@link Limit}, fixed or Gradient2 (adaptive). Mode off
 * keeps the count without a limit, so that the in-flight gauge reads the same in every mode.
 * <p>
 * Metrics: {@code fanout_admission_in_flight}, {@code fanout_admission_limit} (absent when off),
 * {@code fanout_admission_requests_total{outcome=admitted|rejected|expired}}, and
 * {@code fanout_admission_queue_wait_seconds}: how long each request's task waited to run after Tomcat's poller handed
 * it over, for a request thread (platform) or a carrier (virtual) ({@code server.servlet.QueuedRequests}).
 */
public final class Admission {

    /** Gradient2's floor: the adaptive limit never sheds below this many in flight (the library's default). */
    static final int ADAPTIVE_MIN = 20;

    private final Mode mode;
    private final int ceiling;
    private final SimpleLimiter<Void> limiter;
    private final Counter admitted;
    private final Counter rejected;
    private final Counter expired;
    private final Timer queueWait;

    /**
     * @param maxHeapBytes the heap the ceiling is derived from, bytes ({@link AdmissionProperties#ceiling})
     * @param nanoClock    the limiter's clock, ns (System::nanoTime; a fake one in tests)
     * @throws IllegalArgumentException maxInFlight above the ceiling, with the fix
     */
    public Admission(AdmissionProperties properties, long maxHeapBytes, MeterRegistry meters, LongSupplier nanoClock) {
        this.mode = properties.mode();
        this.ceiling = properties.ceiling(maxHeapBytes);
        Integer max = properties.maxInFlight();
        if (mode != Mode.OFF && max != null && max > ceiling) {
            throw new IllegalArgumentException("fanout.admission.max-in-flight " + max + " is above what the heap"
                    + " holds: " + ceiling + " requests in flight (max heap " + (maxHeapBytes >> 20) + " MiB x "
                    + properties.heapShare() + " / " + properties.bytesPerRequest().toKilobytes() + " KiB per"
                    + " request). Give a lower limit, a larger heap (-Xmx), or fanout.admission.mode=off to measure"
                    + " past it on purpose");
        }
        int top = max != null ? max
                : mode == Mode.FIXED ? Math.min(AdmissionProperties.DEFAULT_FIXED, ceiling) : ceiling;
        Limit limit = switch (mode) {
            case OFF -> FixedLimit.of(Integer.MAX_VALUE);
            case FIXED -> FixedLimit.of(top);
            case ADAPTIVE -> Gradient2Limit.newBuilder().initialLimit(Math.min(ADAPTIVE_MIN, top))
                    .minLimit(Math.min(ADAPTIVE_MIN, top)).maxConcurrency(top).build();
        };
        this.limiter = SimpleLimiter.newBuilder().named("main-service").limit(limit).nanoClock(nanoClock).build();
        Gauge.builder("fanout.admission.in.flight", limiter, SimpleLimiter::getInflight)
                .description("fan-out requests admitted and not yet answered").register(meters);
        if (mode != Mode.OFF) {
            Gauge.builder("fanout.admission.limit", limiter, SimpleLimiter::getLimit)
                    .description("the most fan-out requests admitted at once (mode " + mode + ")").register(meters);
        }
        this.admitted = outcome(meters, "admitted", "let in");
        this.rejected = outcome(meters, "rejected", "answered overloaded: the limit was reached");
        this.expired = outcome(meters, "expired", "answered overloaded: waited to run (for a request"
                + " thread or a carrier) past the deadline");
        this.queueWait = Timer.builder("fanout.admission.queue.wait").description("how long a request's task waited"
                + " to run after Tomcat's poller handed it over: for a request thread (platform) or a carrier (virtual)")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30)).register(meters);
    }

    private static Counter outcome(MeterRegistry meters, String outcome, String description) {
        return Counter.builder("fanout.admission.requests").tag("outcome", outcome)
                .description("fan-out requests by admission outcome: " + description).register(meters);
    }

    /**
     * @return a ticket to {@link Ticket#release} when the request is answered, or empty: the limit is reached
     */
    public Optional<Ticket> tryAdmit() {
        Optional<Limiter.Listener> listener = limiter.acquire(null);
        (listener.isPresent() ? admitted : rejected).increment();
        return listener.map(Ticket::new);
    }

    /** @param nanos how long a request's task waited to run, ns */
    public void queued(long nanos) {
        queueWait.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Counts a request that waited for a request thread past its deadline and was answered without starting. */
    public void expired() {
        expired.increment();
    }

    /** @return requests in flight now */
    public int inFlight() {
        return limiter.getInflight();
    }

    /** @return the limit now, or empty when the mode is off */
    public Optional<Integer> limit() {
        return mode == Mode.OFF ? Optional.empty() : Optional.of(limiter.getLimit());
    }

    /** @return what {@code /actuator/info} shows under {@code admission}: mode, limit now, ceiling */
    Map<String, Object> info() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("mode", mode.name().toLowerCase(Locale.ROOT));
        info.put("limit", limit().orElse(null));
        info.put("ceiling", ceiling);
        info.put("inFlight", inFlight());
        return info;
    }

    /** One admitted request's permit; release it exactly once, when the request is answered. */
    public static final class Ticket {

        private final Limiter.Listener listener;

        private Ticket(Limiter.Listener listener) {
            this.listener = listener;
        }

        /**
         * @param status the answer's HTTP status: 503 or 504 (a pool, a deadline ran out) is a drop, the sign of
         *               overload; another 5xx (a downstream's error) says nothing of the latency and is ignored; any
         *               other is a success, whose latency the adaptive limit samples
         */
        public void release(int status) {
            if (status == 503 || status == 504) {
                listener.onDropped();
            } else if (status >= 500) {
                listener.onIgnore();
            } else {
                listener.onSuccess();
            }
        }
    }
}
