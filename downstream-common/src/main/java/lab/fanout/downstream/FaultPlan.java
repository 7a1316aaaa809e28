package lab.fanout.downstream;

import java.time.Duration;
import java.util.random.RandomGenerator;

import lab.fanout.common.Simulation;
import org.jspecify.annotations.Nullable;

/**
 * What one downstream request will do, drawn once when it arrives: the caller's knobs ({@link Simulation}) where
 * given, the configured {@code downstream.*} defaults elsewhere. A magnitude the caller gives without its
 * probability ({@code errorStatus}, {@code tailMs}) applies to every request.
 *
 * @param delay       how long the simulated I/O takes: latency, jitter and, if drawn, the long tail
 * @param close       close the connection after the delay without a response
 * @param errorStatus answer this status (problem+json) after the delay, or null to answer the catalogue
 * @param dribble     time over which the body is spread after the delay; zero sends it at once
 */
record FaultPlan(Duration delay, boolean close, @Nullable Integer errorStatus, Duration dribble) {

    static FaultPlan draw(Simulation knobs, DownstreamProperties properties, RandomGenerator random) {
        DownstreamProperties.Faults faults = properties.faults();
        boolean close = happens(knobs.closeRate() != null ? knobs.closeRate() : faults.closeRate(), random);
        boolean error = !close && happens(rate(knobs.errorRate(), knobs.errorStatus(), faults.errorRate()), random);
        Integer status = knobs.errorStatus() != null ? knobs.errorStatus() : faults.errorStatus();
        // a failure skips the normal latency (it fails fast) but not the tail, so that tailMs can make it slow
        Duration delay = close || error ? Duration.ZERO : knobs.delay(properties.latency(), properties.jitter());
        if (happens(rate(knobs.tailRate(), knobs.tailMs(), faults.tailRate()), random)) {
            delay = delay.plus(knobs.tailMs() != null ? Duration.ofMillis(knobs.tailMs()) : faults.tail());
        }
        Duration dribble = knobs.dribbleMs() != null ? Duration.ofMillis(knobs.dribbleMs()) : faults.dribble();
        return new FaultPlan(delay, close, error ? status : null, dribble);
    }

    /** The caller's probability if given; else 1 if the caller gave the fault's magnitude; else the configured one. */
    private static double rate(@Nullable Double given, @Nullable Integer magnitude, double configured) {
        return given != null ? given : magnitude != null ? 1 : configured;
    }

    /** Rate 0 never happens and rate 1 always does: nextDouble() is in [0, 1). */
    private static boolean happens(double rate, RandomGenerator random) {
        return random.nextDouble() < rate;
    }
}
