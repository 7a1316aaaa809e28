package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import lab.fanout.common.Slice;
import lab.fanout.main.client.Downstream;
import lab.fanout.main.client.Exchange;
import lab.fanout.main.client.FanoutCallMeters;
import lab.fanout.main.client.FanoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.ParameterizedTypeReference;

/**
 * One downstream call of the request: one slice of one downstream's catalogue. Unhedged it is one attempt
 * ({@link #fetch()}, {@link #mono()}); hedged, a strategy races a second attempt ({@link #fetchHedge},
 * {@link #monoHedge()}) against the first after {@link #hedgeDelay()}, keeps the first success and cancels the
 * other. The bookkeeping here tells winner from loser whatever the strategy: the first attempt to succeed wins;
 * an attempt that ends after the other has won is the loser, counted in the hedging meters and not as the call.
 *
 * @param <T> the catalogue's item type
 */
public final class FanoutCall<T> {

    private final FanoutCalls request;
    private final Downstream downstream;
    private final Slice slice;
    private final ParameterizedTypeReference<List<T>> type;
    private final AtomicReference<@Nullable Attempt> winner = new AtomicReference<>();

    FanoutCall(FanoutCalls request, Downstream downstream, Slice slice, ParameterizedTypeReference<List<T>> type) {
        this.request = request;
        this.downstream = downstream;
        this.slice = slice;
        this.type = type;
    }

    public Downstream downstream() {
        return downstream;
    }

    public Slice slice() {
        return slice;
    }

    /**
     * @return how long the first attempt may run before the second is sent; empty: do not hedge (hedging off,
     *         or {@code p95} while the downstream's recent latency is unknown)
     */
    public Optional<Duration> hedgeDelay() {
        return request.hedgeDelay(downstream);
    }

    /**
     * Makes the call on this thread, holding what the request's {@link Pinning} says while it blocks, after taking a
     * work buffer on it as the request's {@link Recycler} says.
     *
     * @return the slice's items, never null
     * @throws FanoutException as {@link lab.fanout.main.client.DownstreamClient#fetch}
     */
    public List<T> fetch() {
        return fetch(new Exchange());
    }

    /**
     * Makes the call's first attempt on this thread; {@code exchange.cancel()} from another thread ends it at once.
     *
     * @return the slice's items, never null
     * @throws FanoutException as {@link lab.fanout.main.client.DownstreamClient#fetch}; DOWNSTREAM_ERROR when cancelled
     */
    public List<T> fetch(Exchange exchange) {
        return attempt(new Attempt(false), exchange);
    }

    /** As {@link #fetch(Exchange)}, for the second attempt of a hedged call (counted as a hedge sent). */
    public List<T> fetchHedge(Exchange exchange) {
        return attempt(new Attempt(true), exchange);
    }

    /** @return the call as a cold Mono, on HttpClient's async client; its error is a FanoutException */
    public Mono<List<T>> mono() {
        return attemptAsync(false);
    }

    /** As {@link #mono()}, for the second attempt of a hedged call (counted as a hedge sent on subscription). */
    public Mono<List<T>> monoHedge() {
        return attemptAsync(true);
    }

    private List<T> attempt(Attempt attempt, Exchange exchange) {
        List<T> body;
        takeBuffer();
        try {
            // the attempt as the monitor: this call's own, and it escapes (winner), so the lock cannot be elided
            body = request.pinning().around(attempt, () -> request.client().fetch(downstream, slice, type,
                    request.simulationFor(downstream), request.deadline(), exchange));
        } catch (RuntimeException e) {
            attempt.failed();
            throw e;
        }
        attempt.succeeded();
        return body;
    }

    private Mono<List<T>> attemptAsync(boolean hedge) {
        return Mono.defer(() -> {
            takeBuffer();   // no thread per call here: the subscribing thread's (docs/strategies.md)
            Attempt attempt = new Attempt(hedge);
            // before the value or error travels on (doFinally would run after Mono.zip had emitted, and the last
            // call would be missing from Server-Timing), or when the call is cancelled
            return request.client().fetchAsync(downstream, slice, type, request.simulationFor(downstream),
                            request.deadline())
                    .doOnSuccess(body -> attempt.succeeded())
                    .doOnError(e -> attempt.failed())
                    .doOnCancel(attempt::failed);
        });
    }

    /** Takes, fills and gives back the call's work buffer on this thread, counted by whether it was allocated. */
    private void takeBuffer() {
        Recycler recycler = request.recycler();
        Recycler.Use use = recycler.use((byte) slice.index());
        if (use != Recycler.Use.NOTHING) {
            meters().bufferTaken(recycler.toString(), use == Recycler.Use.ALLOCATED);
        }
    }

    private FanoutCallMeters meters() {
        return request.client().meters();
    }

    @Override
    public String toString() {
        return downstream.timingName() + "[" + slice.index() + "/" + slice.count() + "]";
    }

    /** One attempt of the call: its start, and its end, recorded once. */
    private final class Attempt {

        private final boolean hedge;
        private final long start = System.nanoTime();
        private final AtomicBoolean over = new AtomicBoolean();

        Attempt(boolean hedge) {
            this.hedge = hedge;
            if (hedge) {
                meters().hedgeSent(request.strategy(), downstream);
            }
        }

        void succeeded() {
            if (!over.compareAndSet(false, true)) {
                return;
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            if (winner.compareAndSet(null, this)) {
                meters().recordLatency(downstream, took);
                if (hedge) {
                    meters().hedgeWon(request.strategy(), downstream);
                }
                request.ended(FanoutCall.this, start);
            } else {
                // a dead heat: it answered, but after the other
                meters().hedgeLost(request.strategy(), downstream, false, took);
            }
        }

        /** Failed, or cancelled (by the race it lost, a failed sibling or the deadline). */
        void failed() {
            if (!over.compareAndSet(false, true)) {
                return;
            }
            Attempt won = winner.get();
            if (won != null && won != this) {
                Duration ranFor = Duration.ofNanos(System.nanoTime() - start);
                meters().hedgeLost(request.strategy(), downstream, true, ranFor);
                meters().recordLatency(downstream, ranFor);   // a lower bound of its latency
            } else {
                request.ended(FanoutCall.this, start);
            }
        }
    }
}
