package lab.fanout.bench.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import lab.fanout.bench.driver.LoadDriver;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Repetition;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchRunnerTest {

    static Cell cell(Integer requests, Integer duration, Double rate) {
        return Cell.custom().ratePerSecond(rate).requests(requests).durationSeconds(duration).warmupSeconds(3).build();
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
        BenchRunner runner = new BenchRunner(null, hey, vegeta, java.nio.file.Path.of("raw"), System.out, r -> { },
                1);
        assertThat(runner.driverFor(cell(1000, null, null))).isSameAs(hey);
        assertThat(runner.driverFor(cell(null, 5, 200.0))).isSameAs(vegeta);
        // without an open-model driver a rate falls back to the closed loop's, hey -q
        BenchRunner heyOnly = new BenchRunner(null, hey, null, java.nio.file.Path.of("raw"), System.out, r -> { },
                1);
        assertThat(heyOnly.driverFor(cell(null, 5, 200.0))).isSameAs(hey);
    }

    @Test
    void forksRunTheCellsInRoundsEachAfterAFreshStartAndKeepEveryForksRepetitions(@TempDir Path raw)
            throws InterruptedException {
        List<String> events = new ArrayList<>();
        Target target = FakeRuns.target(events, cell -> false);
        LoadDriver steady = FakeRuns.steadyDriver();
        List<CellResult> appended = new ArrayList<>();
        Cell ten = Cell.custom().concurrency(10).requests(400).warmupSeconds(1).repetitions(2).build();
        Cell twenty = Cell.custom().concurrency(20).requests(400).warmupSeconds(1).repetitions(2).build();
        List<CellResult> results = new BenchRunner(target, steady, null, raw, System.out, appended::add, 3)
                .run(List.of(ten, twenty));

        assertThat(events).containsExactly("prepare 10", "prepare 20", "restart", "prepare 10", "prepare 20",
                "restart", "prepare 10", "prepare 20");
        assertThat(appended).hasSize(6).allMatch(r -> r.forks() == 1 && r.repetitions().size() == 2);
        assertThat(results).hasSize(2);
        assertThat(results.getFirst().cell()).isEqualTo(ten);
        assertThat(results.getFirst().forks()).isEqualTo(3);
        assertThat(results.getFirst().repetitions()).extracting(Repetition::fork).containsExactly(1, 1, 2, 2, 3, 3);
        assertThat(results.getFirst().samples(r -> r.run().throughput())).hasSize(3);
        assertThat(results.getFirst().warmupSettled()).isTrue();
    }

    /** A second sitting of the same cells: its forks numbered after the first's, a restart between its rounds. */
    @Test
    void aRunAfterEarlierForksNumbersItsForksAfterThem(@TempDir Path raw) throws InterruptedException {
        List<String> events = new ArrayList<>();
        Cell ten = Cell.custom().concurrency(10).requests(400).warmupSeconds(1).repetitions(2).build();
        List<CellResult> results = new BenchRunner(FakeRuns.target(events, cell -> false), FakeRuns.steadyDriver(),
                null, raw, System.out, r -> { }, 2, 3).run(List.of(ten));

        assertThat(events).containsExactly("prepare 10", "restart", "prepare 10");
        assertThat(results.getFirst().repetitions()).extracting(Repetition::fork).containsExactly(4, 4, 5, 5);
    }

    /** A Ctrl-C that stops a service while it starts ends the run as a cancel; an error keeps the cells before it. */
    @Test
    void aFailedStartKeepsTheCellsFinishedBeforeAndACancelIsNotAFailure(@TempDir Path raw) throws InterruptedException {
        Cell ten = Cell.custom().concurrency(10).requests(400).warmupSeconds(1).repetitions(2).build();
        Cell twenty = Cell.custom().concurrency(20).requests(400).warmupSeconds(1).repetitions(2).build();
        BenchRunner failing = new BenchRunner(FakeRuns.target(new ArrayList<>(), cell -> cell.concurrency() == 20),
                FakeRuns.steadyDriver(), null, raw, System.out, r -> { }, 1);
        assertThatThrownBy(() -> failing.run(List.of(ten, twenty))).hasMessageContaining("stopped while");
        assertThat(failing.finished()).extracting(CellResult::cell).containsExactly(ten);

        BenchRunner[] cancelled = new BenchRunner[1];
        cancelled[0] = new BenchRunner(FakeRuns.target(new ArrayList<>(), cell -> {
            if (cell.concurrency() == 20) {
                cancelled[0].cancel();   // the shutdown hook, as main-service's start is cut short
            }
            return cell.concurrency() == 20;
        }), FakeRuns.steadyDriver(), null, raw, System.out, r -> { }, 1);
        assertThat(cancelled[0].run(List.of(ten, twenty))).extracting(CellResult::cell).containsExactly(ten);
    }
}
