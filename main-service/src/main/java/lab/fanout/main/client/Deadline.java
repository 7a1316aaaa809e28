package lab.fanout.main.client;

import java.time.Duration;

/**
 * The instant by which one fan-out request must be answered, on the monotonic clock ({@link System#nanoTime()}).
 * Every downstream call of the request waits at most {@link #remaining()}, for a pooled connection and for the
 * response alike, so the deadline holds for every strategy, sequential included.
 */
public record Deadline(long nanoTime, Duration budget) {

    /**
     * The deadline of the downstream call running on this thread. The request-factory API has no per-request hook,
     * so the deadline travels with the thread, and the HTTP client's context factory reads it for each call.
     */
    private static final ScopedValue<Deadline> CURRENT = ScopedValue.newInstance();

    /** @return a deadline {@code budget} from now */
    public static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos(), budget);
    }

    /** @return the time left, never negative */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, nanoTime - System.nanoTime()));
    }

    /** @return what {@code call} returns, with this deadline bound to the thread for {@link #remainingOnThisThread} */
    <T, X extends Throwable> T bind(ScopedValue.CallableOp<T, X> call) throws X {
        return ScopedValue.where(CURRENT, this).call(call);
    }

    /** @return the time left to the deadline bound by {@link #bind}, or {@code otherwise} where none is bound */
    public static Duration remainingOnThisThread(Duration otherwise) {
        return CURRENT.isBound() ? CURRENT.get().remaining() : otherwise;
    }

    public boolean expired() {
        return nanoTime - System.nanoTime() <= 0;
    }
}
