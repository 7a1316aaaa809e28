package lab.fanout.downstream;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import lab.fanout.common.Simulation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a request's knobs and the configured {@code downstream.faults.*} combine into what the request does. */
class FaultPlanFaultsTest {

    private static final DownstreamProperties.Faults CONFIGURED = new DownstreamProperties.Faults(
            1, 503, 1, Duration.ofMillis(700), 0, Duration.ofMillis(900));

    private final Random random = new Random(42);

    @Test
    void configuredFaultsApplyWhenTheRequestGivesNone() {
        FaultPlan plan = FaultPlan.draw(Simulation.NONE, properties(CONFIGURED), random);
        assertThat(plan.errorStatus()).isEqualTo(503);
        assertThat(plan.delay()).isEqualTo(Duration.ofMillis(700));   // fails fast: the tail only, no latency
        assertThat(plan.dribble()).isEqualTo(Duration.ofMillis(900));
    }

    @Test
    void eachKnobTheRequestGivesOverridesItsConfiguredValue() {
        Simulation knobs = new Simulation(10, 0, 0.0, null, 0.0, null, null, 0, null);
        FaultPlan plan = FaultPlan.draw(knobs, properties(CONFIGURED), random);
        assertThat(plan.errorStatus()).isNull();
        assertThat(plan.delay()).isEqualTo(Duration.ofMillis(10));
        assertThat(plan.dribble()).isZero();
    }

    @Test
    void aMagnitudeWithoutItsRateAppliesToEveryRequest() {
        Simulation knobs = new Simulation(0, 0, null, 418, null, 250, null, null, null);
        for (int i = 0; i < 100; i++) {
            FaultPlan plan = FaultPlan.draw(knobs, properties(DownstreamProperties.Faults.NONE), random);
            assertThat(plan.errorStatus()).isEqualTo(418);
            assertThat(plan.delay()).isEqualTo(Duration.ofMillis(250));
        }
    }

    @Test
    void aSuccessfulRequestWaitsLatencyPlusTail() {
        Simulation knobs = new Simulation(100, 0, null, null, 1.0, 50, null, null, null);
        FaultPlan plan = FaultPlan.draw(knobs, properties(DownstreamProperties.Faults.NONE), random);
        assertThat(plan.close()).isFalse();
        assertThat(plan.errorStatus()).isNull();
        assertThat(plan.delay()).isEqualTo(Duration.ofMillis(150));
    }

    @Test
    void ratesAreProbabilities() {
        Simulation knobs = new Simulation(0, 0, 0.3, 500, null, null, 0.2, null, null);
        List<FaultPlan> plans = random.ints(10_000).mapToObj(i ->
                FaultPlan.draw(knobs, properties(DownstreamProperties.Faults.NONE), random)).toList();
        long closed = plans.stream().filter(FaultPlan::close).count();
        long failed = plans.stream().filter(p -> p.errorStatus() != null).count();
        // a closed connection is not also an error: errors are drawn from the remaining 80%, 0.8 x 0.3 = 24%
        assertThat(closed).isBetween(1800L, 2200L);
        assertThat(failed).isBetween(2150L, 2650L);
    }

    private static DownstreamProperties properties(DownstreamProperties.Faults faults) {
        return new DownstreamProperties("/x", Duration.ofMillis(200), Duration.ZERO, faults);
    }
}
