package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import lab.fanout.main.client.FanoutException;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.stereotype.Component;

/**
 * The calls as {@code WebClient} requests on Apache HttpClient 5's async client (or Reactor Netty's client, with
 * {@code fanout.reactive.client=reactor-netty}), joined with {@code Mono.zip}, the request's remaining deadline as
 * {@code Mono.timeout}. No thread waits for a call: the calls' I/O runs on HttpClient's I/O reactor threads (one per
 * core; with Reactor Netty on its event loops), and the controller releases the request thread while they run
 * ({@link AsyncFanoutStrategy}).
 * <p>
 * Siblings: on the first failure {@code Mono.zip} cancels the other calls, which aborts their HTTP exchanges and
 * closes their connections, so the request fails at once, as {@code scopeFork} does. At the deadline
 * {@code Mono.timeout} cancels every call still running the same way, a body still arriving included. When the Mono
 * ends, no call of the request is running, and the cancelled calls' connections are back in the pool (one still
 * being opened, when its connect ends: {@code CancellableConnector}). The failed call's own follows just after:
 * HttpClient releases it once the response handler, in which the error travels on to {@code Mono.zip} and the caller,
 * has returned (at once, or 28 ms after the caller had the 502 when that thread lost the core, issue 41).
 * <p>
 * {@code onDeadline=partial}: {@code timeout} per call with {@code onErrorResume} to "missing"; the timeout cancels
 * the late call as above, and {@code Mono.zip} joins what came.
 */
@Component
class ReactiveStrategy implements AsyncFanoutStrategy {

    @Override
    public StrategyName name() {
        return StrategyName.REACTIVE;
    }

    @Override
    public Mono<Fetched> fetchAsync(FanoutCalls calls) {
        if (calls.onDeadline() == OnDeadline.PARTIAL) {
            return arrivedByDeadline(calls);
        }
        // deferred: the time left is read when the request subscribes, not when the Mono is built
        return Mono.defer(() -> Mono.zip(calls.all().stream().map(ReactiveStrategy::hedged).toList(),
                        results -> calls.fetched(Arrays.asList(results)))
                .timeout(calls.deadline().remaining(), Mono.error(() -> calls.deadlineExceeded(null))));
    }

    /** {@code onDeadline=partial}: each call empty once the deadline has cut it; a failure fails the request. */
    private static Mono<Fetched> arrivedByDeadline(FanoutCalls calls) {
        return Mono.defer(() -> {
            Duration remaining = calls.deadline().remaining();
            return Mono.zip(calls.all().stream().map(call -> hedged(call).map(Optional::<Object>of)
                                    .timeout(remaining)
                                    .onErrorResume(e -> e instanceof TimeoutException || FanoutCalls.cutByDeadline(e),
                                            e -> Mono.just(Optional.empty())))
                            .toList(),
                    results -> calls.arrivedByDeadline(Arrays.stream(results)
                            .map(result -> ((Optional<?>) result).orElse(null)).toList()));
        });
    }

    @Override
    public boolean hedges() {
        return true;
    }

    /**
     * A hedged call as {@code Mono.firstWithValue} of the first attempt and the second, delayed: the first value wins
     * and the other is cancelled, which aborts its HTTP exchange and closes its connection, as {@code Mono.zip} does
     * for a failed call's siblings. The delay is cut short when the first attempt ends (a failure is not retried), and
     * the call's error is then the first attempt's; with both out, the first failure in time.
     */
    private static <T> Mono<List<T>> hedged(FanoutCall<T> call) {
        return Mono.defer(() -> {
            Optional<Duration> delay = call.hedgeDelay();
            if (delay.isEmpty()) {
                return call.mono();
            }
            Sinks.Empty<Void> firstEnded = Sinks.empty();
            AtomicReference<Throwable> firstFailure = new AtomicReference<>();
            Mono<List<T>> first = call.mono()
                    .doOnError(e -> firstFailure.compareAndSet(null, e))
                    .doFinally(signal -> firstEnded.tryEmitEmpty());
            Mono<List<T>> second = Mono.delay(delay.get())
                    .takeUntilOther(firstEnded.asMono())
                    .flatMap(tick -> call.monoHedge().doOnError(e -> firstFailure.compareAndSet(null, e)));
            return Mono.firstWithValue(first, second)
                    .onErrorMap(e -> firstFailure.get() != null ? firstFailure.get() : e);
        });
    }

    /**
     * Blocks the caller until {@link #fetchAsync} ends: for callers without an async path (tests). The controller
     * never calls it.
     *
     * @throws FanoutException as {@link FanoutStrategy#fetch}; INTERRUPTED if the waiting thread is interrupted
     */
    @Override
    public Fetched fetch(FanoutCalls calls) {
        try {
            return fetchAsync(calls).block();
        } catch (RuntimeException e) {
            if (Exceptions.unwrap(e) instanceof InterruptedException interrupted) {
                Thread.interrupted();   // handled by ending the request, as FanoutCalls.interrupted says
                throw calls.interrupted(interrupted);
            }
            throw e;
        }
    }
}
