package lab.fanout.main.strategy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import lab.fanout.main.client.FanoutException;

/**
 * {@code CompletableFuture.supplyAsync} per call on an {@link Executor}, then {@code allOf(...).get(remaining)}:
 * the code the seed demo used. Three strategies share it and differ only in the executor (see
 * {@link StrategyConfig}), which is the point of comparing them.
 * <p>
 * Siblings: {@code allOf} completes only when every call has, so one failed call waits for the slowest sibling
 * before the request fails; the failure reported is the first in time, as {@code scopeFork} reports it. When the deadline runs out, {@code cancel(true)} marks the futures cancelled but does
 * <em>not</em> interrupt the running calls (CompletableFuture ignores {@code mayInterruptIfRunning}): they go on,
 * holding a thread and a pooled connection, until they end or the deadline that bounds their timeouts.
 */
public class CompletableFutureStrategy implements FanoutStrategy, AutoCloseable {

    private final StrategyName name;
    private final Executor executor;

    CompletableFutureStrategy(StrategyName name, Executor executor) {
        this.name = name;
        this.executor = executor;
    }

    @Override
    public StrategyName name() {
        return name;
    }

    /** @return the executor the calls run on, for metrics */
    public Executor executor() {
        return executor;
    }

    @Override
    public Fetched fetch(FanoutCalls calls) {
        AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
        var orders = supply(calls::orders, firstFailure);
        var products = supply(calls::products, firstFailure);
        var accounts = supply(calls::accounts, firstFailure);
        try {
            CompletableFuture.allOf(orders, products, accounts)
                    .get(calls.deadline().remaining().toNanos(), TimeUnit.NANOSECONDS);
            return new Fetched(orders.resultNow(), products.resultNow(), accounts.resultNow());
        } catch (ExecutionException e) {
            // allOf's cause is the first future's failure in argument order; the request reports the first in time
            throw FanoutException.from(firstFailure.get() != null ? firstFailure.get() : e.getCause());
        } catch (TimeoutException e) {
            Stream.of(orders, products, accounts).forEach(call -> call.cancel(true));
            throw calls.deadlineExceeded(e);
        } catch (InterruptedException e) {
            Stream.of(orders, products, accounts).forEach(call -> call.cancel(true));
            throw calls.interrupted(e);
        }
    }

    /** @return the call on the executor; its failure, if it is the request's first, recorded before it completes */
    private <T> CompletableFuture<T> supply(Supplier<T> call, AtomicReference<RuntimeException> firstFailure) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.get();
            } catch (RuntimeException e) {
                firstFailure.compareAndSet(null, e);
                throw e;
            }
        }, executor);
    }

    /** Closes a thread-per-task executor when the application stops; waits for calls still running. */
    @Override
    public void close() {
        // the common pool cannot be closed (close() is a no-op there), so only our own executors are
        if (executor instanceof AutoCloseable closeable && !(executor instanceof ForkJoinPool)) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not close the executor of " + name, e);
            }
        }
    }
}
