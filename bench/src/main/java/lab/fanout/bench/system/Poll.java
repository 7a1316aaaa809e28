package lab.fanout.bench.system;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The one poll-until loop: asks a condition at once, then every {@code interval} until it holds or {@code timeout} has
 * passed. A condition may throw to end the wait early (a process died); an interrupt ends it with an
 * {@link IllegalStateException}, the flag kept.
 */
public final class Poll {

    private Poll() {
    }

    /** @throws IllegalStateException "waited 15 s for {@code what}" when the condition never held in time */
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
