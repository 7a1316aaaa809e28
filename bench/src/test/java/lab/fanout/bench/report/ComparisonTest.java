package lab.fanout.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Comparison} on synthetic results with known answers. */
class ComparisonTest {

    @Test
    void aShiftBeyondTheNoiseIsSignificant() {
        // 6 against 6, no overlap: the exact two-sided p is 2 ÷ C(12, 6) = 0.0022
        assertThat(Comparison.verdict(List.of(100.0, 101.0, 99.0, 100.5, 99.5, 100.2),
                List.of(110.0, 111.0, 109.0, 110.5, 109.5, 110.2))).isEqualTo("+10.0 % | 0.002");
    }

    @Test
    void aChangeFromZeroIsADifferenceNotAnInfinitePercentage() {
        // a stalled strategy's 0 req/s in every fork against 190: p = 0.007 (the zeros tie, so not the exact 0.008)
        assertThat(Comparison.verdict(List.of(0.0, 0.0, 0.0, 0.0, 0.0), List.of(190.56, 189.7, 189.83, 191.22, 189.77)))
                .isEqualTo("from 0 to 189.8 | 0.007");
    }

    @Test
    void noiseIsCalledNotSignificant() {
        // the same spread, interleaved: ranks alternate
        assertThat(Comparison.verdict(List.of(100.0, 102.0, 104.0, 106.0, 108.0),
                List.of(101.0, 103.0, 105.0, 107.0, 109.0))).startsWith("~ | ");
    }

    @Test
    void threeAgainstThreeCanNeverBeSignificantAndSaysWhatItNeeds() {
        // even with no overlap: 2 ÷ C(6, 3) = 0.1
        assertThat(Comparison.verdict(List.of(1.0, 2.0, 3.0), List.of(10.0, 11.0, 12.0)))
                .isEqualTo("~ | too few: n = 3 + 3 cannot give p < 0.05, needs 4 + 4");
        assertThat(Comparison.needed()).isEqualTo(4);
    }

    @Test
    void aResultComparedWithItselfShowsOnlyTilde(@TempDir Path dir) throws IOException {
        Path csv = results(dir.resolve("a.csv"), new double[] {480, 485, 490, 478}, new double[] {240, 238, 245, 241});
        String md = Comparison.render(csv, csv);
        assertThat(md.lines().skip(2)).hasSize(2).allMatch(line -> line.contains("| ~ | "));
        assertThat(md).contains("| quick scopeFork virtual concurrency=100 latency_ms=200 | req/s | "
                + "482.5 (478.0–490.0 · 88 %), 4 | 482.5 (478.0–490.0 · 88 %), 4 | ~ | 1.000 |");
    }

    @Test
    void cellsAreMatchedByTheirKnobsAndAResultWithoutCommonCellsIsAnError(@TempDir Path dir) throws IOException {
        Path a = results(dir.resolve("a.csv"), new double[] {480, 485, 490, 478}, new double[] {240, 238, 245, 241});
        Path b = Files.writeString(dir.resolve("b.csv"), Files.readString(a).replace(",100,200,", ",50,200,"));
        assertThatThrownBy(() -> Comparison.render(a, b)).hasMessageContaining("no cell is in both");
        assertThatThrownBy(() -> Comparison.render(a, Files.writeString(dir.resolve("c.csv"), "x,y\n1,2\n")))
                .hasMessageContaining("is not a results.csv of ./lab bench");
        assertThatThrownBy(() -> Comparison.render(a, dir.resolve("nowhere"))).hasMessageContaining("does not exist");
    }

    @Test
    void withForksTheSamplesAreTheForksMediansAndACappedWarmUpGetsNoVerdict(@TempDir Path dir) throws IOException {
        // 4 forks of 3 repetitions: the samples are 4 medians, 100..103 against 110..113: 4 + 4 can reach p < 0.05
        StringBuilder a = new StringBuilder(FORK_HEADER);
        StringBuilder b = new StringBuilder(FORK_HEADER);
        for (int fork = 1; fork <= 4; fork++) {
            for (int rep = 0; rep < 3; rep++) {
                a.append(forkRow("scopeFork", 100 + fork - 1 + rep * 0.1, fork, true));
                b.append(forkRow("scopeFork", 110 + fork - 1 + rep * 0.1, fork, true));
            }
        }
        Path left = Files.writeString(dir.resolve("a.csv"), a);
        String md = Comparison.render(left, Files.writeString(dir.resolve("b.csv"), b));
        assertThat(md).contains("| req/s | 101.6 (100.1–103.1 · 88 %), 4 | 111.6 (110.1–113.1 · 88 %), 4 | +9.8 % |");
        Path capped = Files.writeString(dir.resolve("c.csv"), b.toString().replaceFirst(",true\n", ",false\n"));
        assertThat(Comparison.render(left, capped)).contains("| ⚠ warm-up capped | no verdict |")
                .doesNotContain("+9.8 %");
    }

    @Test
    void aCellThatSpentTooLittleCpuGetsNoVerdict(@TempDir Path dir) throws IOException {
        // the same shift as above, but one row of B says main-service spent under 80 % of the query's cpuMs
        StringBuilder a = new StringBuilder(FORK_HEADER.replace("\n", ",cpu_spent\n"));
        StringBuilder b = new StringBuilder(a);
        for (int fork = 1; fork <= 4; fork++) {
            a.append(forkRow("scopeFork", 100 + fork, fork, true).replace("\n", ",true\n"));
            b.append(forkRow("scopeFork", 110 + fork, fork, true).replace("\n", fork == 2 ? ",false\n" : ",true\n"));
        }
        String md = Comparison.render(Files.writeString(dir.resolve("a.csv"), a),
                Files.writeString(dir.resolve("b.csv"), b));
        assertThat(md).contains("| ⚠ CPU under cpuMs | no verdict |").doesNotContain("+9.").doesNotContain("| ~ |");
        assertThat(Comparison.render(dir.resolve("a.csv"), Files.writeString(dir.resolve("c.csv"),
                b.toString().replace(",false\n", ",true\n")))).contains("| +9.8 % | 0.029 |");
    }

    @Test
    void byStrategyComparesEachStrategyWithTheFirstWithinOneResult(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder(FORK_HEADER);
        for (int rep = 0; rep < 6; rep++) {
            csv.append(forkRow("scopeFork", 400 + rep, 1, true)).append(forkRow("sequential", 150 + rep, 1, true))
                    .append(forkRow("reactive", 402 + rep, 1, true));
        }
        String md = Comparison.renderBy(Files.writeString(dir.resolve("r.csv"), csv), "strategy");
        assertThat(md).contains("| quick virtual concurrency=100: scopeFork → sequential | req/s |")
                .contains("| -62.1 % | 0.002 |").doesNotContain("NaN").doesNotContain("slow share")
                .containsPattern("scopeFork → reactive \\| req/s \\| .* \\| ~ \\| ");
        assertThatThrownBy(() -> Comparison.renderBy(Files.writeString(dir.resolve("one.csv"),
                FORK_HEADER + forkRow("scopeFork", 1, 1, true)), "strategy"))
                .hasMessageContaining("with two strategies");
    }

    @Test
    void byProfileComparesEachProfileWithTheFirstForTheSameStrategy(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("block,strategy,profile,tomcat_threads_max,concurrency,"
                + "throughput_req_per_s,p99_ms,fork,warmup_settled\n");
        for (int fork = 1; fork <= 5; fork++) {
            // Reactor Netty reports no Tomcat threads: still the same cell as Tomcat's
            csv.append("s,reactive,virtual,200,100,").append(200 + fork).append(",20,").append(fork).append(",true\n")
                    .append("s,reactive,netty,,100,").append(400 + fork).append(",20,").append(fork).append(",true\n")
                    .append("s,scopeFork,virtual,200,100,").append(300 + fork).append(",20,").append(fork)
                    .append(",true\n");
        }
        String md = Comparison.renderBy(Files.writeString(dir.resolve("r.csv"), csv), "profile");
        assertThat(md).contains("| s reactive concurrency=100: virtual → netty | req/s |").contains("| 0.008 |")
                .doesNotContain("scopeFork");
    }

    /** Seed 002's question: R2DBC against JDBC at the same db pool, strategy and profile; the memory store apart. */
    @Test
    void byOrdersStoreComparesTheDriversAtTheSameDbPool(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("block,strategy,profile,db_pool,orders_store,concurrency,"
                + "throughput_req_per_s,p99_ms,fork,warmup_settled\n");
        for (int fork = 1; fork <= 5; fork++) {
            for (String cell : new String[] {"5,postgres,60," + (24 + fork * 0.1), "5,r2dbc,60," + (20 + fork * 0.1),
                    "20,postgres,60," + (98 + fork * 0.1), "20,r2dbc,60," + (98.05 + fork * 0.1)}) {
                csv.append("database,scopeFork,virtual,").append(cell).append(",900,").append(fork).append(",true\n");
            }
        }
        String md = Comparison.renderBy(Files.writeString(dir.resolve("r.csv"), csv), "orders_store");
        assertThat(md).contains("| database scopeFork virtual db_pool=5 concurrency=60: postgres → r2dbc | req/s |")
                .contains("| -16.5 % | 0.008 |")
                .containsPattern("db_pool=20 concurrency=60: postgres → r2dbc \\| req/s \\| .* \\| ~ \\| ");
    }

    /** The tail preset's question: a hedged cell against the same query unhedged, its slow share tested too. */
    @Test
    void byHedgeComparesAHedgedTailCellWithTheSameQueryUnhedged(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("block,strategy,profile,concurrency,query,answered,slow_answers,"
                + "throughput_req_per_s,p99_ms,fork,warmup_settled\n");
        String wide = "width=10&tailRate=0.01&tailMs=1000";
        String narrow = "width=1&tailRate=0.01&tailMs=1000";
        for (int fork = 1; fork <= 5; fork++) {
            for (int rep = -1; rep <= 1; rep++) {
                // 30 calls: 25 + fork % slow (repetitions around it) against 0.1 × fork % hedged, ranges apart
                csv.append(tailRow(wide, 100, 25 + fork + rep, 30 + fork, 1060, fork))
                        .append(tailRow(wide + "&hedgeAfterMs=100", 1000, fork, 90 + fork, 160, fork))
                        // 3 calls: 2 × fork % against 2 × fork + 1 %, interleaved: noise
                        .append(tailRow(narrow, 100, 2 * fork, 100 + fork, 1055, fork))
                        .append(tailRow("hedgeAfterMs=p95&" + narrow, 100, 2 * fork + 1, 140 + fork, 110, fork));
            }
        }
        String md = Comparison.renderBy(Files.writeString(dir.resolve("r.csv"), csv), "hedge");
        assertThat(md).contains("| tail scopeFork virtual concurrency=8 query=" + wide + ": none → 100 "
                        + "| slow share % | 28.0 (26.0–30.0 · 94 %), 5 | 0.3 (0.1–0.5 · 94 %), 5 | -98.9 % | 0.008 |")
                .containsPattern("query=" + narrow + ": none → p95 \\| slow share % \\| .* \\| ~ \\| ")
                .containsPattern("query=" + narrow + ": none → p95 \\| req/s \\| .* \\| \\+\\d+\\.\\d % \\| 0.008 \\|");
        assertThatThrownBy(() -> Comparison.renderBy(Files.writeString(dir.resolve("quick.csv"),
                FORK_HEADER + forkRow("scopeFork", 1, 1, true)), "hedge")).hasMessageContaining("two hedgeAfterMs");
    }

    private static String tailRow(String query, int answered, int slow, double throughput, double p99, int fork) {
        return "tail,scopeFork,virtual,8," + query + "," + answered + "," + slow + "," + throughput + "," + p99 + ","
                + fork + ",true\n";
    }

    static final String FORK_HEADER = "block,strategy,profile,concurrency,throughput_req_per_s,p99_ms,fork,"
            + "warmup_settled\n";

    static String forkRow(String strategy, double throughput, int fork, boolean settled) {
        return "quick," + strategy + ",virtual,100," + throughput + ",20," + fork + "," + settled + "\n";
    }

    /** A results.csv with the key columns and one row per repetition. */
    static Path results(Path file, double[] throughput, double[] p99) throws IOException {
        StringBuilder csv = new StringBuilder("block,strategy,profile,concurrency,latency_ms,query,"
                + "throughput_req_per_s,p99_ms\n");
        for (int i = 0; i < throughput.length; i++) {
            csv.append("quick,scopeFork,virtual,100,200,,").append(throughput[i]).append(',').append(p99[i])
                    .append('\n');
        }
        return Files.writeString(file, csv);
    }
}
