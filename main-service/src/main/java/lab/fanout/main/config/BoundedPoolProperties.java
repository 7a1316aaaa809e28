package lab.fanout.main.config;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import lab.fanout.common.Knobs;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The pool of the {@code completableFutureWithBoundedPool} strategy, the bulkhead most services put around their
 * calls: {@code threads} platform threads run calls, {@code queue} more calls wait for one, and a call past both is
 * refused; its request is answered 503 {@code bulkhead-full} naming the pool (docs/overload.md). Environment form:
 * {@code FANOUT_BOUNDED_POOL_THREADS}, {@code FANOUT_BOUNDED_POOL_QUEUE}. A value out of range stops the start,
 * naming the property.
 *
 * @param threads    platform threads, 1..10,000, the most calls running at once (default 200: Tomcat's default max
 *                   threads, the platform-thread budget the platform profile already spends on request threads; at
 *                   the lab's 200 ms calls, by Little's law, 200 ÷ 0.2 s = 1,000 calls/s, 333 requests/s of 3 calls)
 * @param queue      calls waiting for a thread, 1..100,000 (default 200, as many as threads: a queued call then
 *                   waits at most about one call's latency, queue ÷ threads × latency, before it runs; a longer queue
 *                   only adds waiting that a caller pays for before the 503 a full one would have given at once)
 * @param retryAfter the {@code Retry-After} of the 503 when the pool is full, whole seconds (default 1s: a full pool
 *                   drains in about a call's latency)
 */
@Validated
@ConfigurationProperties("fanout.bounded-pool")
public record BoundedPoolProperties(
        @Positive @Max(value = 10_000, message = "must be at most 10000: each is a platform thread with its own stack")
        @DefaultValue("200") int threads,
        @Positive @Max(value = 100_000, message = "must be at most 100000: the queue's array is allocated at start")
        @DefaultValue("200") int queue,
        @NotNull @DefaultValue("1s") Duration retryAfter) implements Knobs {
}
