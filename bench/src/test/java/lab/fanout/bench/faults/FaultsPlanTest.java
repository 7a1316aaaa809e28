package lab.fanout.bench.faults;

import java.util.List;

import lab.fanout.bench.model.Strategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./lab bench --preset faults --dry-run}: each scenario x strategy, its requests and time, then the total. */
class FaultsPlanTest {

    @Test
    void listsEveryScenarioAndStrategyWithTheSettleTimesAsTheEstimate() {
        List<String> plan = FaultsPreset.plan();
        int strategies = Strategy.values().length;

        assertThat(plan).hasSize(1 + FaultsPreset.SCENARIOS.size() * (1 + strategies) + 1);
        assertThat(plan.getFirst()).contains("4 scenarios x " + strategies + " strategies", "3 requests each");
        // first scenario: 3 requests x 1.8 s settle time
        assertThat(plan.get(2)).contains(Strategy.values()[0].toString(), "3 requests, ~5.4 s");
        // 3 x (1.8 + 1.8 + 5.8 + 5.8) s = 45.6 s per strategy
        long totalSeconds = 45_600L * strategies / 1000;
        assertThat(plan.getLast()).startsWith(4 * strategies * 3 + " requests, about " + totalSeconds / 60 + " min "
                + String.format("%02d", totalSeconds % 60) + " s");
    }
}
