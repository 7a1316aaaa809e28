package lab.fanout.bench.overload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import lab.fanout.bench.model.Strategy;
import lab.fanout.bench.report.MarkdownTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The overload preset's table: medians over forks, a death counted, not hidden. */
class OverloadReportTest {

    static final OverloadCell TEN_TIMES = new OverloadCell("virtual", "off", Strategy.VIRTUAL_THREAD_PER_TASK, 10.0);

    static OverloadReport.Row row(int fork, double goodput, boolean survived, int oom) {
        Outcomes o = new Outcomes(8000, 600, 0, new TreeMap<>(Map.of("refused", 7400L)), goodput, 2100.0, 9000.0,
                null, null);
        return new OverloadReport.Row(fork, TEN_TIMES, o, survived ? 300.0 : 511.0, survived, oom, survived, 90.0,
                2.0);
    }

    @Test
    void aLineGivesMediansWithTheirIntervalAndCountsTheForksThatDied() {
        String line = line(TEN_TIMES, List.of(row(1, 10, false, 1), row(2, 30, true, 0),
                row(3, 20, false, 1)));
        assertThat(line)
                .startsWith("| off | virtual-thread executor | 10x 500.0 | 20.0 (10.0–30.0) | 40 (20–60) % | 0 % |")
                .contains("| 93 % (refused 22200) | 2100 | 9000 | – |")
                .contains("| 511 (300–511) | 1/3 | 2 | 0/3 |  | 90 (2) |");
    }

    @Test
    void writesTheTableTheCsvAndAChartPerProfile(@TempDir Path dir) throws Exception {
        OverloadReport report = new OverloadReport(dir, Path.of("."));
        report.add(row(1, 10, false, 1));
        report.add(row(2, 30, true, 0));
        String md = report.write();
        assertThat(md).contains("### virtual request threads").contains("![virtual](overload-virtual.png)");
        assertThat(Files.readAllLines(dir.resolve(OverloadReport.CSV))).hasSize(3)
                .element(1).asString().startsWith("1,virtual,off,completableFutureWithVirtualTaskExecutor,10x,500.0,");
        assertThat(dir.resolve("overload-virtual.png")).isNotEmptyFile();
        Outcomes o = row(3, 20, true, 0).outcomes();
        report.add(new OverloadReport.Row(3, new OverloadCell("netty", "off", Strategy.REACTIVE, 10.0), o, 300.0, true,
                0, true, 90.0, 2.0));
        // netty has no pool of request threads to name: its section says the server
        assertThat(report.write()).contains("### netty: WebFlux on Reactor Netty")
                .doesNotContain("netty request threads").contains("![netty](overload-netty.png)");
    }

    /** A second run with the same --out adds its forks to the first's: every figure read back as the table shows it. */
    @Test
    void anEarlierRunsCsvIsReadBackAndItsForksCount(@TempDir Path dir) {
        OverloadReport first = new OverloadReport(dir, Path.of("."));
        Outcomes spike = new Outcomes(4000, 3000, 900, new TreeMap<>(Map.of("HTTP 503 pool-exhausted", 3L,
                "timeout", 97L)), 48.25, 2010.0, 2900.0, 4.0, 12.0);
        first.add(new OverloadReport.Row(1, new OverloadCell("platform", "fixed", Strategy.BOUNDED_POOL, null), spike,
                null, true, 0, false, 95.0, null));
        first.add(row(1, 10, false, 1));
        first.add(row(2, 30, true, 0));

        OverloadReport second = new OverloadReport(dir, Path.of("."));

        assertThat(second.forksDone()).isEqualTo(2);
        List<OverloadReport.Row> read = OverloadReport.read(dir.resolve(OverloadReport.CSV));
        assertThat(read).hasSize(3);
        OverloadReport.Row back = read.getFirst();
        assertThat(back.cell()).isEqualTo(new OverloadCell("platform", "fixed", Strategy.BOUNDED_POOL, null));
        assertThat(back.outcomes()).isEqualTo(new Outcomes(4000, 3000, 900, spike.otherErrors(), 48.3, 2010.0,
                2900.0, 4.0, 12.0));
        assertThat(back.peakHeapMiB()).isNull();
        assertThat(back.drained()).isFalse();
        assertThat(back.othersPercent()).isNull();
        assertThat(read.get(1).cell()).isEqualTo(TEN_TIMES);
        assertThat(line(TEN_TIMES, read.subList(1, 3)))
                .isEqualTo(line(TEN_TIMES, List.of(row(1, 10, false, 1), row(2, 30, true, 0))));
    }

    @Test
    void aCsvOfAnotherVersionIsRefusedWithTheFix(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(OverloadReport.CSV), "fork,profile,goodput\n1,virtual,10\n");
        assertThatThrownBy(() -> new OverloadReport(dir, Path.of("."))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("choose another --out");
    }

    private static String line(OverloadCell cell, List<OverloadReport.Row> rows) {
        return MarkdownTable.line(OverloadReport.cells(cell, rows));
    }
}
