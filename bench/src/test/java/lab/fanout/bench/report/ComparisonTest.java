package lab.fanout.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.TestCells;
import lab.fanout.bench.model.TestCells.Rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Comparison} on synthetic results with known answers. */
class ComparisonTest {

    @Test
    void aShiftBeyondTheNoiseIsSignificant() {
        // 6 against 6, no overlap: the exact two-sided p is 2 ÷ C(12, 6) = 0.0022
        assertThat(Comparison.verdict(List.of(100.0, 101.0, 99.0, 100.5, 99.5, 100.2),
                List.of(110.0, 111.0, 109.0, 110.5, 109.5, 110.2)))
                .isEqualTo(new Comparison.Verdict("+10.0 %", "0.002"));
    }

    @Test
    void aChangeFromZeroIsADifferenceNotAnInfinitePercentage() {
        // a stalled strategy's 0 req/s in every fork against 190: p = 0.007 (the zeros tie, so not the exact 0.008)
        assertThat(Comparison.verdict(List.of(0.0, 0.0, 0.0, 0.0, 0.0), List.of(190.56, 189.7, 189.83, 191.22, 189.77)))
                .isEqualTo(new Comparison.Verdict("from 0 to 189.8", "0.007"));
    }

    @Test
    void noiseIsCalledNotSignificant() {
        // the same spread, interleaved: ranks alternate
        assertThat(Comparison.verdict(List.of(100.0, 102.0, 104.0, 106.0, 108.0),
                List.of(101.0, 103.0, 105.0, 107.0, 109.0)).change()).isEqualTo("~");
    }

    @Test
    void threeAgainstThreeCanNeverBeSignificantAndSaysWhatItNeeds() {
        // even with no overlap: 2 ÷ C(6, 3) = 0.1
        assertThat(Comparison.verdict(List.of(1.0, 2.0, 3.0), List.of(10.0, 11.0, 12.0)))
                .isEqualTo(new Comparison.Verdict("~", "too few: n = 3 + 3 cannot give p < 0.05, needs 4 + 4"));
        assertThat(RankTest.needed()).isEqualTo(4);
    }

    @Test
    void aResultComparedWithItselfShowsOnlyTilde(@TempDir Path dir) {
        Path a = TestCells.write(dir, "a", quick());
        String md = Comparison.render(a, a);
        assertThat(md.lines().skip(2)).hasSize(2).allMatch(line -> line.contains("| ~ | "));
        assertThat(md).contains("| " + QUICK + " | req/s | 482.5 (478.0–490.0 · 88 %), 4"
                + " | 482.5 (478.0–490.0 · 88 %), 4 | ~ | 1.000 |");
    }

    @Test
    void cellsAreMatchedByTheirKnobsAndAResultWithoutCommonCellsIsAnError(@TempDir Path dir) throws IOException {
        Path a = TestCells.write(dir, "a", quick());
        Path b = TestCells.write(dir, "b", quick().clients(50));
        assertThatThrownBy(() -> Comparison.render(a, b)).hasMessageContaining("no cell is in both");
        Path csv = Files.writeString(dir.resolve("c.csv"), "block,strategy\nquick,scopeFork\n");
        assertThatThrownBy(() -> Comparison.render(a, csv)).hasMessageContaining("has no c.json beside it");
        assertThatThrownBy(() -> Comparison.render(a, dir.resolve("nowhere"))).hasMessageContaining("does not exist");
    }

    @Test
    void withForksTheSamplesAreTheForksMediansAndACappedWarmUpGetsNoVerdict(@TempDir Path dir) {
        // 4 forks of 3 repetitions: the samples are 4 medians, 100..103 against 110..113: 4 + 4 can reach p < 0.05
        TestCells a = TestCells.cell("scopeFork", "virtual");
        TestCells b = TestCells.cell("scopeFork", "virtual");
        TestCells capped = TestCells.cell("scopeFork", "virtual");
        for (int fork = 1; fork <= 4; fork++) {
            for (int rep = 0; rep < 3; rep++) {
                a.rep(Rep.of(fork, 100 + fork - 1 + rep * 0.1));
                b.rep(Rep.of(fork, 110 + fork - 1 + rep * 0.1));
                Rep of = Rep.of(fork, 110 + fork - 1 + rep * 0.1);
                capped.rep(fork == 1 && rep == 0 ? of.unsettled() : of);
            }
        }
        Path left = TestCells.write(dir, "a", a);
        String md = Comparison.render(left, TestCells.write(dir, "b", b));
        assertThat(md).contains("| req/s | 101.6 (100.1–103.1 · 88 %), 4 | 111.6 (110.1–113.1 · 88 %), 4 | +9.8 % |");
        assertThat(Comparison.render(left, TestCells.write(dir, "c", capped)))
                .contains("| ⚠ warm-up capped | no verdict | no verdict |").doesNotContain("+9.8 %");
    }

    @Test
    void aCellThatSpentTooLittleCpuGetsNoVerdict(@TempDir Path dir) {
        // the same shift as above, but B's main-service spent 5 of the query's 10 cpuMs per request (under 80 %)
        TestCells a = TestCells.cell("scopeFork", "virtual").query("cpuMs=10");
        TestCells b = TestCells.cell("scopeFork", "virtual").query("cpuMs=10");
        TestCells spent = TestCells.cell("scopeFork", "virtual").query("cpuMs=10");
        for (int fork = 1; fork <= 4; fork++) {
            a.rep(Rep.of(fork, 100 + fork).mainCpuMs(10));
            b.rep(Rep.of(fork, 110 + fork).mainCpuMs(5));
            spent.rep(Rep.of(fork, 110 + fork).mainCpuMs(8));
        }
        Path left = TestCells.write(dir, "a", a);
        String md = Comparison.render(left, TestCells.write(dir, "b", b));
        assertThat(md).contains("| ⚠ CPU under cpuMs | no verdict | no verdict |").doesNotContain("+9.")
                .doesNotContain("| ~ |");
        assertThat(Comparison.render(left, TestCells.write(dir, "c", spent))).contains("| +9.8 % | 0.029 |");
    }

    @Test
    void byStrategyComparesEachStrategyWithTheFirstWithinOneResult(@TempDir Path dir) {
        TestCells scope = TestCells.cell("scopeFork", "virtual");
        TestCells sequential = TestCells.cell("sequential", "virtual");
        TestCells reactive = TestCells.cell("reactive", "virtual");
        for (int rep = 0; rep < 6; rep++) {
            scope.rep(Rep.of(1, 400 + rep));
            sequential.rep(Rep.of(1, 150 + rep));
            reactive.rep(Rep.of(1, 402 + rep));
        }
        String md = Comparison.renderBy(TestCells.write(dir, "r", scope, sequential, reactive), "strategy");
        assertThat(md).contains("| quick virtual " + KNOBS + ": scopeFork → sequential | req/s |")
                .contains("| -62.1 % | 0.002 |").doesNotContain("NaN").doesNotContain("slow share")
                .containsPattern("scopeFork → reactive \\| req/s \\| .* \\| ~ \\| ");
        assertThatThrownBy(() -> Comparison.renderBy(TestCells.write(dir, "one", quick()), "strategy"))
                .hasMessageContaining("with two strategies");
    }

    @Test
    void byProfileComparesEachProfileWithTheFirstForTheSameStrategy(@TempDir Path dir) {
        // Reactor Netty reports no Tomcat threads: still the same cell as Tomcat's
        Path r = TestCells.write(dir, "r",
                TestCells.cell("reactive", "virtual").block("s").forks(201, 202, 203, 204, 205),
                TestCells.cell("reactive", "netty").block("s").forks(401, 402, 403, 404, 405),
                TestCells.cell("scopeFork", "virtual").block("s").forks(301, 302, 303, 304, 305));
        assertThat(Comparison.renderBy(r, "profile"))
                .contains("| s reactive pool_max_total=500 concurrency=100 latency_ms=200: virtual → netty | req/s |")
                .contains("| 0.008 |").doesNotContain("scopeFork");
    }

    /** Seed 002's question: R2DBC against JDBC at the same db pool, strategy and profile; the memory store apart. */
    @Test
    void byOrdersStoreComparesTheDriversAtTheSameDbPool(@TempDir Path dir) {
        List<TestCells> cells = new ArrayList<>();
        double[][] reqPerS = {{24, 20}, {98, 98.05}};   // at db pool 5 and 20: JDBC, R2DBC
        int[] pools = {5, 20};
        for (int p = 0; p < pools.length; p++) {
            for (int store = 0; store < 2; store++) {
                TestCells cell = TestCells.cell("scopeFork", "virtual").block("database").clients(60)
                        .dbPool(pools[p], store == 0 ? Cell.JDBC : Cell.R2DBC);
                for (int fork = 1; fork <= 5; fork++) {
                    cell.rep(Rep.of(fork, reqPerS[p][store] + fork * 0.1));
                }
                cells.add(cell);
            }
        }
        String md = Comparison.renderBy(TestCells.write(dir, "r", cells.toArray(TestCells[]::new)), "orders_store");
        assertThat(md).contains("| database scopeFork virtual tomcat_threads_max=200 pool_max_total=500 db_pool=5"
                        + " concurrency=60 latency_ms=200: postgres → r2dbc | req/s |")
                .contains("| -16.5 % | 0.008 |")
                .containsPattern("db_pool=20 concurrency=60 latency_ms=200: postgres → r2dbc \\| req/s \\| .* "
                        + "\\| ~ \\| ");
    }

    /** The tail preset's question: a hedged cell against the same query unhedged, its slow share tested too. */
    @Test
    void byHedgeComparesAHedgedTailCellWithTheSameQueryUnhedged(@TempDir Path dir) {
        String wide = "width=10&tailRate=0.01&tailMs=1000";
        String narrow = "width=1&tailRate=0.01&tailMs=1000";
        TestCells wideNone = tail(wide);
        TestCells wideHedged = tail(wide + "&hedgeAfterMs=100");
        TestCells narrowNone = tail(narrow);
        TestCells narrowHedged = tail("hedgeAfterMs=p95&" + narrow);
        for (int fork = 1; fork <= 5; fork++) {
            for (int rep = -1; rep <= 1; rep++) {
                // 30 calls: 25 + fork % slow (repetitions around it) against 0.1 × fork % hedged, ranges apart
                wideNone.rep(Rep.of(fork, 30 + fork).slow(25 + fork + rep));
                wideHedged.rep(Rep.of(fork, 90 + fork).slow(0.1 * fork));
                // 3 calls: 2 × fork % against 2 × fork + 1 %, interleaved: noise
                narrowNone.rep(Rep.of(fork, 100 + fork).slow(2 * fork));
                narrowHedged.rep(Rep.of(fork, 140 + fork).slow(2 * fork + 1));
            }
        }
        String md = Comparison.renderBy(TestCells.write(dir, "r", wideNone, wideHedged, narrowNone, narrowHedged),
                "hedge");
        assertThat(md).contains("| tail scopeFork virtual tomcat_threads_max=200 pool_max_total=500 concurrency=8"
                        + " latency_ms=200 query=" + wide + ": none → 100 | slow share % | 28.0 (26.0–30.0 · 94 %), 5"
                        + " | 0.3 (0.1–0.5 · 94 %), 5 | -98.9 % | 0.008 |")
                .containsPattern("query=" + narrow + ": none → p95 \\| slow share % \\| .* \\| ~ \\| ")
                .containsPattern("query=" + narrow + ": none → p95 \\| req/s \\| .* \\| \\+\\d+\\.\\d % \\| 0.008 \\|");
        assertThatThrownBy(() -> Comparison.renderBy(TestCells.write(dir, "quick", quick()), "hedge"))
                .hasMessageContaining("two hedgeAfterMs");
    }

    private static TestCells tail(String query) {
        return TestCells.cell("scopeFork", "virtual").block("tail").clients(8).query(query);
    }

    /** The knobs every default cell of {@link TestCells} has but block, strategy and profile. */
    private static final String KNOBS = "tomcat_threads_max=200 pool_max_total=500 concurrency=100 latency_ms=200";
    private static final String QUICK = "quick scopeFork virtual " + KNOBS;

    /** One fork of 4 repetitions: 478–490 req/s, p99 238–245 ms. */
    private static TestCells quick() {
        double[] reqPerS = {480, 485, 490, 478};
        double[] p99 = {240, 238, 245, 241};
        TestCells cell = TestCells.cell("scopeFork", "virtual");
        for (int i = 0; i < reqPerS.length; i++) {
            cell.rep(Rep.of(1, reqPerS[i]).p99(p99[i]));
        }
        return cell;
    }
}
