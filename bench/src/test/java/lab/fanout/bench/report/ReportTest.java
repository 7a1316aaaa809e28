package lab.fanout.bench.report;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import lab.fanout.bench.driver.DriverRun;
import lab.fanout.bench.driver.Load;
import lab.fanout.bench.matrix.Cell;
import lab.fanout.bench.metrics.ServerFigures;
import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.run.CellResult;
import lab.fanout.bench.run.Deployment;
import lab.fanout.bench.run.Repetition;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ReportTest {

    /** Two cells that differ in pool size; the virtual-thread metric present, the pool metrics absent. */
    static List<CellResult> cells() {
        return List.of(result(1, 100, 480, 500), result(2, 10, 1.5, 1.67));
    }

    static CellResult result(int index, int pool, double rps, double bound) {
        Cell cell = new Cell("pool", Strategy.VIRTUAL_THREAD_PER_TASK, "virtual", 10, pool, 100, 200, null, 1000, null, 3, 3, 20);
        Deployment d = new Deployment("virtual", true, 10, pool, pool, 1, 2, 200);
        Load load = new Load(URI.create("http://localhost:1/x?concurrency=virtual"), 100, 1000, null, null, 20);
        Histogram h = new Histogram(3);
        h.recordValue(200_000);
        h.recordValue(250_000);
        var reps = List.of(1, 2, 3).stream().map(i -> new Repetition(i, load,
                new DriverRun(1000, 1000, (long) (rps * 2), new TreeMap<>(Map.of("HTTP 503", 3L)), 2.0, h, null),
                new ServerFigures(40.0, 12.0, null, null, 0.5, 4), 97.0, null)).toList();
        return new CellResult(index, cell, d, new Bound(bound, "clients"), reps, 80e6, "hey -n 1000 -c 100 'http://localhost:1/x'");
    }

    @Test
    void markdownShowsVaryingKnobsAsColumnsAndAbsentFiguresAsNa() {
        String md = ResultsMarkdown.render("t", List.of("Machine: test"), cells(), Map.of("pool", List.of("pool-throughput.png")), false);
        assertThat(md).contains("| Concurrency | Executor | Pool size | Req./Sec. median (min–max) | Bound (limit) | Efficiency")
                .contains("Tomcat Thread Count  : 10").doesNotContain("Http Conn. Pool Size :")
                .contains("| CompletableFuture | newVirtualThreadPerTaskExecutor | 100 | 480 (480–480) | 500 (clients) | 96 % | 200 / 250 / 250 / 250 | 9 (HTTP 503: 9)")
                .contains("| 40 / 12 | n/a / n/a | 0.50 | 80 | 97 % (n/a %) |")
                .contains("![pool-throughput.png](pool-throughput.png)")
                .contains("Reproduce one repetition: `hey -n 1000 -c 100");
    }

    @Test
    void csvHasARowPerRepetitionEveryColumnAndEmptyForAbsent(@TempDir Path dir) throws Exception {
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        cells().forEach(csv::append);
        List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(dir.resolve("results.csv"))).getRecords();
        assertThat(rows).hasSize(6);
        assertThat(rows.getFirst().toMap().keySet()).containsExactlyElementsOf(ResultsCsv.header());
        CSVRecord first = rows.getFirst();
        assertThat(first.get("pool_max_total")).isEqualTo("100");
        assertThat(first.get("throughput_req_per_s")).isEqualTo("480");
        assertThat(first.get("efficiency_pct")).isEqualTo("96");
        assertThat(first.get("peak_pool_leased")).isEmpty();
        assertThat(first.get("error_kinds")).isEqualTo("HTTP 503=3");
    }

    @Test
    void aConcurrencySweepIsDrawnAgainstConcurrency(@TempDir Path dir) throws Exception {
        List<CellResult> sweep = List.of(result(1, 100, 48, 50), result(2, 100, 90, 100)).stream()
                .map(r -> new CellResult(r.index(), new Cell("scale", r.cell().strategy(), "virtual", 10, 100,
                        r.index() * 10, 200, null, 1000, null, 3, 3, 20), r.deployment(), r.bound(), r.repetitions(),
                        r.heapAfterBytes(), r.command()))
                .toList();
        assertThat(Charts.write(dir, "scale", sweep)).hasSize(3).allSatisfy(f -> assertThat(dir.resolve(f)).isNotEmptyFile());
        assertThat(ResultsMarkdown.render("t", List.of(), sweep, Map.of(), false))
                .contains("| Concurrency | Executor | Concurrency Level | Req./Sec.");
    }

    @Test
    void chartsArePngs(@TempDir Path dir) throws Exception {
        List<String> files = Charts.write(dir, "pool", cells());
        assertThat(files).containsExactly("pool-throughput.png", "pool-latency.png", "pool-efficiency.png");
        for (String f : files) {
            byte[] png = Files.readAllBytes(dir.resolve(f));
            assertThat(png).hasSizeGreaterThan(1000).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
        }
    }
}
