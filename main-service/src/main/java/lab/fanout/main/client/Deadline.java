package lab.fanout.main.client;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.hc.core5.concurrent.Cancellable;
import org.jspecify.annotations.Nullable;

/**
 * One fan-out request's deadline and all that enforces it: the instant (on the monotonic clock,
 * {@link System#nanoTime()}), the alarm that cuts the HTTP exchanges still in flight when it comes, and the 504.
 * <p>
 * Every downstream call waits at most {@link #remaining()} for a pooled connection and for each read (HttpClientConfig
 * caps both timeouts), so the deadline holds for every strategy, sequential included. A timeout bounds only one wait:
 * a downstream that dribbles its body, a chunk inside every timeout, would keep the call (its thread and its pooled
 * connection) past the deadline. So the alarm cancels each exchange still in flight (HttpClient's immediate close,
 * which also unblocks a platform thread in a socket read, where an interrupt would not).
 * <p>
 * One alarm per request, armed by its first call and disarmed once the request is {@link #answered()} and no call is
 * in flight (calls a CompletableFuture strategy abandoned keep it armed). Alarms ring on one platform timer thread:
 * a virtual one would wait for a free carrier, so under CPU saturation, exactly when the deadline matters, it would
 * ring late.
 */
public final class Deadline {

    /** The call running on this thread: its request's deadline and its exchange. Bound by {@link #guard}. */
    private static final ScopedValue<Call> CURRENT = ScopedValue.newInstance();
    private static final ScheduledThreadPoolExecutor ALARMS = alarms();

    private final long nanoTime;
    private final Duration budget;
    // guarded by this
    private final Set<Exchange> inFlight = new HashSet<>();
    private @Nullable ScheduledFuture<?> alarm;
    private boolean rung;
    private boolean answered;

    private Deadline(long nanoTime, Duration budget) {
        this.nanoTime = nanoTime;
        this.budget = budget;
    }

    /** @return a deadline {@code budget} from now */
    public static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos(), budget);
    }

    /** @return the whole budget the request was given */
    public Duration budget() {
        return budget;
    }

    /** @return the instant, on {@link System#nanoTime()}'s clock */
    public long nanoTime() {
        return nanoTime;
    }

    /** @return the time left, never negative */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, nanoTime - System.nanoTime()));
    }

    public boolean expired() {
        return nanoTime - System.nanoTime() <= 0;
    }

    /**
     * @param waiting the calls still unanswered, the first named as the problem's {@code downstream}; may be empty
     * @return the request's 504 {@code deadline-exceeded}
     */
    public FanoutException exceeded(List<Downstream> waiting, @Nullable Throwable cause) {
        String names = waiting.stream().map(Downstream::serviceName).collect(Collectors.joining(", "));
        return new FanoutException(FanoutException.Kind.DEADLINE_EXCEEDED, waiting.isEmpty() ? null : waiting.getFirst(),
                "The request's deadline of " + budget.toMillis() + " ms ran out"
                        + (waiting.isEmpty() ? "" : " while waiting for " + names), cause);
    }

    /** The request has its answer: the alarm is disarmed as soon as no call is in flight. */
    public synchronized void answered() {
        answered = true;
        disarmIfIdle();
    }

    /**
     * @param exchange the call's exchange, which others may cancel too (a hedged call's loser)
     * @return what {@code call} returns; its HTTP exchange is cancelled if it still runs when the deadline comes, and
     * its timeouts read this deadline ({@link #remainingOnThisThread})
     */
    <T, X extends Throwable> T guard(Exchange exchange, ScopedValue.CallableOp<T, X> call) throws X {
        enter(exchange);
        try {
            return ScopedValue.where(CURRENT, new Call(this, exchange)).call(call);
        } finally {
            exit(exchange);
        }
    }

    /**
     * The time left to the deadline of the call on this thread. The request-factory API has no per-request hook, so
     * the deadline travels with the thread, and the HTTP client's context factory reads it for each call.
     *
     * @return that, or {@code otherwise} outside a guarded call
     */
    public static Duration remainingOnThisThread(Duration otherwise) {
        return CURRENT.isBound() ? CURRENT.get().deadline().remaining() : otherwise;
    }

    /** HttpClient's request, as it is created on a guarded thread ({@link WatchedRequestFactory}); nothing elsewhere. */
    static void register(Cancellable request) {
        if (CURRENT.isBound()) {
            CURRENT.get().exchange().set(request);
        }
    }

    /** @return whether this request's alarm is set (for tests: one per request, disarmed when answered and idle) */
    synchronized boolean armed() {
        return alarm != null;
    }

    private synchronized void enter(Exchange exchange) {
        if (rung) {
            exchange.cancel();   // a call that starts after the alarm: its request is cancelled as it registers
            return;
        }
        inFlight.add(exchange);
        if (alarm == null) {
            alarm = ALARMS.schedule(this::ring, nanoTime - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
    }

    private synchronized void exit(Exchange exchange) {
        inFlight.remove(exchange);
        disarmIfIdle();
    }

    private void disarmIfIdle() {
        if (answered && inFlight.isEmpty() && alarm != null) {
            alarm.cancel(false);
            alarm = null;
        }
    }

    private void ring() {
        List<Exchange> cut;
        synchronized (this) {
            rung = true;
            alarm = null;
            cut = List.copyOf(inFlight);
        }
        cut.forEach(Exchange::cancel);   // outside the lock: closing sockets
    }

    private static ScheduledThreadPoolExecutor alarms() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("fanout-deadline-alarm").factory());
        executor.setRemoveOnCancelPolicy(true);   // a disarmed alarm leaves the queue at once
        return executor;
    }

    private record Call(Deadline deadline, Exchange exchange) {
    }
}
