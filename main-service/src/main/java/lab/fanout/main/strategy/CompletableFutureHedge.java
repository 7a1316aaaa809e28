package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import lab.fanout.main.client.Exchange;
import org.jspecify.annotations.Nullable;

/**
 * A hedged call on a CompletableFuture strategy's executor: the first attempt at once, the second when a timer
 * ({@code completeOnTimeout}) fires and the first is still running, both on the executor; the first success completes
 * {@link #result()}, and the other attempt's HTTP exchange is cancelled ({@link Exchange#cancel()}):
 * CompletableFuture's own {@code cancel(true)} would not interrupt it, and an interrupt would not unblock a platform
 * thread in a socket read anyway. Not {@code CompletableFuture.anyOf}: it completes with the first attempt to <em>end</em>, so a copy
 * that failed fast would fail the call while the other could still answer.
 * <p>
 * A first attempt that fails before the second is sent fails the call at once, and the second is never sent (no
 * retry). Once both are out, the call fails when both have, with the first failure in time.
 *
 * @param <T> the catalogue's item type
 */
final class CompletableFutureHedge<T> {

    private final CompletableFuture<List<T>> result = new CompletableFuture<>();
    private final AtomicReference<RuntimeException> firstFailure;
    private final Exchange first = new Exchange();
    private final Exchange second = new Exchange();
    private final CompletableFuture<Void> timer = new CompletableFuture<>();
    // guarded by this
    private int running = 1;
    private boolean secondAllowed = true;
    private @Nullable RuntimeException failure;

    /**
     * Starts the race.
     *
     * @param firstFailure the request's first failure, set before the call's result fails (as every call of a
     *                     CompletableFuture strategy records it)
     */
    CompletableFutureHedge(FanoutCall<T> call, Duration delay, Executor executor,
                           AtomicReference<RuntimeException> firstFailure) {
        this.firstFailure = firstFailure;
        CompletableFuture.supplyAsync(() -> call.fetch(first), executor)
                .whenComplete((body, e) -> ended(body, e, second));
        // a cancelled timer (the call ended first) never runs the second
        timer.completeOnTimeout(null, delay.toNanos(), TimeUnit.NANOSECONDS).thenRunAsync(() -> {
            if (sendSecond()) {
                try {
                    ended(call.fetchHedge(second), null, first);
                } catch (RuntimeException e) {
                    ended(null, e, first);
                }
            }
        }, executor);
    }

    /** @return the call's answer: the first successful attempt's, or the first failure once no attempt can succeed */
    CompletableFuture<List<T>> result() {
        return result;
    }

    /** Ends the call at once: a second attempt not yet sent never will be, and both exchanges are cancelled. */
    void cancel() {
        synchronized (this) {
            secondAllowed = false;
        }
        timer.cancel(false);
        first.cancel();
        second.cancel();
    }

    private synchronized boolean sendSecond() {
        if (result.isDone() || !secondAllowed) {
            return false;
        }
        running++;
        return true;
    }

    private void ended(@Nullable List<T> body, @Nullable Throwable e, Exchange other) {
        if (e == null) {
            if (result.complete(body)) {
                timer.cancel(false);   // a second not yet sent never will be
                other.cancel();
            }
            return;
        }
        RuntimeException cause = unwrap(e);
        boolean failed;
        synchronized (this) {
            running--;
            if (failure == null) {
                failure = cause;
            }
            failed = running == 0;
            secondAllowed = false;   // a failure is not retried: a second not yet sent never will be
        }
        if (failed) {
            timer.cancel(false);
            firstFailure.compareAndSet(null, failure);
            result.completeExceptionally(failure);
        }
    }

    private static RuntimeException unwrap(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    }
}
