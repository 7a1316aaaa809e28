package lab.fanout.bench.report;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import lab.fanout.bench.model.Bound;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.ServerFigures;
import lab.fanout.bench.model.Strategy;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

import static org.assertj.core.api.Assertions.assertThat;

/** Rows and the chart that set the open model (vegeta) beside the closed loop (hey). */
class OpenVsClosedTest {

    static final Deployment PLATFORM_40 = new Deployment("platform", false, 40, 2000, 2000, 1, 2, 200);

    /** A closed-loop cell at c clients: latency from the send, about c ÷ 200 req/s past the bound. */
    static CellResult closed(int index, int clients, double rps, long p99Micros) {
        Cell cell = Cell.custom().block("closed-loop").strategy(Strategy.VIRTUAL_THREAD_PER_TASK).profile("platform")
                .tomcatThreads(40).poolSize(2000).concurrency(clients).repetitions(1).build();
        Load load = new Load(URI.create("http://127.0.0.1:1/x"), clients, 2000, null, null, 20);
        DriverRun run = new DriverRun(2000, 2000, Math.round(rps * 10), new TreeMap<>(), 10.0,
                histogram(200_000, p99Micros));
        return result(index, cell, load, run, Bound.littlesLaw().strategy(cell.strategy()).virtualProfile(false)
                .clients(clients).tomcatThreads(40).pool(2000).latencyMs(200).build());
    }

    /** An open-model cell: latency from the due time, a queue past the bound. */
    static CellResult open(int index, double rate, double achieved, long p99Micros) {
        Cell cell = Cell.custom().block("open-model").strategy(Strategy.VIRTUAL_THREAD_PER_TASK).profile("platform")
                .tomcatThreads(40).poolSize(2000).concurrency(20).ratePerSecond(rate).repetitions(1).build();
        Load load = new Load(URI.create("http://127.0.0.1:1/x"), 20, (int) (rate * 10), null, rate, 20);
        long requested = Math.round(rate * 10);
        long answered = Math.round(achieved * 10);   // the rest timed out: vegeta's code 0
        DriverRun run = new DriverRun(requested, answered, answered, requested > answered
                ? new TreeMap<>(Map.of("transport", requested - answered)) : new TreeMap<>(),
                10.0, histogram(210_000, p99Micros), rate, histogram(205_000, 260_000));
        return result(index, cell, load, run,
                Bound.littlesLaw().strategy(cell.strategy()).virtualProfile(false).clients(Integer.MAX_VALUE)
                        .tomcatThreads(40).pool(2000).latencyMs(200).ratePerSecond(rate).build());
    }

    static Histogram histogram(long p50Micros, long p99Micros) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(p50Micros, 98);
        h.recordValueWithCount(p99Micros, 2);
        return h;
    }

    static CellResult result(int index, Cell cell, Load load, DriverRun run, Bound bound) {
        var rep = new Repetition(1, load, run, new ServerFigures(60.0, null, null, null, 1.0, 2), 80.0, null,
                Map.<String, Double>of());
        return new CellResult(index, cell, PLATFORM_40, bound, List.of(rep), Map.of(), "x");
    }

    @Test
    void theChartPutsBothModelsOverTheSameOfferedLoad() {
        List<CellResult> cells = List.of(closed(1, 20, 100, 220_000), closed(2, 48, 200, 260_000),
                open(3, 100, 99, 230_000), open(4, 240, 195, 2_400_000));

        List<XYChart> charts = Charts.openVsClosedCharts(cells).orElseThrow();

        XYChart latency = charts.get(0);
        assertThat(latency.getSeriesMap().keySet()).containsExactly("open model (vegeta) p99",
                "open model (vegeta) p50", "closed loop p99", "closed loop p50");
        // closed: c ÷ ideal latency, 20 ÷ 0.2 s and 48 ÷ 0.2 s; open: the offered rates
        assertThat(latency.getSeriesMap().get("closed loop p99").getXData()).containsExactly(100.0, 240.0);
        assertThat(latency.getSeriesMap().get("open model (vegeta) p99").getXData()).containsExactly(100.0, 240.0);
        assertThat(latency.getSeriesMap().get("open model (vegeta) p99").getYData()[1]).isGreaterThan(2_000);
        assertThat(latency.getSeriesMap().get("closed loop p99").getYData()[1]).isLessThan(300);
        XYChart throughput = charts.get(1);
        assertThat(throughput.getSeriesMap().keySet()).containsExactly("open model (vegeta)", "closed loop", "offered");
        assertThat(throughput.getSeriesMap().get("open model (vegeta)").getYData()[1]).isEqualTo(195);
    }

    @Test
    void noChartWithoutBothModels(@TempDir Path dir) {
        assertThat(Charts.openVsClosed(dir, List.of(closed(1, 20, 100, 220_000)))).isEmpty();
        assertThat(Charts.openVsClosed(dir, List.of(open(1, 100, 99, 230_000)))).isEmpty();
    }

    @Test
    void theChartIsOnePngWithTwoPanels(@TempDir Path dir) throws Exception {
        Charts.initialize();
        var file = Charts.openVsClosed(dir, List.of(closed(1, 20, 100, 220_000), open(2, 100, 99, 230_000)));
        assertThat(file).contains(Charts.OPEN_VS_CLOSED + ".png");
        var image = javax.imageio.ImageIO.read(dir.resolve(file.orElseThrow()).toFile());
        assertThat(image.getWidth()).isEqualTo(2 * Charts.WIDTH);
    }

    @Test
    void csvRowsSayTheModelTheDriverAndWhereLatencyCountsFrom(@TempDir Path dir) throws Exception {
        ResultsCsv csv = new ResultsCsv(dir.resolve("results.csv"), "local", "hey");
        csv.append(closed(1, 48, 200, 260_000));
        csv.append(open(2, 240, 195, 2_400_000));
        List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(dir.resolve("results.csv"))).getRecords();
        assertThat(rows.get(0).toMap()).containsEntry("model", "closed").containsEntry("driver", "hey")
                .containsEntry("latency_from", "send").containsEntry("offered_rate_req_per_s", "")
                .containsEntry("sent_p99_ms", "");
        assertThat(rows.get(1).toMap()).containsEntry("model", "open").containsEntry("driver", "vegeta")
                .containsEntry("latency_from", "due time").containsEntry("offered_rate_req_per_s", "240")
                .containsEntry("achieved_rate_req_per_s", "195").containsEntry("bound_limit", "request threads");
        // HdrHistogram keeps 3 significant digits
        assertThat(Double.parseDouble(rows.get(1).get("sent_p99_ms")))
                .isCloseTo(260, org.assertj.core.api.Assertions.within(0.5));
        assertThat(Double.parseDouble(rows.get(1).get("p99_ms"))).isGreaterThan(2_000);
    }

    @Test
    void markdownSaysWhichModelEachBlockIs() {
        String md = ResultsMarkdown.render("t", List.of(),
                List.of(closed(1, 48, 200, 260_000), open(2, 240, 195, 2_400_000)), Map.of(), false);
        assertThat(md).contains("Load model           : closed loop (latency from the send)")
                .contains("Load model           : open model, vegeta (latency from each request's due time)")
                .contains("Offered rate         : 240 req/s offered (open model)")
                .contains("⚠ rate not sustained");
    }
}
