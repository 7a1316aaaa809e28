package lab.fanout.main.client;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.hc.core5.concurrent.Cancellable;

import org.springframework.stereotype.Component;

/**
 * Cancels a downstream call's HTTP exchange when its request's deadline runs out, whatever the call is doing.
 * The per-call response timeout only bounds each wait for bytes: a downstream that dribbles its body, one chunk
 * inside every timeout, would otherwise keep the call (its thread and its pooled connection) busy past the
 * deadline: the sequential strategy's request would answer late, and a CompletableFuture strategy's abandoned call
 * would run on after the 504. Cancelling closes the connection at once (HttpClient's immediate close), which also
 * unblocks a platform thread in a socket read, where an interrupt would not.
 */
@Component
public class DeadlineWatchdog implements AutoCloseable {

    /** The exchange of the call running on this thread, registered by {@link WatchedRequestFactory}. */
    private static final ScopedValue<Exchange> CURRENT = ScopedValue.newInstance();

    private final ScheduledExecutorService timer;

    DeadlineWatchdog() {
        // a platform thread: a virtual one waits for a free carrier, so under CPU saturation, exactly when the
        // deadline matters, its alarms would ring late; cancelled alarms leave the queue at once
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("fanout-deadline-watchdog").factory());
        executor.setRemoveOnCancelPolicy(true);
        timer = executor;
    }

    /** @return what {@code call} returns; its HTTP exchange is cancelled if it still runs when {@code deadline} does */
    <T, X extends Throwable> T guard(Deadline deadline, ScopedValue.CallableOp<T, X> call) throws X {
        Exchange exchange = new Exchange();
        ScheduledFuture<?> alarm = timer.schedule(exchange::cancel, deadline.remaining().toNanos(), TimeUnit.NANOSECONDS);
        try {
            return ScopedValue.where(CURRENT, exchange).call(call);
        } finally {
            alarm.cancel(false);
        }
    }

    /** Called as each request is created on a guarded thread; does nothing elsewhere. */
    static void register(Cancellable request) {
        if (CURRENT.isBound()) {
            CURRENT.get().set(request);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** The call's exchange, which the alarm may cancel before it exists: then it is cancelled as it registers. */
    private static final class Exchange {

        private static final Cancellable CANCELLED = () -> true;

        private final AtomicReference<Cancellable> request = new AtomicReference<>();

        void set(Cancellable exchange) {
            if (request.getAndSet(exchange) == CANCELLED) {
                exchange.cancel();
            }
        }

        void cancel() {
            Cancellable exchange = request.getAndSet(CANCELLED);
            if (exchange != null && exchange != CANCELLED) {
                exchange.cancel();
            }
        }
    }
}
