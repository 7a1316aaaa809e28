package lab.fanout.systemtests;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import lab.fanout.systemtests.Dashboards.Query;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test 2: every PromQL expression of every panel and variable parses, checked by Prometheus' own parser
 * ({@code promtool check rules} on a rules file with one recording rule per expression), after Grafana's variables
 * are replaced (see {@link Dashboards}).
 */
class DashboardPromqlTest {

    /**
     * Per test, not in {@code @BeforeAll}: a missing promtool then skips the two tests that need it, each counted as
     * skipped (an abort in {@code @BeforeAll} reads "Tests run: 0"), and the range check still runs.
     */
    static Path promtool() {
        return RequiredTool.onPath("promtool", "apt-get install -y prometheus");
    }

    @Test
    void everyExpressionParses(@TempDir Path dir) throws Exception {
        promtool();
        List<Query> queries = Dashboards.queries();
        assertThat(queries).hasSizeGreaterThan(20);
        Result result = checkRules(dir, queries.stream().map(Query::promql).toList());
        String legend = IntStream.range(0, queries.size())
                .mapToObj(i -> "dashboard:q" + i + " = " + queries.get(i).where()).collect(Collectors.joining("\n"));
        assertThat(result.exit()).as(result.output() + "\nrules:\n" + legend).isZero();
        assertThat(result.output()).contains("SUCCESS: " + queries.size() + " rules found");
    }

    /** The check is not vacuous: a broken expression fails it. */
    @Test
    void promtoolRejectsABrokenExpression(@TempDir Path dir) throws Exception {
        promtool();
        Result result = checkRules(dir, List.of("sum by (le (rate(http_server_requests_seconds_bucket[1m]))"));
        assertThat(result.exit()).isNotZero();
        assertThat(result.output()).contains("parse error");
    }

    /** The issue asks for $__rate_interval in rates: a hard-coded window would break at other scrape intervals. */
    @Test
    void everyRangeIsTheRateInterval() {
        Pattern range = Pattern.compile("\\[([^]]*)]");
        assertThat(Dashboards.queries()).allSatisfy(q -> assertThat(range.matcher(q.expr()).results()
                .map(m -> m.group(1))).as(q.where()).allMatch("$__rate_interval"::equals));
    }

    record Result(int exit, String output) {
    }

    static Result checkRules(Path dir, List<String> expressions) throws Exception {
        // JSON is YAML, and it quotes every expression safely
        String rules = IntStream.range(0, expressions.size())
                .mapToObj(i -> "{\"record\": \"dashboard:q" + i + "\", \"expr\": " + jsonString(expressions.get(i)) + "}")
                .collect(Collectors.joining(",\n", "{\"groups\": [{\"name\": \"dashboards\", \"rules\": [\n", "]}]}\n"));
        Path file = Files.writeString(dir.resolve("dashboards.rules.yml"), rules);
        Process process = new ProcessBuilder(promtool().toString(), "check", "rules", file.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }

    private static String jsonString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
