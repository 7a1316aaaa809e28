package lab.fanout.bench.run;

import java.time.Duration;
import java.util.TreeMap;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Strategy;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BenchRunnerTest {

    static Cell cell(Integer requests, Integer duration, Double rate) {
        return new Cell("b", Strategy.SCOPE_FORK, "virtual", null, null, 100, 200, rate, requests, duration, 3, 3, 20);
    }

    static DriverRun warmup(long answered, double seconds) {
        return new DriverRun(-1, answered, answered, new TreeMap<>(), seconds, new Histogram(3));
    }

    @Test
    void aDurationCellIsSizedFromTheWarmUpsRate() {
        // 450 answered/s in the warm-up, 4 s per repetition -> 1800 requests, a multiple of c=100
        assertThat(BenchRunner.requests(cell(null, 4, null), warmup(1350, 3))).isEqualTo(1800);
        // nothing answered: still one request per client
        assertThat(BenchRunner.requests(cell(null, 4, null), warmup(0, 3))).isEqualTo(100);
    }

    @Test
    void anOpenModelCellIsSizedFromItsRateAndACountCellKeepsItsCount() {
        assertThat(BenchRunner.requests(cell(null, 5, 300.0), warmup(10, 3))).isEqualTo(1500);
        assertThat(BenchRunner.requests(cell(1000, null, null), warmup(10, 3))).isEqualTo(1000);
    }

    @Test
    void warmUpEndsWhenTheJitHasSettled() {
        // the rate held while the JIT still compiled 4.4 s in a 4 s run (two compiler threads): not warm
        assertThat(Warmup.steady(warmup(250, 4), warmup(252, 4), 4400.0, 4000)).isFalse();
        assertThat(Warmup.steady(warmup(415, 4), warmup(425, 4), 87.0, 4000)).isTrue();
        assertThat(Warmup.steady(warmup(380, 4), warmup(425, 4), 250.0, 4000)).isFalse();   // 6 %, +12 %
    }

    @Test
    void aPlateauEndsTheWarmUpOnceTheJitIsDownToAFifth() {
        assertThat(Warmup.steady(warmup(415, 4), warmup(425, 4), 250.0, 4000)).isTrue();    // 6 %, rate +2.4 %
        assertThat(Warmup.steady(warmup(415, 4), warmup(425, 4), 850.0, 4000)).isFalse();   // 21 %
        assertThat(Warmup.steady(warmup(440, 4), warmup(425, 4), 400.0, 4000)).isFalse();   // 10 %, rate -3.4 %
    }

    @Test
    void withoutTheJitMetricWarmUpEndsWhenTheRateStopsClimbing() {
        assertThat(Warmup.steady(warmup(300, 3), warmup(360, 3), null, 3000)).isFalse();   // +20 %
        assertThat(Warmup.steady(warmup(300, 3), warmup(320, 3), null, 3000)).isTrue();
        assertThat(Warmup.steady(warmup(300, 3), warmup(200, 3), null, 3000)).isTrue();    // a dip is noise
    }

    @Test
    void estimateCountsWarmUpRepetitionsAndRestarts() {
        Cell c = cell(null, 4, null);
        double one = Eta.estimateSeconds(c);
        assertThat(one).isGreaterThan(3 + 3 * 4);
        assertThat(new Eta(java.util.List.of(c, c), LocalTarget::restarts).remaining())
                .isEqualTo(Duration.ofSeconds(Math.round(2 * one + Eta.RESTART_SECONDS)));
        assertThat(Eta.format(Duration.ofSeconds(3725))).isEqualTo("1:02:05");
        assertThat(Eta.format(Duration.ofSeconds(65))).isEqualTo("1:05");
    }

    @Test
    void cellsWithARateRunOnTheOpenModelsDriverTheOthersOnTheClosedLoops() {
        var hey = new lab.fanout.bench.driver.HeyDriver();
        var vegeta = new lab.fanout.bench.driver.VegetaDriver(java.util.Optional.of(java.nio.file.Path.of("vegeta")));
        BenchRunner runner = new BenchRunner(null, hey, vegeta, java.nio.file.Path.of("raw"), System.out, r -> { });
        assertThat(runner.driverFor(cell(1000, null, null))).isSameAs(hey);
        assertThat(runner.driverFor(cell(null, 5, 200.0))).isSameAs(vegeta);
        // without an open-model driver a rate falls back to the closed loop's, hey -q
        BenchRunner heyOnly = new BenchRunner(null, hey, null, java.nio.file.Path.of("raw"), System.out, r -> { });
        assertThat(heyOnly.driverFor(cell(null, 5, 200.0))).isSameAs(hey);
    }
}
