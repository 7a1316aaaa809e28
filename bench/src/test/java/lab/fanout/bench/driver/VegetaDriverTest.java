package lab.fanout.bench.driver;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The open model's figures from vegeta's results. The two recorded files (src/test/resources/vegeta, made as its
 * README says) are real vegeta v12.13.0 runs at 25 req/s for 4 s against a fake server that holds every request
 * arriving 1.0-2.0 s after the first until 2.0 s: a 1 s stall.
 */
class VegetaDriverTest {

    static final long MS = 1_000_000;   // ns

    static List<VegetaDriver.Result> recorded(String name) throws URISyntaxException {
        return VegetaDriver.readCsv(Path.of(VegetaDriverTest.class.getResource("/vegeta/" + name).toURI()));
    }

    @Test
    void readsEveryRowOfVegetasCsv() throws Exception {
        List<VegetaDriver.Result> results = recorded("stall-open.csv");
        assertThat(results).hasSize(100);
        // vegeta writes results as they complete: the requests that waited out the stall come after later ones
        assertThat(results).extracting(VegetaDriver.Result::seq).containsExactlyInAnyOrderElementsOf(
                java.util.stream.LongStream.range(0, 100).boxed().toList());
        assertThat(results.stream().map(VegetaDriver.Result::seq).toList()).isNotEqualTo(
                java.util.stream.LongStream.range(0, 100).boxed().toList());
        assertThat(results).allSatisfy(r -> {
            assertThat(r.code()).isEqualTo(200);
            assertThat(r.error()).isEmpty();
        });
        assertThat(results.getFirst().timestampNanos()).isPositive();
        assertThat(results.getFirst().latencyNanos()).isPositive();
    }

    @Test
    void theOpenModelShowsTheStallInItsLatency() throws Exception {
        DriverRun run = VegetaDriver.summarize(recorded("stall-open.csv"), 25);
        assertThat(run.offeredPerSecond()).isEqualTo(25.0);
        assertThat(run.requested()).isEqualTo(100);
        assertThat(run.ok()).isEqualTo(100);
        assertThat(run.errors()).isEmpty();
        // 25 of the 100 requests were due in the stall and waited up to 1 s for it to end
        assertThat(run.latencyMicros().getMaxValue()).isBetween(900_000L, 1_100_000L);
        assertThat(run.latencyMicros().getValueAtPercentile(90)).isGreaterThan(400_000L);
        // vegeta kept sending on schedule (no worker cap): it saw the stall too, so both measures agree
        assertThat(run.sendLatencyMicros().getMaxValue()).isBetween(900_000L, 1_100_000L);
        // 100 requests over about 4 s: achieved close to the offered 25 req/s
        assertThat(run.throughput()).isBetween(23.0, 26.0);
    }

    /**
     * The coordinated-omission case, recorded: vegeta with -max-workers 1 is a closed loop of one client, which
     * sends nothing while its one request waits out the stall, then runs behind the schedule for the rest of the
     * run. From the send (what a closed loop reports) a single request saw the stall; from the due time most did.
     */
    @Test
    void aClosedLoopHidesTheStallThatTheDueTimeLatencyShows() throws Exception {
        DriverRun run = VegetaDriver.summarize(recorded("stall-one-worker.csv"), 25);
        long slowFromSend = count(run.sendLatencyMicros(), 500_000);
        long slowFromDue = count(run.latencyMicros(), 500_000);
        assertThat(slowFromSend).isEqualTo(1);
        assertThat(slowFromDue).isGreaterThan(20);
        assertThat(run.sendLatencyMicros().getValueAtPercentile(90)).isLessThan(100_000L);
        assertThat(run.latencyMicros().getValueAtPercentile(90)).isGreaterThan(500_000L);
        // it sent 71 of the 100 due: the achieved rate shows the loss
        assertThat(run.requested()).isEqualTo(71);
        assertThat(run.throughput()).isLessThan(0.8 * 25);
    }

    /**
     * Hand-made, exact: 10 req/s for 10 s; the server answers in 20 ms, except that it stalls from 3.0 s to 5.0 s.
     * The open model sends on schedule: requests due at 3.0 .. 4.9 s all end at 5.0 s. A one-client closed loop
     * (what hey -c 1 -q 10 does) sends the request due at 3.0 s, waits 2 s, and then sends the rest at once.
     */
    @Test
    void dueTimeLatencyIncludesAServerStallWhateverTheSendTimes() {
        double rate = 10;
        long began = 1_000_000 * MS;
        List<VegetaDriver.Result> open = new ArrayList<>();
        List<VegetaDriver.Result> late = new ArrayList<>();
        long clientFree = 0;
        for (int i = 0; i < 100; i++) {
            long due = began + (i + 1) * 100 * MS;
            open.add(new VegetaDriver.Result(due, 200, answer(due, began) - due, "", i));
            long sent = Math.max(due, clientFree);
            long end = answer(sent, began);
            late.add(new VegetaDriver.Result(sent, 200, end - sent, "", i));
            clientFree = end;
        }
        DriverRun onTime = VegetaDriver.summarize(open, rate);
        DriverRun closed = VegetaDriver.summarize(late, rate);
        // the open model: 20 requests due in [3.0, 5.0) s waited until 5.0 s, the first 2 s: 20 % of 100
        assertThat(count(onTime.latencyMicros(), 50_000)).isEqualTo(20);
        assertThat(onTime.latencyMicros().getMaxValue()).isBetween(1_998_000L, 2_002_000L);
        // the closed loop sent while it could: from the send only one request was slow ...
        assertThat(count(closed.sendLatencyMicros(), 50_000)).isEqualTo(1);
        assertThat(closed.sendLatencyMicros().getValueAtPercentile(95)).isBetween(19_900L, 20_100L);
        // ... while from the due time the same 20 requests waited as in the open model, and a few more behind them
        // while the client caught up (20 ms each)
        assertThat(count(closed.latencyMicros(), 50_000)).isBetween(20L, 30L);
        assertThat(closed.latencyMicros().getMaxValue()).isBetween(1_998_000L, 2_002_000L);
        assertThat(closed.latencyMicros().getValueAtPercentile(95)).isGreaterThan(1_000_000L);
    }

    /** When a request sent at {@code sent} is answered: 20 ms later, or 20 ms after the stall at 3.0-5.0 s ends. */
    private static long answer(long sent, long began) {
        long stallStart = began + 3_000 * MS;
        long stallEnd = began + 5_000 * MS;
        return sent >= stallStart && sent < stallEnd ? stallEnd : sent + 20 * MS;
    }

    @Test
    void findsTheStartWhenTheFirstRequestWentOutLate() {
        // began = 0; request 0 due at 100 ms went out 30 ms late, request 1 on time at 200 ms
        List<VegetaDriver.Result> results = List.of(
                new VegetaDriver.Result(130 * MS, 200, 10 * MS, "", 0),
                new VegetaDriver.Result(200 * MS, 200, 10 * MS, "", 1),
                new VegetaDriver.Result(300 * MS, 200, 10 * MS, "", 2));
        DriverRun run = VegetaDriver.summarize(results, 10);
        // request 0: answered at 140 ms, due at 100 ms: 40 ms
        assertThat(run.latencyMicros().getMaxValue()).isBetween(39_900L, 40_100L);
        assertThat(run.sendLatencyMicros().getMaxValue()).isBetween(9_990L, 10_010L);
        // from the start (0: the first request is due one interval after it) to the last answer (310 ms)
        assertThat(run.windowSeconds()).isCloseTo(0.31, within(1e-9));
    }

    @Test
    void countsHttpErrorsAndRequestsWithoutAnswer() {
        List<VegetaDriver.Result> results = List.of(
                new VegetaDriver.Result(100 * MS, 200, 10 * MS, "", 0),
                new VegetaDriver.Result(200 * MS, 503, 5 * MS, "503 Service Unavailable", 1),
                new VegetaDriver.Result(300 * MS, 0, 20_000 * MS,
                        "Get \"http://127.0.0.1:1/\": context deadline exceeded (Client.Timeout exceeded while"
                                + " awaiting headers)", 2),
                new VegetaDriver.Result(400 * MS, 0, 1 * MS, "dial tcp 127.0.0.1:1: connect: connection refused", 3));
        DriverRun run = VegetaDriver.summarize(results, 10);
        assertThat(run.requested()).isEqualTo(4);
        assertThat(run.answered()).isEqualTo(2);
        assertThat(run.ok()).isEqualTo(1);
        assertThat(run.errors())
                .containsExactlyEntriesOf(new java.util.TreeMap<>(java.util.Map.of("HTTP 503", 1L, "transport", 2L)));
        assertThat(run.latencyMicros().getTotalCount()).isEqualTo(2);
        // the timed-out request ends the window: 0 (the start) .. 300 ms + 20 s
        assertThat(run.windowSeconds()).isCloseTo(20.3, within(1e-9));
    }

    @Test
    void refusesAnEmptyResultFile() {
        assertThatThrownBy(() -> VegetaDriver.summarize(List.of(), 10)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no request");
    }

    @Test
    void commandOffersAConstantRateWithoutAWorkerCap() {
        VegetaDriver vegeta = new VegetaDriver(Optional.of(Path.of("/opt/go/bin/vegeta")));
        Load load = new Load(URI.create("http://127.0.0.1:8080/aggregate?strategy=scopeFork"), 20, 2000, null, 200.0,
                20);
        List<String> c = vegeta.command(load, Path.of("raw/01-cell-rep1"));
        assertThat(String.join(" ", c)).isEqualTo("/opt/go/bin/vegeta attack -targets 01-cell-rep1.targets -rate 200/1s"
                + " -duration 10000ms -timeout 20s -workers 20 -max-body 0 -output 01-cell-rep1.vegeta.bin");
        assertThat(c).doesNotContain("-max-workers");
        assertThat(vegeta.reproduce(load, Path.of("raw/01-cell-rep1"))).isEqualTo(
                "echo 'GET http://127.0.0.1:8080/aggregate?strategy=scopeFork' | vegeta attack -rate 200/1s"
                        + " -duration 10000ms -timeout 20s -workers 20 -max-body 0 | vegeta report");
        Load warmup = new Load(load.url(), 20, null, 5, 200.0, 0);
        assertThat(vegeta.command(warmup, Path.of("w"))).containsSequence("-duration", "5000ms")
                .containsSequence("-timeout", "0s");
    }

    @Test
    void refusesAClosedLoopAndAFractionalRate() {
        VegetaDriver vegeta = new VegetaDriver(Optional.of(Path.of("vegeta")));
        URI url = URI.create("http://127.0.0.1:8080/");
        assertThatThrownBy(() -> vegeta.command(new Load(url, 10, 100, null, null, 20), Path.of("x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a rate");
        assertThatThrownBy(() -> vegeta.command(new Load(url, 10, 100, null, 12.5, 20), Path.of("x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole requests per second");
    }

    @Test
    void aMissingVegetaSaysHowToInstallIt() {
        assertThatThrownBy(() -> new VegetaDriver(Optional.empty()).requireInstalled())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("go install github.com/tsenart/vegeta/v12@v12.13.0");
    }

    private static long count(org.HdrHistogram.Histogram h, long overMicros) {
        return h.getTotalCount() - h.getCountBetweenValues(0, overMicros);
    }
}
