package lab.fanout.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Verdicts} on synthetic results with known answers (req/s only: the other figures are left empty). */
class VerdictsTest {

    private static final String HEADER = "block,strategy,profile,concurrency,throughput_req_per_s,p99_ms,fork,"
            + "warmup_settled\n";

    @TempDir
    Path dir;

    @Test
    void aClearWinnerIsNamedWithItsLeadOverTheRunnerUp() throws IOException {
        // 5 forks each, no overlap: the exact two-sided p is 2 ÷ C(10, 5) = 0.0079
        String md = Verdicts.render(List.of(csv("r.csv", forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204)
                + forks(100, "reactive", "virtual", 100, 101, 102, 103, 104)
                + forks(100, "sequential", "virtual", 50, 51, 52, 53, 54))));

        assertThat(md).contains("| scenario | req/s |")
                .contains("| quick | **scopeFork · virtual** +98.0 % vs reactive · virtual (p 0.008); 1.980 [")
                .contains("] decided |")
                .contains("Benjamini-Hochberg over the 1 tests at q = 0.05")
                .contains("Every scenario: concurrency=100.");
    }

    /**
     * A bounded pool that answers 80 % of its requests 503 at once has the lowest p99 of all its answers, but not of
     * the same work: it contests req/s (its goodput), and the p99 goes to the best of those that answered.
     */
    @Test
    void anApproachThatShedsContestsGoodputOnly() throws IOException {
        StringBuilder rows = new StringBuilder("block,strategy,profile,concurrency,throughput_req_per_s,p99_ms,"
                + "answered,errors,fork,warmup_settled\n");
        for (int fork = 1; fork <= 5; fork++) {
            rows.append(String.format(java.util.Locale.ROOT, "scale,completableFutureWithBoundedPool,virtual,200,%d,"
                    + "%d,1000,800,%d,true%n", 320 + fork, 40 + fork, fork));
            rows.append(String.format(java.util.Locale.ROOT, "scale,scopeFork,virtual,200,%d,%d,1000,0,%d,true%n",
                    900 + fork, 280 + fork, fork));
            rows.append(String.format(java.util.Locale.ROOT, "scale,reactive,virtual,200,%d,%d,1000,5,%d,true%n",
                    800 + fork, 380 + fork, fork));
        }
        String md = Verdicts.render(List.of(Files.writeString(dir.resolve("shed.csv"), rows)));
        assertThat(md).contains("| scale | **scopeFork · virtual** +12.5 % vs reactive · virtual (p 0.008); ")
                .contains(" | **scopeFork · virtual** -26.1 % vs reactive · virtual (p 0.008); ")
                .contains("contests req/s only");
    }

    @Test
    void drawsTheMatrixAsAHeatmap() throws IOException {
        Path png = dir.resolve("verdicts.png");
        Verdicts.render(List.of(csv("r.csv", forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204)
                + forks(100, "reactive", "virtual", 100, 101, 102, 103, 104))), png, Bootstrap.DEFAULT);

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
        StringBuilder rows = new StringBuilder(forks(100, "scopeFork", "virtual", 10, 11, 12, 13, 14)
                + forks(100, "reactive", "virtual", 5, 6, 7, 10.5, 10.6));
        for (int clients : new int[] {200, 300, 400}) {
            rows.append(forks(clients, "scopeFork", "virtual", 1, 3, 5, 7, 9))
                    .append(forks(clients, "reactive", "virtual", 2, 4, 6, 8, 10));
        }
        rows.append(forks(500, "scopeFork", "virtual", 100, 100, 100, 100, 100))
                .append(forks(500, "reactive", "virtual", 100, 100, 100, 100, 100));
        Path png = dir.resolve("verdicts.png");

        String md = Verdicts.render(List.of(csv("family.csv", rows.toString())), png, Bootstrap.DEFAULT);

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
    void aLeadWithinTheNoiseReadsTilde() throws IOException {
        // interleaved ranks: the better median, but p = 0.69
        String md = Verdicts.render(List.of(csv("r.csv", forks(100, "scopeFork", "virtual", 1, 3, 5, 7, 9)
                + forks(100, "reactive", "virtual", 2, 4, 6, 8, 10))));

        assertThat(md).contains("| quick | ~ reactive · virtual vs scopeFork · virtual (p 0.690); ")
                .doesNotContain("**");
    }

    /**
     * U = 2 of 25 gives p = 2 × 4 ÷ 252 = 0.032: a winner on its own; beside four ties, Benjamini-Hochberg asks the
     * smallest of 5 p-values to be under 0.05 ÷ 5 = 0.01, and it is not.
     */
    @Test
    void aWinnerLosesItsSignificanceAfterTheCorrection() throws IOException {
        String close = forks(100, "scopeFork", "virtual", 10, 11, 12, 13, 14)
                + forks(100, "reactive", "virtual", 5, 6, 7, 10.5, 10.6);
        assertThat(Verdicts.render(List.of(csv("alone.csv", close))))
                .contains("| quick | **scopeFork · virtual** +71.4 % vs reactive · virtual"
                        + " (p 0.032); ");

        StringBuilder withTies = new StringBuilder(close);
        for (int clients : new int[] {200, 300, 400, 500}) {
            withTies.append(forks(clients, "scopeFork", "virtual", 1, 3, 5, 7, 9))
                    .append(forks(clients, "reactive", "virtual", 2, 4, 6, 8, 10));
        }
        assertThat(Verdicts.render(List.of(csv("family.csv", withTies.toString()))))
                .contains("| quick concurrency=100 | ~ scopeFork · virtual vs reactive · virtual (p 0.032); ")
                .doesNotContain("**")
                .contains("over the 5 tests");
    }

    @Test
    void threeForksEachAreTooFewAndOneForkIsNoSample() throws IOException {
        String md = Verdicts.render(List.of(csv("r.csv", forks(100, "scopeFork", "virtual", 200, 201, 202)
                + forks(100, "reactive", "virtual", 100, 101, 102)
                + forks(200, "scopeFork", "virtual", 200) + forks(200, "reactive", "virtual", 100))));

        assertThat(md).contains("| quick concurrency=100 | too few forks (3 + 3) |")
                .contains("| quick concurrency=200 | too few forks (1 + 1) |");
    }

    @Test
    void resultsOfOneProfileEachJoinIntoOneScenario() throws IOException {
        Path virtual = csv("virtual.csv", forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204));
        Path platform = csv("platform.csv", forks(100, "scopeFork", "platform", 100, 101, 102, 103, 104));

        assertThat(Verdicts.render(List.of(virtual, platform)))
                .contains("| quick | **scopeFork · virtual** +98.0 % vs scopeFork · platform"
                        + " (p 0.008); ");
        assertThatThrownBy(() -> Verdicts.render(List.of(virtual))).hasMessageContaining("has two approaches");
    }

    /** Fork 1 of one run and fork 1 of another are two JVM starts: two runs of 3 forks give 6 + 6 samples. */
    @Test
    void twoRunsOfTheSamePresetAddTheirForks() throws IOException {
        Path a = csv("a.csv", forks(100, "scopeFork", "virtual", 200, 201, 202)
                + forks(100, "reactive", "virtual", 100, 101, 102));
        Path b = csv("b.csv", forks(100, "scopeFork", "virtual", 203, 204, 205)
                + forks(100, "reactive", "virtual", 103, 104, 105));

        assertThat(Verdicts.render(List.of(a, b))).contains("**scopeFork · virtual** +97.6 % vs reactive · virtual"
                + " (p 0.002)");
    }

    /**
     * Reactor Netty has no Tomcat threads (an empty column): its cells join the Tomcat scenario of the same other
     * knobs, each of them where the matrix varies Tomcat's threads, which stay apart as before.
     */
    @Test
    void nettyCellsMeetTomcatCellsAtEachTomcatThreadCount() throws IOException {
        Path servers = Files.writeString(dir.resolve("servers.csv"), "block,strategy,profile,tomcat_threads_max,"
                + "concurrency,throughput_req_per_s,p99_ms,fork,warmup_settled\n"
                + threads(forks(1000, "executor", "platform", 50, 51, 52, 53, 54), "10")
                + threads(forks(1000, "executor", "platform", 150, 151, 152, 153, 154), "200")
                + threads(forks(1000, "executor", "virtual", 100, 101, 102, 103, 104), "200")
                + threads(forks(1000, "executor", "netty", 120, 121, 122, 123, 124), ""));

        assertThat(Verdicts.render(List.of(servers)))
                .contains("| quick tomcat_threads_max=10 | **executor · netty** +134.6 % vs executor · platform")
                .contains("| quick tomcat_threads_max=200 | **executor · platform** +24.6 % vs executor · netty")
                .doesNotContain("| quick |");
    }

    /** @return the rows with Tomcat's threads after their profile (the {@link #forks} rows lack that column) */
    private static String threads(String rows, String tomcatThreads) {
        return rows.replaceAll("(?m)^(quick,[^,]+,[^,]+),", "$1," + tomcatThreads + ",");
    }

    @Test
    void aCappedWarmUpGetsNoVerdict() throws IOException {
        String capped = forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204).replaceFirst(",true\n", ",false\n");

        assertThat(Verdicts.render(List.of(csv("r.csv", capped + forks(100, "reactive", "virtual", 1, 2, 3, 4, 5)))))
                .contains("| no verdict (warm-up capped) |");
    }

    /** Issue 66: a cell whose load side was busy past 85 % measured the load side, maybe not main-service. */
    @Test
    void aLoadSideBoundCellGetsNoVerdict() throws IOException {
        String header = HEADER.replace("warmup_settled\n", "warmup_settled,load_side_bound\n");
        String bound = forks(100, "scopeFork", "virtual", 200, 201, 202, 203, 204).replace(",true\n", ",true,true\n");
        String fed = forks(100, "reactive", "virtual", 1, 2, 3, 4, 5).replace(",true\n", ",true,false\n");
        Path rows = Files.writeString(dir.resolve("r.csv"), header + bound + fed);
        assertThat(Verdicts.render(List.of(rows)))
                .contains("| no verdict (load side bound: not main-service's figure) |");
        Files.writeString(rows, header + bound.replace(",true,true\n", ",true,false\n") + fed);
        assertThat(Verdicts.render(List.of(rows))).doesNotContain("no verdict");
    }

    private Path csv(String name, String rows) throws IOException {
        return Files.writeString(dir.resolve(name), HEADER + rows);
    }

    /** One row per fork (one repetition each) of a cell, its req/s given, its p99 left empty. */
    private static String forks(int clients, String strategy, String profile, double... throughput) {
        StringBuilder rows = new StringBuilder();
        for (int fork = 1; fork <= throughput.length; fork++) {
            rows.append("quick,").append(strategy).append(',').append(profile).append(',').append(clients).append(',')
                    .append(throughput[fork - 1]).append(",,").append(fork).append(",true\n");
        }
        return rows.toString();
    }
}
