package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import lab.fanout.main.client.Exchange;
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
 * <p>
 * Thread ceiling: the thread-per-task executor starts a platform thread per call, and at the process's thread limit
 * the JVM refuses one ({@code OutOfMemoryError: unable to create native thread}, thrown by {@code supplyAsync}). The
 * calls already started are then cancelled and awaited, and the request answers 503 {@code thread-limit}; the other
 * strategies, and this one once threads are free again, go on serving.
 * <p>
 * Pool ceiling: the {@link BoundedPool} refuses a call when its threads are busy and its queue is full. The request's
 * calls handed to it before are then taken back out of its queue if they have not started, and cancelled and awaited
 * if they have, and the request answers 503 {@code bulkhead-full} naming the pool. A hedge's second copy that the pool
 * refuses is not sent, and the first copy goes on.
 * <p>
 * {@code onDeadline=partial}: each call's future gives null at the deadline ({@code completeOnTimeout}), as it does
 * when the deadline's alarm cuts the call; the calls still running then have their HTTP exchanges cancelled (their
 * connections closed), and a bounded pool's queued ones are taken back out of its queue. A call queued on the common
 * pool cannot be taken back: it runs later and ends at once, refusing to start past the deadline.
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

    /**
     * @throws FanoutException as every strategy; 503 {@code thread-limit} when the executor could not start a
     *                         platform thread for a call, after the calls already started were cancelled and ended;
     *                         503 {@code bulkhead-full} when the bounded pool refused a call, likewise
     */
    @Override
    public Fetched fetch(FanoutCalls calls) {
        AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
        CallContext context = CallContext.capture();
        List<Started> started = new ArrayList<>();
        for (FanoutCall<?> call : calls.all()) {
            try {
                started.add(start(call, context, firstFailure));
            } catch (OutOfMemoryError e) {
                FanoutException threadLimit = FanoutException.threadLimit(e, call.downstream());   // or rethrows e
                cancelAndAwait(started, calls);
                throw threadLimit;
            } catch (RejectedExecutionException e) {
                if (!(executor instanceof BoundedPool pool) || pool.isShutdown()) {
                    throw e;   // an executor that is stopping: not a full pool
                }
                FanoutException full = pool.full(call.downstream(), e);
                cancelAndAwait(started, calls);
                throw full;
            }
        }
        if (calls.onDeadline() == OnDeadline.PARTIAL) {
            return arrivedByDeadline(started, calls, firstFailure);
        }
        List<CompletableFuture<?>> futures = started.stream().<CompletableFuture<?>>map(Started::result).toList();
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

    /** {@code onDeadline=partial}: what came by the deadline; the calls still running then cancelled. */
    private static Fetched arrivedByDeadline(List<Started> started, FanoutCalls calls,
                                             AtomicReference<RuntimeException> firstFailure) {
        long remaining = calls.deadline().remaining().toNanos();
        List<CompletableFuture<?>> arrived = started.stream()
                .<CompletableFuture<?>>map(call -> nullAtDeadline(call.result(), remaining)).toList();
        try {
            CompletableFuture.allOf(arrived.toArray(CompletableFuture<?>[]::new)).get();
            return calls.arrivedByDeadline(arrived.stream().map(CompletableFuture::resultNow).toList());
        } catch (ExecutionException e) {
            RuntimeException first = firstFailure.get();
            throw FanoutException.from(first != null && !FanoutCalls.cutByDeadline(first) ? first : e.getCause());
        } catch (InterruptedException e) {
            throw calls.interrupted(e);
        } finally {
            for (Started call : started) {
                if (!call.result().isDone()) {
                    call.cancel().run();
                    if (call.withdraw().getAsBoolean()) {
                        call.result().cancel(false);   // out of the bounded pool's queue before it ran
                    }
                }
            }
        }
    }

    /** @return the call's result, or null if it is not back {@code nanos} from now or was cut by the deadline */
    private static <T> CompletableFuture<T> nullAtDeadline(CompletableFuture<T> call, long nanos) {
        return call.exceptionally(e -> {
            if (FanoutCalls.cutByDeadline(e)) {
                return null;
            }
            throw e instanceof CompletionException completion ? completion : new CompletionException(e);
        }).completeOnTimeout(null, nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean hedges() {
        return true;
    }

    /**
     * @param context the request's, captured on the request thread
     * @throws OutOfMemoryError           when the executor cannot start a thread for the call's first attempt
     * @throws RejectedExecutionException when the executor refuses it (a full bounded pool)
     */
    private <T> Started start(FanoutCall<T> call, CallContext context,
                              AtomicReference<RuntimeException> firstFailure) {
        BoundedPool.Tasks tasks = executor instanceof BoundedPool pool ? pool.tasks() : null;
        // every task of the call, a hedge's second copy too, runs with the request's trace and MDC (CallContext)
        Executor on = context.carriedBy(tasks != null ? tasks : executor);
        BooleanSupplier withdraw = tasks != null ? tasks::withdraw : () -> false;
        Optional<Duration> delay = call.hedgeDelay();
        if (delay.isPresent()) {
            CompletableFutureHedge<T> hedge = new CompletableFutureHedge<>(call, delay.get(), on, firstFailure);
            return new Started(hedge.result(), hedge::cancel, withdraw);
        }
        Exchange exchange = new Exchange();
        return new Started(supply(() -> call.fetch(exchange), on, firstFailure), exchange::cancel, withdraw);
    }

    /**
     * Cancels the calls' HTTP exchanges (their connections are closed and their leases released at once, see
     * {@link Exchange}), takes the calls that have not started out of a bounded pool's queue, and waits, at most until
     * the deadline, for the others to end, so that the request is answered with nothing of it left running or queued.
     */
    private static void cancelAndAwait(List<Started> started, FanoutCalls calls) {
        for (Started call : started) {
            call.cancel().run();
            if (call.withdraw().getAsBoolean()) {
                call.result().cancel(false);   // out of the queue before it ran: it would never complete by itself
            }
        }
        try {
            CompletableFuture.allOf(started.stream().map(Started::result).toArray(CompletableFuture<?>[]::new))
                    .get(calls.deadline().remaining().toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // failed, as cancelled calls do; or still running at the deadline, whose alarm cancels them too
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the call on the executor; its failure, if it is the request's first, recorded before it completes */
    private static <T> CompletableFuture<T> supply(Supplier<T> call, Executor executor,
                                                   AtomicReference<RuntimeException> firstFailure) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.get();
            } catch (RuntimeException e) {
                firstFailure.compareAndSet(null, e);
                throw e;
            }
        }, executor);
    }

    /**
     * A call handed to the executor.
     *
     * @param result   its answer
     * @param cancel   ends its HTTP exchanges (both of a hedged call) at once
     * @param withdraw takes its tasks out of a bounded pool's queue; true if none of them will run
     */
    private record Started(CompletableFuture<?> result, Runnable cancel, BooleanSupplier withdraw) {
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
