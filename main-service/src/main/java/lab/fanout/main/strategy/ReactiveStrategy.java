package lab.fanout.main.strategy;

import lab.fanout.main.client.FanoutException;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

/**
 * The three calls as {@code WebClient} requests on Apache HttpClient 5's async client, joined with {@code Mono.zip},
 * the request's remaining deadline as {@code Mono.timeout}. No thread waits for a call: the calls' I/O runs on
 * HttpClient's I/O reactor threads (one per core), and the controller releases the request thread while they run
 * ({@link AsyncFanoutStrategy}).
 * <p>
 * Siblings: on the first failure {@code Mono.zip} cancels the other calls, which aborts their HTTP exchanges and
 * closes their connections, so the request fails at once, as {@code scopeFork} does. At the deadline
 * {@code Mono.timeout} cancels every call still running the same way, a body still arriving included. When the Mono
 * ends, no call of the request is running.
 */
@Component
class ReactiveStrategy implements AsyncFanoutStrategy {

    @Override
    public StrategyName name() {
        return StrategyName.REACTIVE;
    }

    @Override
    public Mono<Fetched> fetchAsync(FanoutCalls calls) {
        // deferred: the time left is read when the request subscribes, not when the Mono is built
        return Mono.defer(() -> Mono.zip(calls.ordersAsync(), calls.productsAsync(), calls.accountsAsync())
                .map(all -> new Fetched(all.getT1(), all.getT2(), all.getT3()))
                .timeout(calls.deadline().remaining(), Mono.error(() -> calls.deadlineExceeded(null))));
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
