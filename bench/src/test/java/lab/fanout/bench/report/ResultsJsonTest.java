package lab.fanout.bench.report;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Memory;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.RunResult;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.model.Strategy;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * results.json is the lossless form of a run (issue 71): what it reads back is the run as measured, every fork and
 * repetition with its figures and its latency histograms count for count, and a histogram rebuilt from an old CSV's
 * percentiles stays marked as such.
 */
class ResultsJsonTest {

    @Test
    void aRunReadsBackAsMeasuredEveryHistogramCountForCount(@TempDir Path dir) {
        RunResult run = new RunResult(null, List.of(new RunResult.Sitting(1, 2, "./lab bench --preset quick --forks 2",
                "0123456789ab", new RunResult.Machine("AMD EPYC", 2, "7.8 GB", "Debian 13, kernel 6.12",
                        "Eclipse Adoptium 25", List.of("-Xmx512m"), "0.1.4-1", "2.4.65-1", "0.10 0.20 0.30",
                        "1.50 1.20 0.90"))),
                new RunResult.Knobs("quick", "local: the four services started by the harness", "hey", 2,
                        Map.of("fanout.deadline", "30s"), List.of("-XX:+UseZGC"), false, "0.5"),
                List.of(closedLoop(), openModel()));
        ResultsJson.write(dir, run);
        RunResult read = ResultsJson.read(dir);

        for (int c = 0; c < run.cells().size(); c++) {
            List<Repetition> written = run.cells().get(c).repetitions();
            List<Repetition> back = read.cells().get(c).repetitions();
            assertThat(back).hasSameSizeAs(written);
            for (int r = 0; r < written.size(); r++) {
                same(written.get(r).run().latencyMicros(), back.get(r).run().latencyMicros());
                if (written.get(r).run().sendLatencyMicros() != null) {
                    same(written.get(r).run().sendLatencyMicros(), back.get(r).run().sendLatencyMicros());
                }
            }
        }
        assertThat(read).isEqualTo(run);   // the records' equality: every figure, every histogram's counts
        assertThat(read.cells().getFirst().forks()).isEqualTo(2);
        assertThat(read.cells().get(1).littlesLaw().ceilings().get("clients")).as("latency 0").isInfinite();
    }

    /** A committed result migrated from its CSV (2026-12-07): histograms rebuilt from percentiles keep the mark. */
    @Test
    void aHistogramRebuiltFromPercentilesKeepsItsMark(@TempDir Path dir) throws IOException {
        RunResult migrated = ResultsJson.read(Path.of("../docs/results/database-20261126.json"));
        assertThat(migrated.migrated()).contains("five percentiles");
        assertThat(migrated.cells()).flatMap(CellResult::repetitions).isNotEmpty().allSatisfy(r ->
                assertThat(r.run().latencyMicros().getTag()).isEqualTo(DriverRun.FROM_PERCENTILES));
        ResultsJson.write(dir, new RunResult(null, List.of(), null, List.of(closedLoop(),
                migrated.cells().getFirst())));

        String json = Files.readString(dir.resolve(ResultsJson.FILE));
        assertThat(json).contains("\"source\" : \"percentiles\"").contains("\"source\" : \"measured\"");
        List<CellResult> read = ResultsJson.read(dir).cells();
        assertThat(read.getFirst().repetitions()).allSatisfy(r ->
                assertThat(r.run().latencyMicros().getTag()).as("measured").isNull());
        assertThat(read.get(1)).isEqualTo(migrated.cells().getFirst());
    }

    /**
     * Issue 71: compare and verdicts read results.json where it stands beside the CSV. The CSV here is edited to read
     * 1 req/s and a p99 of 1 ms; the comparison must show the measured 396 req/s (990 ok in 2.5 s) and not 1.0.
     * On the old code (Comparison read results.csv's columns) it showed 1.0.
     */
    @Test
    void compareReadsTheMeasuredFiguresOfResultsJsonNotTheCsvView(@TempDir Path dir) throws IOException {
        new ResultsCsv(dir.resolve("results.csv"), "local", "hey").append(closedLoop());
        ResultsJson.write(dir, new RunResult(null, List.of(), null, List.of(closedLoop())));
        Path csv = dir.resolve("results.csv");
        Files.writeString(csv, Files.readString(csv).replace(",396,", ",1,"));

        String md = Comparison.render(dir, dir);
        assertThat(md).contains("| req/s | 396.0 ").doesNotContain("| req/s | 1.0 ");
        assertThat(ResultsJson.rows(dir)).allSatisfy(row -> assertThat(row.get("throughput_req_per_s"))
                .isEqualTo("396"));
        Files.delete(dir.resolve(ResultsJson.FILE));
        assertThatThrownBy(() -> Comparison.render(dir, dir)).as("no results.json: the CSV is not read back")
                .hasMessageContaining("has no results.json beside it");
    }

    @Test
    void aFileThatIsNoResultsJsonIsRefusedNamingWhatToGive(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> ResultsJson.read(dir)).hasMessageContaining("does not exist")
                .hasMessageContaining("give a results folder");
        ResultsJson.write(dir, new RunResult(null, List.of(), null, List.of(closedLoop())));
        Path json = dir.resolve(ResultsJson.FILE);
        String text = Files.readString(json);
        Files.writeString(json, text.replaceFirst("\"hdr\" : \"[^\"]+\"", "\"hdr\" : \"bm90IGEgaGlzdG9ncmFt\""));
        assertThatThrownBy(() -> ResultsJson.read(dir)).hasMessageContaining("is not a results.json")
                .hasMessageContaining("not HdrHistogram's compressed encoding");
        Files.writeString(json, text.replaceFirst("\"measured\"", "\"guessed\""));
        assertThatThrownBy(() -> ResultsJson.read(dir)).hasMessageContaining("source is measured or percentiles");
    }

    /** A closed-loop cell in two forks of three repetitions, every figure present. */
    private static CellResult closedLoop() {
        Cell cell = Cell.custom().block("quick").profile("platform").tomcatThreads(200).poolSize(500)
                .jvmOptions(List.of("-Dx=1")).query("width=3").requests(1000).build();
        Deployment d = new Deployment("platform", false, 200, 500, 500, 2, 2, 200,
                new Deployment.Jvm(2, 256, 1, List.of("G1 Young Generation"), 2_000_000_000L, List.of("-Dx=1")), null,
                null);
        Load load = new Load(URI.create("http://127.0.0.1:1/orders?concurrency=scopeFork"), 100, 1000, null, null, 20);
        Random random = new Random(71);
        List<Repetition> reps = List.of(1, 2, 3, 4, 5, 6).stream().map(i -> new Repetition((i - 1) % 3 + 1, load,
                new DriverRun(1000, 998, 990, new TreeMap<>(Map.of("HTTP 503", 8L, "transport", 2L)), 2.5,
                        latencies(random, 200_000, 998)),
                new ServerFigures(40.0 + i, 12.0, 300.0, 2.0, 0.5, 4, 0.0,
                        new Memory(310.5, 41.0, new Memory.Snapshot(100.25, 3.0, 2.5, 120.0, 4.0)), 1.0, null,
                        new Memory.Snapshot(50, 1, 0.5, null, null)),
                97.5, 1.25, Map.of(ServiceDefaults.MAIN, 0.75, Repetition.DRIVER, 0.125), i <= 3 ? 1 : 2, i != 5))
                .toList();
        Bound littles = Bound.littlesLaw().strategy(cell.strategy()).virtualProfile(false).clients(100).latencyMs(200)
                .parallelism(2).build();
        return new CellResult(1, cell, d, littles, reps, Map.of(1, 80e6, 2, 81.5e6), "hey -n 1000 -c 100 'x'");
    }

    /** An open-model cell at latency 0 (nothing bounds it), its latency from the due time and from the send. */
    private static CellResult openModel() {
        Cell cell = Cell.custom().block("open").strategy(Strategy.REACTIVE).profile("netty").poolSize(500).dbPool(20)
                .ordersStore("r2dbc").ordersJvmOptions(List.of("-Xmx1g")).concurrency(20).latencyMs(0)
                .ratePerSecond(300.0).repetitions(1).build();
        Deployment d = new Deployment("netty", true, null, 500, 500, 2, 2, 0).withDbPool(20);
        Load load = new Load(URI.create("http://127.0.0.1:1/orders?concurrency=reactive"), 20, null, 10, 300.0, 20);
        Random random = new Random(300);
        Repetition rep = new Repetition(1, load, new DriverRun(3000, 2990, 2990, new TreeMap<>(), 10.0,
                latencies(random, 5_000, 2990), 300.0, latencies(random, 4_000, 2990)),
                new ServerFigures(null, 30.0, null, null, 1.5, 10, null, Memory.NONE, null, 4.0), null, null, Map.of());
        Bound none = Bound.littlesLaw().strategy(cell.strategy()).clients(20).tomcatThreads(null).latencyMs(0)
                .parallelism(2).ratePerSecond(300.0).build();
        return new CellResult(2, cell, d, none, List.of(rep), Map.of(), "vegeta attack -rate 300");
    }

    /** @return {@code n} response times, µs: {@code typical} with a long tail (a few 10x), as a live run records */
    private static Histogram latencies(Random random, long typical, int n) {
        Histogram h = DriverRun.histogram();
        for (int i = 0; i < n; i++) {
            double tail = random.nextDouble() < 0.01 ? 10 : 1;
            h.recordValue(Math.round(typical * tail * (1 + 0.3 * Math.abs(random.nextGaussian()))));
        }
        return h;
    }

    /** The same total and the same count at p50, p99 and p99.9 (and the value there). */
    private static void same(Histogram written, Histogram read) {
        assertThat(read.getTotalCount()).isEqualTo(written.getTotalCount()).isPositive();
        for (double p : new double[] {50, 99, 99.9}) {
            long at = written.getValueAtPercentile(p);
            assertThat(read.getValueAtPercentile(p)).as("p" + p).isEqualTo(at);
            assertThat(read.getCountAtValue(at)).as("count at p" + p).isEqualTo(written.getCountAtValue(at));
        }
    }
}
