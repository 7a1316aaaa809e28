package lab.fanout.main.strategy;

import java.time.Duration;

import lab.fanout.common.InvalidValueException;
import lab.fanout.common.Simulation;

/**
 * Whether, and after how long, a call still unanswered gets a second copy: a hedged request (Dean and Barroso, "The
 * Tail at Scale", CACM 2013). The first copy to succeed answers the call and the other is cancelled. Only a slow call
 * is hedged: a call that fails before its hedge is due fails the request as it would unhedged (no retry, which would
 * hide the fault under study); once both copies are out, the call fails only when both have.
 * <p>
 * The query parameter {@code hedgeAfterMs} takes a fixed delay in ms ({@link After}) or {@code p95}
 * ({@link RecentP95}): the downstream's recent 95th-percentile call latency, as Dean and Barroso suggest.
 */
public sealed interface Hedging {

    /** Never hedge: the default. */
    Hedging OFF = new Off();

    String P95 = "p95";

    /**
     * @param value {@code hedgeAfterMs}: 0..{@value Simulation#MAX_MS} or {@code p95}
     * @throws InvalidValueException naming what is valid
     */
    static Hedging parse(String value) {
        String given = value.strip();
        if (given.equalsIgnoreCase(P95)) {
            return new RecentP95();
        }
        try {
            int millis = Integer.parseInt(given);
            if (millis >= 0 && millis <= Simulation.MAX_MS) {
                return new After(Duration.ofMillis(millis));
            }
        } catch (NumberFormatException e) {
            // below: the same answer as out of range
        }
        throw new InvalidValueException("must be a whole number of milliseconds from 0 to " + Simulation.MAX_MS
                + ", or " + P95);
    }

    /** No hedging. */
    record Off() implements Hedging {
    }

    /** @param delay how long a call may run before its second copy is sent */
    record After(Duration delay) implements Hedging {
    }

    /**
     * The second copy goes out once the call has run for its downstream's recent 95th-percentile call latency
     * ({@link lab.fanout.main.client.FanoutCallMeters#recentP95}); no hedge while that is unknown.
     */
    record RecentP95() implements Hedging {
    }
}
