package lab.fanout.common;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What main-service forwards to each downstream: latency to all, fault knobs to the targets only. */
class SimulationFaultsTest {

    private final Simulation knobs = new Simulation(100, 5, 0.5, 503, 0.1, 2000, 0.2, 300, List.of("orders"));

    @Test
    void targetGetsEveryKnobButTheTargetList() {
        assertThat(knobs.forTarget("orders").asQueryParameters()).containsExactly(
                Map.entry("latencyMs", 100), Map.entry("jitterMs", 5),
                Map.entry("errorRate", 0.5), Map.entry("errorStatus", 503),
                Map.entry("tailRate", 0.1), Map.entry("tailMs", 2000),
                Map.entry("closeRate", 0.2), Map.entry("dribbleMs", 300));
    }

    @Test
    void otherDownstreamsGetTheLatencyKnobsOnly() {
        assertThat(knobs.forTarget("products").asQueryParameters()).containsOnlyKeys("latencyMs", "jitterMs");
    }

    @Test
    void withoutTargetEveryDownstreamGetsTheFaults() {
        Simulation untargeted = new Simulation(null, null, 1.0, null, null, null, null, null, null);
        assertThat(untargeted.forTarget("accounts").asQueryParameters()).containsOnlyKeys("errorRate");
    }
}
