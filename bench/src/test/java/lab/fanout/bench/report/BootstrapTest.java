package lab.fanout.bench.report;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import lab.fanout.bench.model.TestCells;
import lab.fanout.bench.model.TestCells.Rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Bootstrap} on synthetic forks (each a list of its repetitions' req/s) with known answers. */
class BootstrapTest {

    @TempDir
    Path dir;

    @Test
    void aClearTwentyPercentLeadOnTightForksIsDecided() {
        Bootstrap.Ratio r = Bootstrap.DEFAULT.ratio(forks(100, 101, 99, 100.5, 99.5),
                forks(120, 121, 119, 120.5, 119.5));

        assertThat(r.word()).isEqualTo("decided");
        assertThat(r.ratio()).isBetween(1.19, 1.21);
        assertThat(r.low()).isGreaterThan(1.03);
    }

    @Test
    void identicalDistributionsAreEquivalent() {
        Bootstrap.Ratio r = Bootstrap.DEFAULT.ratio(forks(100, 101, 99, 100.5, 99.5), forks(99.5, 100, 101, 99, 100.5));

        assertThat(r.word()).isEqualTo("~");
        assertThat(r.low()).isGreaterThanOrEqualTo(0.97);
        assertThat(r.high()).isLessThanOrEqualTo(1.03);
    }

    @Test
    void oneForkWildlyOffAmongFewIsUnclear() {
        Bootstrap.Ratio r = Bootstrap.DEFAULT.ratio(forks(100, 101, 99), forks(100, 101, 160));

        assertThat(r.word()).isEqualTo("unclear");
        assertThat(r.low()).isLessThan(1.03);
        assertThat(r.high()).isGreaterThan(1.03);
    }

    @Test
    void theSameForksGiveTheSameIntervalOnEveryRun() {
        List<List<Double>> a = forks(100, 104, 97, 102, 99);
        List<List<Double>> b = forks(103, 108, 96, 105, 101);

        assertThat(Bootstrap.DEFAULT.ratio(a, b)).isEqualTo(Bootstrap.DEFAULT.ratio(a, b));
        assertThat(new Bootstrap(1_000, 3).ratio(a, b).low()).isNotEqualTo(Bootstrap.DEFAULT.ratio(a, b).low());
    }

    @Test
    void badSettingsNameTheValidRange() {
        assertThatThrownBy(() -> new Bootstrap(10, 3)).hasMessageContaining("at least 1000 resamples");
        assertThatThrownBy(() -> new Bootstrap(10_000, 0)).hasMessageContaining("above 0 and below 100 %");
    }

    @Test
    void compareShowsTheRatioAndItsWordBesideP() {
        TestCells a = TestCells.cell("scopeFork", "virtual");
        TestCells b = TestCells.cell("scopeFork", "virtual");
        for (int fork = 1; fork <= 5; fork++) {
            for (int rep = 0; rep < 3; rep++) {
                a.rep(Rep.of(fork, 100 + fork + rep).p99(300));
                b.rep(Rep.of(fork, 120 + fork + rep).p99(300));
            }
        }
        String md = Comparison.render(TestCells.write(dir, "a", a), TestCells.write(dir, "b", b));

        assertThat(md).contains("| B ÷ A [95 % bootstrap CI] verdict |")
                .containsPattern("\\| req/s \\|.*\\| 0\\.008 \\| 1\\.19\\d \\[1\\.1\\d\\d, 1\\.2\\d\\d\\]"
                        + " decided: B faster \\|")
                .contains("| p99 ms |").contains("| 1.000 [1.000, 1.000] ~ |");
    }

    /** @return one fork per value, each of three repetitions at value − 0.5, value and value + 0.5 */
    private static List<List<Double>> forks(double... medians) {
        return java.util.Arrays.stream(medians).mapToObj(m -> List.of(m - 0.5, m, m + 0.5)).toList();
    }
}
