package lab.fanout.bench.matrix;

import java.util.List;

import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.run.Eta;
import lab.fanout.bench.run.LocalTarget;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The openclosed preset: one strategy and one set of knobs, the open model at 50 % .. 120 % of the bound beside the
 * closed loop at the matching concurrency c = rate × ideal latency (Little's law).
 */
class OpenClosedPresetTest {

    final List<Cell> cells = MatrixFile.preset("openclosed").cells();

    @Test
    void oneStrategyAndOneSetOfKnobs() {
        assertThat(cells).hasSize(12);
        assertThat(cells.stream()
                .map(c -> List.of(c.strategy(), c.profile(), c.tomcatThreads(), c.poolSize(), c.latencyMs()))
                .distinct()).hasSize(1);
    }

    @Test
    void offeredRatesRunFromHalfTheBoundToAFifthOverIt() {
        Cell any = cells.getFirst();
        // the bound of the knobs alone (no clients, no rate): here Tomcat's request threads, 40 ÷ 0.2 s
        Bound bound = Bound.littlesLaw().strategy(any.strategy()).virtualProfile(false).clients(Integer.MAX_VALUE)
                .tomcatThreads(any.tomcatThreads()).pool(any.poolSize()).latencyMs(any.latencyMs()).build();
        assertThat(bound.limit()).isEqualTo("request threads");
        List<Double> rates = cells.stream().filter(c -> c.ratePerSecond() != null).map(Cell::ratePerSecond).toList();
        assertThat(rates).hasSize(6).isSorted();
        assertThat(rates.getFirst()).isEqualTo(0.5 * bound.requestsPerSecond());
        assertThat(rates.getLast()).isEqualTo(1.2 * bound.requestsPerSecond());
    }

    @Test
    void theClosedLoopRunsAtTheMatchingConcurrency() {
        List<Integer> closed = cells.stream().filter(c -> c.ratePerSecond() == null).map(Cell::concurrency).toList();
        List<Integer> matching = cells.stream().filter(c -> c.ratePerSecond() != null)
                .map(c -> (int) Math.round(c.ratePerSecond() * c.latencyMs() / 1000.0)).toList();
        assertThat(closed).isEqualTo(matching);
    }

    @Test
    void fitsAboutAQuarterOfAnHourOn2Cores() {
        // the harness's own estimate (bounds, warm-ups, one service start), not a measurement
        assertThat(new Eta(cells, LocalTarget::restarts).remaining().toMinutes()).isBetween(5L, 15L);
    }
}
