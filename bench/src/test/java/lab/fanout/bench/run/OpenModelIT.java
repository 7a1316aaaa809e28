package lab.fanout.bench.run;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.fanout.bench.cli.LabCommand;
import lab.fanout.bench.driver.VegetaDriver;
import lab.fanout.bench.report.Charts;
import lab.fanout.bench.report.ResultsCsv;
import lab.fanout.bench.system.Processes;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * {@code ./lab bench} end to end with the open model: a tiny matrix of a closed-loop block (hey) and an open-model
 * block (vegeta at 10 and 20 req/s for 2 s) on the real four jars. No assertion on speed; only on what holds
 * whatever the machine: which model and driver each row says, the request counts, the downstream latency as a
 * floor, and an achieved rate that cannot exceed the offered one.
 */
class OpenModelIT {

    static final String MATRIX = """
            blocks:
              - name: closed
                strategies: [scopeFork]
                profiles: [virtual]
                concurrencies: [2]
                latenciesMs: [50]
                durationSeconds: 2
                warmupSeconds: 1
                repetitions: 2
              - name: open
                strategies: [scopeFork]
                profiles: [virtual]
                concurrencies: [2]
                latenciesMs: [50]
                ratesPerSecond: [10, 20]
                durationSeconds: 2
                warmupSeconds: 1
                repetitions: 2
            """;

    @BeforeAll
    static void driversInstalled() {
        String missing = !Processes.onPath("hey") ? "hey is not installed: apt-get install -y hey"
                : !VegetaDriver.installed() ? "vegeta is not installed: " + VegetaDriver.INSTALL
                : null;
        if (missing != null) {
            if ("true".equals(System.getenv("CI"))) {
                fail(missing + " (CI=true: this test must run)");
            }
            System.out.println("SKIPPED OpenModelIT: " + missing);
            abort(missing);
        }
    }

    @Test
    void tinyOpenModelMatrixRunsBesideTheClosedLoop(@TempDir Path tmp) throws Exception {
        Path matrix = Files.writeString(tmp.resolve("tiny-open.yaml"), MATRIX);
        Path out = tmp.resolve("out");
        System.setProperty("lab.repo", BenchIT.REPO.toString());
        System.setProperty("lab.maxWarmupSeconds", "2");   // a tiny load may never let the JIT settle

        int exit = LabCommand.commandLine().execute("bench", "--matrix", matrix.toString(), "--out", out.toString());

        assertThat(exit).isZero();
        List<CSVRecord> rows;
        try (Reader r = Files.newBufferedReader(out.resolve("results.csv"))) {
            rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r).getRecords();
        }
        assertThat(rows).hasSize(6);
        assertThat(rows.getFirst().toMap().keySet()).containsExactlyElementsOf(ResultsCsv.header());
        List<CSVRecord> closed = rows.stream().filter(r -> r.get("block").equals("closed")).toList();
        List<CSVRecord> open = rows.stream().filter(r -> r.get("block").equals("open")).toList();
        assertThat(closed).hasSize(2).allSatisfy(r -> {
            assertThat(r.get("model")).isEqualTo("closed");
            assertThat(r.get("driver")).isEqualTo("hey");
            assertThat(r.get("latency_from")).isEqualTo("send");
            assertThat(r.get("offered_rate_req_per_s")).isEmpty();
        });
        assertThat(open).hasSize(4).allSatisfy(r -> {
            assertThat(r.get("model")).isEqualTo("open");
            assertThat(r.get("driver")).isEqualTo("vegeta");
            assertThat(r.get("latency_from")).isEqualTo("due time");
            double offered = Double.parseDouble(r.get("offered_rate_req_per_s"));
            assertThat(offered).isIn(10.0, 20.0);
            // rate x 2 s, every one of them sent on schedule and reported by vegeta, answered or not
            assertThat(Long.parseLong(r.get("requests"))).isEqualTo(Math.round(offered * 2));
            assertThat(Long.parseLong(r.get("answered")) + transport(r.get("error_kinds")))
                    .isEqualTo(Math.round(offered * 2));
            // ok ÷ (start of the attack .. last answer): at most the offered rate by construction
            assertThat(Double.parseDouble(r.get("achieved_rate_req_per_s"))).isPositive().isLessThanOrEqualTo(offered);
            // the downstreams answer after 50 ms: no request can be faster, from its due time or from its send
            assertThat(Double.parseDouble(r.get("p50_ms"))).isGreaterThanOrEqualTo(50);
            assertThat(Double.parseDouble(r.get("sent_p50_ms"))).isGreaterThanOrEqualTo(50);
            assertThat(Double.parseDouble(r.get("p99_ms")))
                    .isGreaterThanOrEqualTo(Double.parseDouble(r.get("sent_p99_ms")) - 1);
            // no clients bound the open model: the offered rate is its Little's-law ceiling
            assertThat(r.get("littles_bound_limit")).isEqualTo("rate");
            assertThat(r.get("command")).startsWith("echo 'GET http://").contains("| vegeta attack")
                    .contains("-rate " + Math.round(offered) + "/1s")
                    .doesNotContain("-max-workers");
        });
        String md = Files.readString(out.resolve("results.md"));
        assertThat(md).contains("open model, vegeta (latency from each request's due time)")
                .contains("closed loop (latency from the send)")
                .contains("req/s offered (open model)")
                .contains("![" + Charts.OPEN_VS_CLOSED + ".png]");
        assertThat(out.resolve(Charts.OPEN_VS_CLOSED + ".png")).isNotEmptyFile();
        try (var raw = Files.list(out.resolve("raw"))) {
            assertThat(raw.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("-rep1.vegeta.csv"))).hasSize(2);
        }
        assertThat(Files.readString(out.resolve("environment.txt"))).contains("vegeta (open model");
    }

    private static long transport(String kinds) {
        return kinds.contains("transport=") ? Long.parseLong(kinds.replaceAll(".*transport=(\\d+).*", "$1")) : 0;
    }
}
