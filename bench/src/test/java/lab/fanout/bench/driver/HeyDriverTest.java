package lab.fanout.bench.driver;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class HeyDriverTest {

    static final String CSV = """
            response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset
            0.2000,0.0003,0.0000,0.0007,0.1597,0.0107,200,0.0010
            0.2100,0.0001,0.0000,0.0001,0.1694,0.0018,200,0.0020
            0.3000,0.0018,0.0002,0.0445,0.2296,0.0004,504,0.2100
            0.2500,0.0003,0.0000,0.0447,0.2304,0.0002,200,0.4000
            """;

    @Test
    void countsStatusesTransportErrorsAndTheWindow(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("r.hey.csv"), CSV);
        DriverRun run = HeyDriver.parseCsv(csv, 6, 0);
        assertThat(run.answered()).isEqualTo(4);
        assertThat(run.ok()).isEqualTo(3);
        // 2 of the 6 requested never got an answer: hey leaves them out of its CSV
        assertThat(run.errors())
                .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("HTTP 504", 1L, "transport", 2L)));
        // first start 0.001 s, last answer 0.4 + 0.25 = 0.65 s
        assertThat(run.windowSeconds()).isCloseTo(0.649, within(1e-9));
        assertThat(run.throughput()).isCloseTo(3 / 0.649, within(1e-9));
        assertThat(run.latencyMicros().getMaxValue()).isBetween(299_800L, 300_200L);
        assertThat(run.latencyMicros().getValueAtPercentile(50)).isBetween(209_800L, 210_200L);
    }

    /**
     * A closed loop as hey -n runs it: clients start within 1 ms, each sends its next request on the answer.
     * meanLatency gets the mean of the requests after each client's first.
     */
    private static Path closedLoop(Path dir, int clients, int each, double spread, long seed, double[] meanLatency)
            throws IOException {
        return closedLoop(dir, clients, each, spread, seed, 1, meanLatency);
    }

    /** @param firstFactor each client's first request takes this many times longer: opening its connection */
    private static Path closedLoop(Path dir, int clients, int each, double spread, long seed, double firstFactor,
                                   double[] meanLatency) throws IOException {
        java.util.Random random = new java.util.Random(seed);
        StringBuilder csv = new StringBuilder(CSV.lines().findFirst().orElseThrow()).append('\n');
        double sum = 0;
        for (int c = 0; c < clients; c++) {
            double t = 0.001 * random.nextDouble();
            for (int r = 0; r < each; r++) {
                double latency = 0.2 * (1 + spread * random.nextGaussian()) * (r == 0 ? firstFactor : 1);
                sum += r == 0 ? 0 : latency;
                csv.append(String.format(java.util.Locale.ROOT, "%.4f,0,0,0,0,0,200,%.4f%n", latency, t));
                t += latency;
            }
        }
        meanLatency[0] = sum / (clients * (each - 1.0));
        return Files.writeString(dir.resolve("loop-" + seed + ".hey.csv"), csv);
    }

    /** 100 clients, 16 requests each, 200 ms ± 15 %: the steady rate is clients ÷ mean latency (Little's law). */
    @Test
    void theWindowOfAClosedLoopLeavesTheDrainOut(@TempDir Path dir) throws IOException {
        for (long seed = 1; seed <= 5; seed++) {
            double[] mean = new double[1];
            Path file = closedLoop(dir, 100, 16, 0.15, seed, mean);
            double steady = 100 / mean[0];
            assertThat(HeyDriver.parseCsv(file, 1600, 0).throughput()).isLessThan(0.95 * steady);
            assertThat(HeyDriver.parseCsv(file, 1600, 100).throughput()).isCloseTo(steady, within(0.02 * steady));
        }
    }

    /** A slow first round (connections opening) is the ramp-up: left out, the rate is that of the rounds after. */
    @Test
    void theWindowOfAClosedLoopLeavesTheRampUpOut(@TempDir Path dir) throws IOException {
        for (long seed = 1; seed <= 5; seed++) {
            double[] mean = new double[1];
            Path file = closedLoop(dir, 100, 16, 0.05, seed, 1.5, mean);
            double steady = 100 / mean[0];
            assertThat(HeyDriver.parseCsv(file, 1600, 100).throughput()).isCloseTo(steady, within(0.015 * steady));
        }
    }

    /** No spread: every client finishes at once, nothing to leave out, and the rate stays clients ÷ latency. */
    @Test
    void clientsInStepAreNotOverCounted(@TempDir Path dir) throws IOException {
        double[] mean = new double[1];
        Path file = closedLoop(dir, 100, 16, 0, 7, mean);
        assertThat(HeyDriver.parseCsv(file, 1600, 100).throughput()).isCloseTo(500, within(5.0));
    }

    /** A few requests per client (the seed's cells: 1 or 5): too short a steady part, so whole run = window. */
    @Test
    void fewRoundsKeepTheWholeWindow(@TempDir Path dir) throws IOException {
        for (int each : new int[] {1, 5}) {
            double[] mean = new double[1];
            Path file = closedLoop(dir, 100, each, 0.15, each, mean);
            DriverRun run = HeyDriver.parseCsv(file, 100L * each, 100);
            assertThat(run.throughput()).isCloseTo(HeyDriver.parseCsv(file, 100L * each, 0).throughput(),
                    within(1e-9));
        }
    }

    /**
     * Fast errors drift the clients apart: 100 clients, 40 requests each; while all 100 run, a pool of 20 answers
     * 20 ÷ 0.2 s = 100 2xx/s and refuses the rest in 10 ms, and once 80 clients have sent their share the other 20 go
     * on alone, every answer a 2xx. The steady part is the first, at 100 2xx/s; answers ÷ the rate of all answers read
     * it as 2xx × (all answers' rate ÷ answers), over 3 times that (the scale preset's bounded pool on 2026-11-28).
     */
    @Test
    void fastErrorsThatEndSomeClientsEarlyDoNotInflateTheTwoXxRate(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder(CSV.lines().findFirst().orElseThrow()).append('\n');
        for (int c = 0; c < 100; c++) {
            double t = 0.0001 * c;
            for (int r = 0; r < 40; r++) {
                boolean ok = c < 20;   // 20 clients hold the pool's 20 places; 80 are refused
                double latency = ok ? 0.2 : 0.01;
                csv.append(String.format(java.util.Locale.ROOT, "%.4f,0,0,0,0,0,%d,%.4f%n", latency, ok ? 200 : 503,
                        t));
                t += latency;
            }
        }
        Path file = Files.writeString(dir.resolve("drift.hey.csv"), csv);
        DriverRun run = HeyDriver.parseCsv(file, 4000, 100);
        assertThat(run.ok()).isEqualTo(800);
        assertThat(run.throughput()).isCloseTo(100, within(5.0));
    }

    @Test
    void aRunWithUnansweredRequestsKeepsTheWholeWindow(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("r.hey.csv"), CSV);
        // 2 of 6 got no answer: a client without a row looks idle, so the drain cannot be told apart
        assertThat(HeyDriver.parseCsv(csv, 6, 2).windowSeconds()).isCloseTo(0.649, within(1e-9));
    }

    @Test
    void aDurationRunCannotCountTransportErrors(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("r.hey.csv"), CSV);
        assertThat(HeyDriver.parseCsv(csv, -1, 0).errors()).doesNotContainKey("transport");
    }

    @Test
    void allRequestsUnansweredIsAResultNotAFailure(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("r.hey.csv"), CSV.lines().findFirst().orElseThrow() + "\n");
        DriverRun run = HeyDriver.parseCsv(csv, 10, 0);
        assertThat(run.ok()).isZero();
        assertThat(run.errors()).containsEntry("transport", 10L);
        assertThat(run.throughput()).isZero();
    }

    @Test
    void somethingElseThanHeyCsvFailsClearly(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("r.hey.csv"),
                "flag provided but not defined: -x\nUsage: hey [options...] <url>\n");
        assertThatThrownBy(() -> HeyDriver.parseCsv(csv, -1, 0)).hasMessageContaining("no request was answered");
    }

    @Test
    void commandSpreadsTheRateOverTheClients() {
        Load load = new Load(URI.create("http://localhost:1/x?a=1"), 50, 500, null, 200.0, 20);
        assertThat(new HeyDriver().command(load, Path.of("r")))
                .containsSubsequence("-c", "50").containsSubsequence("-n", "500").containsSubsequence("-q", "4.0000")
                .endsWith("http://localhost:1/x?a=1");
        Load closed = new Load(URI.create("http://localhost:1/"), 5, null, 3, null, 0);
        assertThat(new HeyDriver().command(closed, Path.of("r"))).containsSubsequence("-z", "3s").doesNotContain("-q");
    }

    @Test
    void requestsAreAMultipleOfTheClients() {
        assertThat(Load.roundedRequests(1000, 200)).isEqualTo(1000);
        assertThat(Load.roundedRequests(1030, 200)).isEqualTo(1000);
        assertThat(Load.roundedRequests(3, 10)).isEqualTo(10);
        assertThatThrownBy(() -> new Load(URI.create("http://x/"), 10, 5, null, null, 1))
                .hasMessageContaining("requests 5 < concurrency 10");
    }
}
