package lab.fanout.main.strategy;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;

/**
 * The request's thread-bound context, captured once on the request thread and set again around every call a strategy
 * runs on another thread: the current observation (so each call's client span is a child of the request's, and its
 * {@code traceparent} carries the request's trace id), with Micrometer Tracing's MDC {@code traceId} and
 * {@code spanId}, and every MDC key registered with context-propagation ({@code client.RequestContext}).
 * <p>
 * Captured once per request, not per task: a hedge's second copy is handed to the executor from a timer thread
 * ({@link CompletableFutureHedge}), where a capture at submission (what {@code ContextExecutorService.wrap} does)
 * would find nothing. A plain {@code ThreadLocal} is not carried, nor a {@code ScopedValue}: only what
 * context-propagation has an accessor for.
 */
final class CallContext {

    private static final ContextSnapshotFactory SNAPSHOTS = ContextSnapshotFactory.builder().build();

    private final ContextSnapshot snapshot;

    private CallContext(ContextSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    /** @return this thread's context now: call on the request thread, before any call is handed over */
    static CallContext capture() {
        return new CallContext(SNAPSHOTS.captureAll());
    }

    /** @return an executor that runs each task with the captured context set, and this thread's own restored after */
    Executor carriedBy(Executor executor) {
        return snapshot.wrapExecutor(executor);
    }

    /** @return {@code task}, run with the captured context set */
    <T> Callable<T> wrap(Callable<T> task) {
        return snapshot.wrap(task);
    }
}
