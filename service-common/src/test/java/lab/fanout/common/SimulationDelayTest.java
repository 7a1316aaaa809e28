package lab.fanout.common;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The delay a downstream sleeps: latency plus uniform jitter in [0, jitter], the caller's knobs before the defaults. */
class SimulationDelayTest {

    private static final Duration DEFAULT_LATENCY = Duration.ofMillis(200);

    @Test
    void jitterStaysWithinItsBoundAndVaries() {
        Simulation simulation = new Simulation(50, 100, null, null, null, null, null, null, null);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            long ms = simulation.delay(DEFAULT_LATENCY, Duration.ZERO).toMillis();
            assertThat(ms).isBetween(50L, 150L);
            seen.add(ms);
        }
        assertThat(seen).as("uniform over 101 values: 2,000 draws hit both ends").contains(50L, 150L);
    }

    @Test
    void defaultsFillWhatTheCallerLeftOut() {
        Simulation none = new Simulation(null, null, null, null, null, null, null, null, null);
        assertThat(none.delay(DEFAULT_LATENCY, Duration.ZERO)).isEqualTo(DEFAULT_LATENCY);
        assertThat(none.delay(DEFAULT_LATENCY, Duration.ofMillis(10)).toMillis()).isBetween(200L, 210L);
    }
}
