package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

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
 * <p>
 * A hedged call races two attempts on the same executor and cancels the loser's HTTP exchange
 * ({@link CompletableFutureHedge}). On the common pool with parallelism 1 (2 cores) the second attempt waits for the
 * pool's one worker, which the first holds: hedging cannot help there, by the same cause that makes the strategy
 * sequential.
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
        List<CompletableFuture<?>> futures = calls.all().stream()
                .<CompletableFuture<?>>map(call -> hedgedOrNot(call, firstFailure)).toList();
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture<?>[]::new))
                    .get(calls.deadline().remaining().toNanos(), TimeUnit.NANOSECONDS);
            return calls.fetched(futures.stream().map(CompletableFuture::resultNow).toList());
        } catch (ExecutionException e) {
            // allOf's cause is the first future's failure in argument order; the request reports the first in time
            throw FanoutException.from(firstFailure.get() != null ? firstFailure.get() : e.getCause());
        } catch (TimeoutException e) {
            futures.forEach(call -> call.cancel(true));
            throw calls.deadlineExceeded(e);
        } catch (InterruptedException e) {
            futures.forEach(call -> call.cancel(true));
            throw calls.interrupted(e);
        }
    }

    @Override
    public boolean hedges() {
        return true;
    }

    private <T> CompletableFuture<List<T>> hedgedOrNot(FanoutCall<T> call,
                                                      AtomicReference<RuntimeException> firstFailure) {
        Optional<Duration> delay = call.hedgeDelay();
        return delay.isPresent() ? new CompletableFutureHedge<>(call, delay.get(), executor, firstFailure).result()
                : supply(call::fetch, firstFailure);
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
