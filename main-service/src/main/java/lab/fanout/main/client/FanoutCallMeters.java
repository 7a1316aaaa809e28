package lab.fanout.main.client;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

import org.springframework.stereotype.Component;

/**
 * What the downstream calls cost beyond their request, at {@code /actuator/prometheus}:
 * {@code fanout_calls_in_flight} (calls running now; each holds a pooled connection, or waits for one, and a blocking
 * call also a thread),
 * {@code fanout_calls_wasted_total{strategy,downstream}} (calls that finished after their request had been
 * answered: their result, or their failure, reached nobody), what hedged requests cost and bring
 * ({@code fanout_hedges_sent_total}, {@code fanout_hedges_won_total}, {@code fanout_hedges_losers_cancelled_total},
 * {@code fanout_hedges_losers_answered_total} (dead heats: the loser answered before its cancel reached it),
 * {@code fanout_hedges_wasted_seconds_total}, each by {@code strategy} and {@code downstream}), and the recent call
 * latency per downstream that the adaptive hedge waits for ({@code fanout_calls_recent_latency_seconds{downstream,
 * quantile="0.95"}}), and where the calls' work buffers came from under {@code recycler=threadLocal|pool}
 * ({@code fanout_recycler_allocations_total{mode}} and {@code fanout_recycler_reuses_total{mode}}: one of the two per
 * call, {@code strategy.Recycler}), and the answers {@code onDeadline=partial} gave without some downstream's
 * catalogue ({@code fanout_answers_partial_total{strategy}}).
 */
@Component
public class FanoutCallMeters {

    /**
     * The recent-latency window: Micrometer's time-window histogram of 3 buffers, one reset every 10 s, so a
     * percentile covers the last 20 to 30 s.
     */
    public static final Duration RECENT_WINDOW = Duration.ofSeconds(30);
    /** Calls a downstream must have answered before its p95 is trusted (fewer: no adaptive hedge). */
    public static final int RECENT_MIN_CALLS = 20;

    private final MeterRegistry registry;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<Downstream, Timer> recent = new EnumMap<>(Downstream.class);

    public FanoutCallMeters(MeterRegistry registry) {
        this.registry = registry;
        for (Downstream downstream : Downstream.values()) {
            recent.put(downstream, Timer.builder("fanout.calls.recent.latency")
                    .description("Downstream calls that answered (and hedging losers, up to their cancellation): "
                            + "the 95th percentile over the last 30 s is the adaptive hedge's delay")
                    .tag("downstream", downstream.serviceName())
                    .publishPercentiles(0.95)
                    .distributionStatisticExpiry(RECENT_WINDOW)
                    .distributionStatisticBufferLength(3)
                    .register(registry));
        }
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
        counter("fanout.calls.wasted", "Downstream calls that finished after their request had been answered",
                strategy, service).increment();
    }

    /**
     * A 200 under {@code onDeadline=partial} that lacks at least one downstream's catalogue
     * ({@code fanout_answers_partial_total{strategy}}): ./lab bench's partial share is its increase ÷ the answers.
     *
     * @param strategy the strategy that answered, e.g. {@code scopeFork}
     */
    public void partialAnswer(String strategy) {
        Counter.builder("fanout.answers.partial")
                .description("Answers (200) that lacked a downstream's catalogue at the deadline, onDeadline=partial")
                .tag("strategy", strategy).register(registry).increment();
    }

    /** A call that answered, or a hedging loser at its cancellation (a lower bound of its latency). */
    public void recordLatency(Downstream downstream, Duration took) {
        recent.get(downstream).record(took);
    }

    /**
     * @return the 95th percentile of {@code downstream}'s call latency over about the last
     *         {@link #RECENT_WINDOW}, or empty before {@link #RECENT_MIN_CALLS} calls were recorded or when the window
     *         is empty (the service idled longer than the window)
     */
    public Optional<Duration> recentP95(Downstream downstream) {
        Timer timer = recent.get(downstream);
        if (timer.count() < RECENT_MIN_CALLS) {
            return Optional.empty();
        }
        for (ValueAtPercentile value : timer.takeSnapshot().percentileValues()) {
            if (value.percentile() == 0.95 && value.value(TimeUnit.NANOSECONDS) > 0) {
                return Optional.of(Duration.ofNanos((long) value.value(TimeUnit.NANOSECONDS)));
            }
        }
        return Optional.empty();
    }

    /**
     * Registers {@code strategy}'s hedging meters at 0 for every downstream, so that a dashboard shows a rate of 0, not
     * nothing, before the first hedge.
     */
    public void registerHedging(String strategy) {
        for (Downstream downstream : Downstream.values()) {
            hedgeSent(strategy, downstream, 0);
            hedgeWon(strategy, downstream, 0);
            hedgeLost(strategy, downstream, true, Duration.ZERO, 0);
        }
    }

    /** A hedged call sent its second copy. */
    public void hedgeSent(String strategy, Downstream downstream) {
        hedgeSent(strategy, downstream, 1);
    }

    /** A hedged call was answered by its second copy. */
    public void hedgeWon(String strategy, Downstream downstream) {
        hedgeWon(strategy, downstream, 1);
    }

    /**
     * The copy of a hedged call that lost the race ended.
     *
     * @param cancelled whether it was cancelled (else it answered after the winner, a dead heat)
     * @param ranFor    how long it had run: downstream time spent for nothing
     */
    public void hedgeLost(String strategy, Downstream downstream, boolean cancelled, Duration ranFor) {
        hedgeLost(strategy, downstream, cancelled, ranFor, 1);
    }

    private void hedgeSent(String strategy, Downstream downstream, int count) {
        counter("fanout.hedges.sent", "Second copies of slow calls sent (hedged requests)", strategy,
                downstream.serviceName()).increment(count);
        // each loser ends one of two ways; both series exist from the first hedge on, so that a rare way (a dead
        // heat) reads 0 in Prometheus instead of being absent
        losers(true, strategy, downstream);
        losers(false, strategy, downstream);
    }

    private void hedgeWon(String strategy, Downstream downstream, int count) {
        counter("fanout.hedges.won", "Hedged calls answered by their second copy", strategy,
                downstream.serviceName()).increment(count);
    }

    private void hedgeLost(String strategy, Downstream downstream, boolean cancelled, Duration ranFor, int count) {
        losers(cancelled, strategy, downstream).increment(count);
        Counter.builder("fanout.hedges.wasted").baseUnit("seconds")
                .description("Time the losing copies of hedged calls ran, from their start to their end")
                .tag("strategy", strategy).tag("downstream", downstream.serviceName())
                .register(registry).increment(ranFor.toNanos() / 1e9);
    }

    private Counter losers(boolean cancelled, String strategy, Downstream downstream) {
        return cancelled
                ? counter("fanout.hedges.losers.cancelled", "Copies of hedged calls cancelled because the other "
                        + "answered first", strategy, downstream.serviceName())
                : counter("fanout.hedges.losers.answered", "Copies of hedged calls that answered after the other "
                        + "(dead heats)", strategy, downstream.serviceName());
    }

    /**
     * A call took its work buffer ({@code strategy.Recycler}). How to read the two counters over a run: under the
     * virtual-thread executor or thread-per-task each call has a new thread, so {@code threadLocal} allocates once per
     * call (allocations = calls, reuses 0), while {@code pool} allocates at most its capacity in all as long as no more
     * calls than that hold a buffer at once (allocations bounded, reuses = calls - allocations).
     *
     * @param mode      the {@code recycler} value, {@code threadLocal} or {@code pool}
     * @param allocated whether the buffer was allocated (its thread's slot, or the pool, was empty) rather than reused
     */
    public void bufferTaken(String mode, boolean allocated) {
        Counter.builder(allocated ? "fanout.recycler.allocations" : "fanout.recycler.reuses")
                .description(allocated ? "Work buffers allocated by downstream calls (recycler knob)"
                        : "Work buffers reused by downstream calls (recycler knob)")
                .tag("mode", mode).register(registry).increment();
    }

    private Counter counter(String name, String description, String strategy, String service) {
        return Counter.builder(name).description(description).tag("strategy", strategy).tag("downstream", service)
                .register(registry);
    }
}
