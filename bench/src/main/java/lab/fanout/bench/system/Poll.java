package lab.fanout.bench.system;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The one poll-until loop of the bench: asks a condition, then every {@code interval} until it holds or
 * {@code timeout} has passed (both {@link Duration}s; the condition is asked once more than the sleeps, first at
 * once). A condition may throw to end the wait early (a process died). Interruption ends the wait with an
 * {@link IllegalStateException}, the interrupt flag kept.
 */
public final class Poll {

    private Poll() {
    }

    /**
     * @param what what is awaited, for the error: e.g. {@code "prometheus's /-/ready"}
     * @throws IllegalStateException "waited 15 s for {@code what}" when the condition never held in time
     */
    public static void until(String what, Duration timeout, Duration interval, BooleanSupplier done) {
        if (!reached(timeout, interval, done)) {
            String waited = timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
            throw new IllegalStateException("waited " + waited + " for " + what);
        }
    }

    /** @return whether the condition held within {@code timeout}; the caller says what a miss means */
    public static boolean reached(Duration timeout, Duration interval, BooleanSupplier done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            sleep(interval);
        }
        return true;
    }

    /** {@link Thread#sleep(Duration)} whose interruption is unchecked (the flag kept); nothing to do for d ≤ 0. */
    public static void sleep(Duration d) {
        if (d.isNegative() || d.isZero()) {
            return;
        }
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
