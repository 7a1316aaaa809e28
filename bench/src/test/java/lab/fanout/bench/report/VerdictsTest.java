package lab.fanout.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import lab.fanout.bench.model.TestCells;
import lab.fanout.bench.model.TestCells.Rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Verdicts} on synthetic results with known answers (req/s only: the other figures are left empty). */
class VerdictsTest {

    @TempDir
    Path dir;

    @Test
    void aClearWinnerIsNamedWithItsLeadOverTheRunnerUp() throws IOException {
        // 5 forks each, no overlap: the exact two-sided p is 2 ÷ C(10, 5) = 0.0079
        String md = Verdicts.render(List.of(write("r", forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204),
                forks(100, "reactive", "virtual", 100, 101, 102, 103, 104),
                forks(100, "sequential", "virtual", 50, 51, 52, 53, 54))));

        assertThat(md).contains("| scenario | req/s |")
                .contains("| quick | **scopeFork · virtual** +98.0 % vs reactive · virtual (p 0.008); 1.980 [")
                .contains("] decided |")
                .contains("Benjamini-Hochberg over the 1 tests at q = 0.05")
                .contains("Every scenario: tomcat_threads_max=200, pool_max_total=500, concurrency=100,"
                        + " latency_ms=200.");
    }

    /**
     * A bounded pool that answers 80 % of its requests 503 at once has the lowest p99 of all its answers, but not of
     * the same work: it contests req/s (its goodput), and the p99 goes to the best of those that answered.
     */
    @Test
    void anApproachThatShedsContestsGoodputOnly() {
        TestCells bounded = TestCells.cell("boundedPool", "virtual").block("scale").clients(200);
        TestCells scope = TestCells.cell("scopeFork", "virtual").block("scale").clients(200);
        TestCells reactive = TestCells.cell("reactive", "virtual").block("scale").clients(200);
        for (int fork = 1; fork <= 5; fork++) {
            bounded.rep(Rep.of(fork, 320 + fork).p99(40 + fork).errors(0.8));   // 80 % answered 503 at once
            scope.rep(Rep.of(fork, 900 + fork).p99(280 + fork));
            reactive.rep(Rep.of(fork, 800 + fork).p99(380 + fork).errors(0.005));   // 0.5 %: under the 1 % line
        }
        String md = Verdicts.render(List.of(write("shed", bounded, scope, reactive)));
        assertThat(md).contains("| scale | **scopeFork · virtual** +12.5 % vs reactive · virtual (p 0.008); ")
                .contains(" | **scopeFork · virtual** -26.1 % vs reactive · virtual (p 0.008); ")
                .contains("contests req/s only");
    }

    @Test
    void drawsTheMatrixAsAHeatmap() throws IOException {
        Path png = dir.resolve("verdicts.png");
        Verdicts.render(List.of(write("r", forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204),
                forks(100, "reactive", "virtual", 100, 101, 102, 103, 104))), png, Bootstrap.DEFAULT);

        var image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(image.getWidth()).as("label column and one figure column").isEqualTo(330 + 330);
        assertThat(new java.awt.Color(image.getRGB(330 + 320, 3 * 40 - 3))).as("the winner's cell, full green")
                .isEqualTo(new java.awt.Color(80, 185, 80));
    }

    /**
     * The picture is coloured by the bootstrap's word, not by the corrected test: beside four ties the corrected test
     * names no winner at 100 clients (aWinnerLosesItsSignificanceAfterTheCorrection), but scopeFork's 71 % lead is
     * decided by the interval; the ties at 200-500 clients, interleaved ranks 10 % apart, straddle the ±3 % band
     * (unclear, amber), and identical forks read ~ (grey).
     */
    @Test
    void thePictureIsColouredByTheBootstrapsWord() throws IOException {
        List<TestCells> cells = new ArrayList<>(List.of(forks(100, "scopeFork", "virtual", 10, 11, 12, 13, 14),
                forks(100, "reactive", "virtual", 5, 6, 7, 10.5, 10.6)));
        cells.addAll(ties(200, 300, 400));
        cells.add(forks(500, "scopeFork", "virtual", 100, 100, 100, 100, 100));
        cells.add(forks(500, "reactive", "virtual", 100, 100, 100, 100, 100));
        Path png = dir.resolve("verdicts.png");

        String md = Verdicts.render(List.of(write("family", cells.toArray(TestCells[]::new))), png,
                Bootstrap.DEFAULT);

        assertThat(md).contains("| quick concurrency=100 | ~ scopeFork · virtual vs reactive · virtual (p 0.032); ")
                .containsPattern("concurrency=100 \\| [^|]+\\] decided \\|")
                .containsPattern("concurrency=200 \\| [^|]+\\] unclear \\|")
                .containsPattern("concurrency=500 \\| [^|]+\\] ~ \\|");
        var image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(new java.awt.Color(image.getRGB(330 + 320, 3 * 40 - 3))).as("100 clients: decided, green")
                .isNotEqualTo(java.awt.Color.WHITE).satisfies(c -> assertThat(c.getGreen()).isGreaterThan(c.getRed()));
        assertThat(new java.awt.Color(image.getRGB(330 + 320, 4 * 40 - 3))).as("200 clients: unclear, amber")
                .isEqualTo(new java.awt.Color(0xFF, 0xE8, 0xB0));
        assertThat(new java.awt.Color(image.getRGB(330 + 320, 7 * 40 - 3))).as("500 clients: ~, grey")
                .isEqualTo(new java.awt.Color(0xDD, 0xDD, 0xDD));
    }

    @Test
    void thePictureNamesTheApproachesInProse() {
        assertThat(Verdicts.prose("completableFutureWithVirtualTaskExecutor · virtual"))
                .isEqualTo("virtual-thread executor, Tomcat virtual");
        assertThat(Verdicts.prose("reactive · netty")).isEqualTo("reactive, Netty");
        assertThat(Verdicts.prose("executor · platform")).isEqualTo("executor, Tomcat platform");
    }

    @Test
    void aLeadWithinTheNoiseReadsTilde() {
        // interleaved ranks: the better median, but p = 0.69
        String md = Verdicts.render(List.of(write("r", ties(100).toArray(TestCells[]::new))));

        assertThat(md).contains("| quick | ~ reactive · virtual vs scopeFork · virtual (p 0.690); ")
                .doesNotContain("**");
    }

    /**
     * U = 2 of 25 gives p = 2 × 4 ÷ 252 = 0.032: a winner on its own; beside four ties, Benjamini-Hochberg asks the
     * smallest of 5 p-values to be under 0.05 ÷ 5 = 0.01, and it is not.
     */
    @Test
    void aWinnerLosesItsSignificanceAfterTheCorrection() {
        List<TestCells> close = List.of(forks(100, "scopeFork", "virtual", 10, 11, 12, 13, 14),
                forks(100, "reactive", "virtual", 5, 6, 7, 10.5, 10.6));
        assertThat(Verdicts.render(List.of(write("alone", close.toArray(TestCells[]::new)))))
                .contains("| quick | **scopeFork · virtual** +71.4 % vs reactive · virtual"
                        + " (p 0.032); ");

        List<TestCells> withTies = new ArrayList<>(close);
        withTies.addAll(ties(200, 300, 400, 500));
        assertThat(Verdicts.render(List.of(write("family", withTies.toArray(TestCells[]::new)))))
                .contains("| quick concurrency=100 | ~ scopeFork · virtual vs reactive · virtual (p 0.032); ")
                .doesNotContain("**")
                .contains("over the 5 tests");
    }

    @Test
    void threeForksEachAreTooFewAndOneForkIsNoSample() {
        String md = Verdicts.render(List.of(write("r", forks(100, "scopeFork", "virtual", 200, 201, 202),
                forks(100, "reactive", "virtual", 100, 101, 102),
                forks(200, "scopeFork", "virtual", 200), forks(200, "reactive", "virtual", 100))));

        assertThat(md).contains("| quick concurrency=100 | too few forks (3 + 3) |")
                .contains("| quick concurrency=200 | too few forks (1 + 1) |");
    }

    @Test
    void resultsOfOneProfileEachJoinIntoOneScenario() {
        Path virtual = write("virtual", forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204));
        Path platform = write("platform", forks(100, "scopeFork", "platform", 100, 101, 102, 103, 104));

        assertThat(Verdicts.render(List.of(virtual, platform)))
                .contains("| quick | **scopeFork · virtual** +98.0 % vs scopeFork · platform"
                        + " (p 0.008); ");
        assertThatThrownBy(() -> Verdicts.render(List.of(virtual))).hasMessageContaining("has two approaches");
    }

    /** Fork 1 of one run and fork 1 of another are two JVM starts: two runs of 3 forks give 6 + 6 samples. */
    @Test
    void twoRunsOfTheSamePresetAddTheirForks() {
        Path a = write("a", forks(100, "scopeFork", "virtual", 200, 201, 202),
                forks(100, "reactive", "virtual", 100, 101, 102));
        Path b = write("b", forks(100, "scopeFork", "virtual", 203, 204, 205),
                forks(100, "reactive", "virtual", 103, 104, 105));

        assertThat(Verdicts.render(List.of(a, b))).contains("**scopeFork · virtual** +97.6 % vs reactive · virtual"
                + " (p 0.002)");
    }

    /**
     * Reactor Netty has no Tomcat threads (an empty column): its cells join the Tomcat scenario of the same other
     * knobs, each of them where the matrix varies Tomcat's threads, which stay apart as before.
     */
    @Test
    void nettyCellsMeetTomcatCellsAtEachTomcatThreadCount() {
        Path servers = write("servers",
                forks(1000, "threadPerTask", "platform", 50, 51, 52, 53, 54).tomcatThreads(10),
                forks(1000, "threadPerTask", "platform", 150, 151, 152, 153, 154),
                forks(1000, "threadPerTask", "virtual", 100, 101, 102, 103, 104),
                forks(1000, "threadPerTask", "netty", 120, 121, 122, 123, 124));

        String approach = "completableFutureWithThreadTaskExecutor · ";
        assertThat(Verdicts.render(List.of(servers)))
                .contains("| quick tomcat_threads_max=10 | **" + approach + "netty** +134.6 % vs " + approach
                        + "platform")
                .contains("| quick tomcat_threads_max=200 | **" + approach + "platform** +24.6 % vs " + approach
                        + "netty")
                .doesNotContain("| quick |");
    }

    @Test
    void aCappedWarmUpGetsNoVerdict() {
        TestCells capped = TestCells.cell("scopeFork", "virtual").rep(Rep.of(1, 200).p99(Double.NaN).unsettled());
        for (int fork = 2; fork <= 5; fork++) {
            capped.rep(Rep.of(fork, 199 + fork).p99(Double.NaN));
        }

        assertThat(Verdicts.render(List.of(write("r", capped, forks(100, "reactive", "virtual", 1, 2, 3, 4, 5)))))
                .contains("| no verdict (warm-up capped) |");
    }

    /** Issue 66: a cell whose load side was busy past 85 % measured the load side, maybe not main-service. */
    @Test
    void aLoadSideBoundCellGetsNoVerdict() {
        assertThat(Verdicts.render(List.of(write("bound", busy("scopeFork", 200, 90), busy("reactive", 1, 20)))))
                .contains("| no verdict (load side bound: not main-service's figure) |");
        assertThat(Verdicts.render(List.of(write("fed", busy("scopeFork", 200, 80), busy("reactive", 1, 20)))))
                .doesNotContain("no verdict");
    }

    /** @return five forks from {@code reqPerS} up by 1 req/s each, the load side that busy, % */
    private static TestCells busy(String strategy, double reqPerS, double loadSidePercent) {
        TestCells cell = TestCells.cell(strategy, "virtual");
        for (int fork = 1; fork <= 5; fork++) {
            cell.rep(Rep.of(fork, reqPerS + fork - 1).p99(Double.NaN).loadSideBusy(loadSidePercent));
        }
        return cell;
    }

    private Path write(String name, TestCells... cells) {
        return TestCells.write(dir, name, cells);
    }

    /** A cell of one repetition per fork, its req/s given, its latencies not recorded (its p99 left empty). */
    private static TestCells forks(int clients, String strategy, String profile, double... reqPerS) {
        TestCells cell = TestCells.cell(strategy, profile).clients(clients);
        for (int fork = 1; fork <= reqPerS.length; fork++) {
            cell.rep(Rep.of(fork, reqPerS[fork - 1]).p99(Double.NaN));
        }
        return cell;
    }

    /** @return the cells of each client count in turn: scopeFork 1, 3, 5, 7, 9 req/s against reactive 2, 4, …, 10 */
    private static List<TestCells> ties(int... clients) {
        List<TestCells> cells = new ArrayList<>();
        for (int c : clients) {
            cells.add(forks(c, "scopeFork", "virtual", 1, 3, 5, 7, 9));
            cells.add(forks(c, "reactive", "virtual", 2, 4, 6, 8, 10));
        }
        return cells;
    }
}
