package lab.fanout.main.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;

import lab.fanout.main.client.Exchange;
import lab.fanout.main.client.FanoutException;

import org.springframework.stereotype.Component;

/**
 * {@link StructuredTaskScope} (JDK 25 preview, JEP 505): each call (3 x width) forked on its own virtual thread,
 * joined with the request's remaining deadline as the scope's timeout.
 * <p>
 * Siblings: the first failed call cancels the scope, which interrupts the other calls; a virtual thread blocked
 * in a socket read is interruptible, so the call stops at once, its connection is closed, and the request fails
 * without waiting for the slowest sibling. A timeout cancels them the same way. When {@code fetch} returns or
 * throws, no call of the request is still running. A hedged call is a nested scope that races two attempts
 * ({@link #hedged}).
 * <p>
 * {@code onDeadline=partial}: a Joiner of its own that keeps the successes ({@link KeepArrived}); at the deadline the
 * scope's timeout interrupts the late calls as above, and the answer is what the joiner kept.
 */
@Component
class StructuredScopeStrategy implements FanoutStrategy {

    @Override
    public StrategyName name() {
        return StrategyName.SCOPE_FORK;
    }

    @Override
    public boolean hedges() {
        return true;
    }

    @Override
    public Fetched fetch(FanoutCalls calls) {
        if (calls.onDeadline() == OnDeadline.PARTIAL) {
            return arrivedByDeadline(calls);
        }
        try (var scope = StructuredTaskScope.open(Joiner.awaitAllSuccessfulOrThrow(),
                config -> config.withTimeout(calls.deadline().remaining()).withName("fanout"))) {
            // forked threads inherit the request's ScopedValues, not its ThreadLocals: the trace and MDC are set again
            CallContext context = CallContext.capture();
            List<Subtask<? extends List<?>>> subtasks = new ArrayList<>();
            for (FanoutCall<?> call : calls.all()) {
                subtasks.add(scope.fork(context.wrap(() -> hedged(call, context))));
            }
            scope.join();
            return calls.fetched(subtasks.stream().map(Subtask::get).toList());
        } catch (StructuredTaskScope.FailedException e) {
            throw FanoutException.from(e.getCause());
        } catch (StructuredTaskScope.TimeoutException e) {
            throw calls.deadlineExceeded(e);
        } catch (InterruptedException e) {
            throw calls.interrupted(e);   // the scope's close has cancelled the calls
        }
    }

    /** {@code onDeadline=partial}: the calls that answered by the deadline; the late ones interrupted by the timeout. */
    private static Fetched arrivedByDeadline(FanoutCalls calls) {
        KeepArrived arrived = new KeepArrived(calls.all().size());
        try (var scope = StructuredTaskScope.open(arrived,
                config -> config.withTimeout(calls.deadline().remaining()).withName("fanout"))) {
            CallContext context = CallContext.capture();
            for (FanoutCall<?> call : calls.all()) {
                scope.fork(context.wrap(() -> hedged(call, context)));
            }
            return calls.arrivedByDeadline(scope.join());
        } catch (StructuredTaskScope.FailedException e) {
            throw FanoutException.from(e.getCause());
        } catch (StructuredTaskScope.TimeoutException e) {
            // JDK 25: at the timeout join() throws and never asks the joiner for its result; the joiner kept each body
            // as it came, and the scope's close, before this catch, interrupted the late calls and waited for them.
            // JDK 26 (JEP 525, sixth preview) adds Joiner.onTimeout(), which join() calls when the timeout expires:
            // a joiner whose onTimeout() returns instead of throwing has join() return its result(), and this catch
            // goes: `@Override public void onTimeout() { }` in KeepArrived, `return calls.arrivedByDeadline(scope.join())`.
            return calls.arrivedByDeadline(arrived.arrived());
        } catch (InterruptedException e) {
            throw calls.interrupted(e);
        }
    }

    /**
     * The Joiner that keeps the successes, which JDK 25 has not built in: each call's body as it arrives, in fork
     * order. A call cut by the deadline (its alarm, or started after it) is missing, not a failure; any other failure
     * cancels the scope, as {@code awaitAllSuccessfulOrThrow} does, and {@code join()} throws it.
     */
    private static final class KeepArrived implements Joiner<List<?>, List<List<?>>> {

        private final Map<Subtask<?>, Integer> forkOrder = new ConcurrentHashMap<>();
        private final AtomicReferenceArray<List<?>> bodies;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        KeepArrived(int calls) {
            bodies = new AtomicReferenceArray<>(calls);
        }

        @Override
        public boolean onFork(Subtask<? extends List<?>> subtask) {
            forkOrder.put(subtask, forkOrder.size());   // forks come one by one, from the owner
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends List<?>> subtask) {
            if (subtask.state() == Subtask.State.SUCCESS) {
                bodies.set(forkOrder.get(subtask), subtask.get());
                return false;
            }
            return !FanoutCalls.cutByDeadline(subtask.exception()) && failure.compareAndSet(null, subtask.exception());
        }

        @Override
        public List<List<?>> result() throws Throwable {
            if (failure.get() != null) {
                throw failure.get();
            }
            return arrived();
        }

        /** @return each call's body in fork order, null for a call that had not answered */
        List<List<?>> arrived() {
            return IntStream.range(0, bodies.length()).<List<?>>mapToObj(bodies::get).toList();
        }
    }

    /**
     * A hedged call as a race in a scope of its own ({@code Joiner.anySuccessfulResultOrThrow()}): the first attempt,
     * and a second that waits out the delay and is sent only if the first is still running then. The first success
     * ends the race, and the scope interrupts the other attempt: its virtual thread, blocked in the socket read, closes
     * the connection at once. An interrupt from the outer scope (a sibling failed, the deadline) ends the race the
     * same way.
     */
    private static <T> List<T> hedged(FanoutCall<T> call, CallContext context) throws InterruptedException {
        Optional<Duration> delay = call.hedgeDelay();
        if (delay.isEmpty()) {
            return call.fetch();
        }
        CountDownLatch firstEnded = new CountDownLatch(1);
        AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
        try (var race = StructuredTaskScope.open(Joiner.<List<T>>anySuccessfulResultOrThrow(),
                config -> config.withName("fanout-hedge"))) {
            race.fork(context.wrap(() -> {
                try {
                    return call.fetch();
                } catch (RuntimeException e) {
                    firstFailure.set(e);
                    throw e;
                } finally {
                    firstEnded.countDown();
                }
            }));
            race.fork(context.wrap(() -> {
                if (firstEnded.await(delay.get().toNanos(), TimeUnit.NANOSECONDS)) {
                    throw new HedgeNotSent();   // the first attempt ended in time; a failure is not retried
                }
                return call.fetchHedge(new Exchange());
            }));
            return race.join();
        } catch (StructuredTaskScope.FailedException e) {
            // the first failure in completion order, unless that was the hedge not sent after the first had failed
            throw e.getCause() instanceof HedgeNotSent && firstFailure.get() != null ? firstFailure.get()
                    : FanoutException.from(e.getCause());
        }
    }

    /** The second attempt was not sent: the first had ended before its delay. */
    private static final class HedgeNotSent extends RuntimeException {

        HedgeNotSent() {
            super("not sent", null, false, false);
        }
    }
}
