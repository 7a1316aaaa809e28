package lab.fanout.bench.overload;

import java.util.List;

import lab.fanout.bench.model.Strategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The overload preset's cells: what issue 37 asks of it, and a bound that makes its multiples the same rates. */
class OverloadCellTest {

    @Test
    void offAndTheDefaultModeRunEveryRateAndTheSpikeTheOtherModeTwoAndTenTimes() {
        List<OverloadCell> cells = OverloadCell.all(List.of("virtual", "platform"));
        for (String profile : List.of("virtual", "platform")) {
            for (Strategy s : OverloadCell.STRATEGIES) {
                for (String mode : List.of("off", "fixed")) {
                    assertThat(cells).filteredOn(c -> c.profile().equals(profile) && c.strategy() == s
                            && c.mode().equals(mode)).extracting(OverloadCell::shape)
                            .containsExactly("0.5x", "1x", "2x", "5x", "10x", "spike");
                }
                assertThat(cells).filteredOn(c -> c.profile().equals(profile) && c.strategy() == s
                        && c.mode().equals("adaptive")).extracting(OverloadCell::shape).containsExactly("2x", "10x");
                for (String mode : List.of("littles-law", "fixed-200")) {
                    assertThat(cells).filteredOn(c -> c.profile().equals(profile) && c.strategy() == s
                            && c.mode().equals(mode)).extracting(OverloadCell::shape)
                            .containsExactly("2x", "10x", "spike");
                }
            }
        }
        assertThat(cells).hasSize(2 * 4 * (6 + 6 + 2 + 3 + 3));
        assertThat(OverloadCell.all(List.of("platform"))).allMatch(c -> c.profile().equals("platform")).hasSize(80);
    }

    @Test
    void everyCellHasTheSameBoundSoThatItsMultiplesAreTheSameRates() {
        assertThat(OverloadCell.all(List.of("virtual", "platform"))).allSatisfy(c -> assertThat(c.bound())
                .isEqualTo(50.0));
        OverloadCell tenTimes = new OverloadCell("platform", "off", Strategy.REACTIVE, 10.0);
        assertThat(tenTimes.offeredPerSecond()).isEqualTo(500.0);
        assertThat(tenTimes.id()).isEqualTo("platform-off-reactive-10x");
        // the bounded pool's 300 threads bind it at the same 50 req/s as the connections bind the others
        assertThat(new OverloadCell("virtual", "off", Strategy.BOUNDED_POOL, 1.0).bound()).isEqualTo(50.0);
        OverloadCell half = new OverloadCell("virtual", "fixed", Strategy.THREAD_PER_TASK, 0.5);
        assertThat(half.shape()).isEqualTo("0.5x");
        assertThat(half.id()).isEqualTo("virtual-fixed-completableFutureWithThreadTaskExecutor-0_5x");
    }

    /** Only Tomcat's platform pool holds a request thread: netty's blocking strategies run on virtual threads. */
    @Test
    void onNettyTheConnectionsBindAsOnVirtualNotTomcatsThreads() {
        assertThat(OverloadCell.all(List.of("netty"))).hasSize(80).allSatisfy(c -> {
            assertThat(c.bound()).isEqualTo(50.0);
            assertThat(c.littlesLaw().ceilings()).doesNotContainKey("request threads");
        });
        assertThat(new OverloadCell("platform", "off", Strategy.THREAD_PER_TASK, 1.0).littlesLaw().ceilings())
                .containsEntry("request threads", 50.0);
    }

    /**
     * main-service's admission per mode: Little's law sizes the limit to what the downstream pool serves at once
     * (300 connections ÷ 3 calls = 100 in flight); fixed-200 is main-service's default; fixed and adaptive keep the
     * heap's ceiling the committed forks ran with.
     */
    @Test
    void eachModeStartsMainServiceWithItsOwnLimit() {
        assertThat(List.of("off", "fixed", "adaptive", "littles-law", "fixed-200"))
                .map(mode -> new OverloadCell("virtual", mode, Strategy.REACTIVE, 2.0))
                .extracting(OverloadCell::admissionMode, OverloadCell::maxInFlight)
                .containsExactly(tuple("off", 819), tuple("fixed", 819), tuple("adaptive", 819),
                        tuple("fixed", 100), tuple("fixed", 200));
    }

    @Test
    void theSpikeGoesFromHalfTheBoundToTenTimesAndBack() {
        OverloadCell spike = new OverloadCell("virtual", "fixed", Strategy.REACTIVE, null);
        assertThat(spike.phases()).extracting(OverloadCell.Phase::multiple).containsExactly(0.5, 10.0, 0.5);
        assertThat(spike.seconds()).isEqualTo(76);
        // (25 x 16 + 500 x 30 + 25 x 30) / 76 s
        assertThat(spike.offeredPerSecond()).isEqualTo(212.5);
    }

    @Test
    void theDryRunSaysEveryCellAndTheTimePerFork() {
        List<String> plan = OverloadPreset.plan(List.of("virtual", "platform"), 3);
        assertThat(plan).hasSize(160 + 1);
        assertThat(plan.getLast()).startsWith("160 cells x 3 forks, about ").contains("bound 50 req/s");
        assertThat(plan.getFirst()).contains("virtual admission=off virtual-thread executor 0.5x").contains("25 req/s");
    }
}
