package lab.fanout.main.client;

import java.util.concurrent.atomic.AtomicReference;

import org.apache.hc.core5.concurrent.Cancellable;
import org.jspecify.annotations.Nullable;

/**
 * One blocking call's HTTP exchange, which another thread may cancel at any time: before the exchange exists (it is
 * then cancelled as it registers) or while it runs. Cancelling is HttpClient's immediate close of the exchange: its
 * pooled connection is closed and its lease released, and a thread blocked in the socket read, platform or virtual,
 * gets an exception at once (where an interrupt would not unblock a platform thread). The request's {@link Deadline}
 * cancels the exchanges still in flight when it runs out; a hedged call's loser is cancelled the same way.
 */
public final class Exchange {

    private static final Cancellable CANCELLED = () -> true;

    private final AtomicReference<@Nullable Cancellable> request = new AtomicReference<>();

    /** Called by the request factory ({@link Deadline#register}) when the call's request exists. */
    void set(Cancellable exchange) {
        if (request.getAndSet(exchange) == CANCELLED) {
            exchange.cancel();
        }
    }

    /** @return whether {@link #cancel()} was called */
    public boolean cancelled() {
        return request.get() == CANCELLED;
    }

    /** Closes the exchange's connection now, or as soon as it exists; later calls do nothing. */
    public void cancel() {
        Cancellable exchange = request.getAndSet(CANCELLED);
        if (exchange != null && exchange != CANCELLED) {
            exchange.cancel();
        }
    }
}
