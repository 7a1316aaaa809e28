package lab.fanout.systemtests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test 1: every dashboard type-checks against Grafana's published schema, through grafana/check-dashboards.mjs
 * (npm {@code @grafana/schema} + {@code typescript}, pinned in grafana/package-lock.json; {@code npm ci} in grafana/
 * installs them).
 */
class DashboardSchemaTest {

    static Path node;

    /** Per test, not in {@code @BeforeAll}: a missing tool then counts each test as skipped, not "Tests run: 0". */
    @BeforeEach
    void tools() {
        node = RequiredTool.onPath("node", "apt-get install -y nodejs npm");
        RequiredTool.file(Repo.GRAFANA.resolve("node_modules/typescript/bin/tsc"), "(cd grafana && npm ci)");
        RequiredTool.file(Repo.GRAFANA.resolve("node_modules/@grafana/schema/package.json"), "(cd grafana && npm ci)");
    }

    @Test
    void everyDashboardMatchesGrafanasSchema() throws Exception {
        Result result = check(Dashboards.files());
        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains(Dashboards.files().size() + " dashboard(s) match @grafana/schema");
    }

    /** The check is not vacuous: a misspelt key (gridpos) and a wrong enum value fail it. */
    @Test
    void rejectsAMisspeltKeyAndAWrongEnumValue(@TempDir Path dir) throws Exception {
        String json = Files.readString(Dashboards.files().getFirst())
                .replaceFirst("\"gridPos\"", "\"gridpos\"")
                .replaceFirst("\"mode\": \"absolute\"", "\"mode\": \"absolut\"");
        Path broken = Files.writeString(dir.resolve("broken.json"), json);
        Result result = check(List.of(broken));
        assertThat(result.exit()).as(result.output()).isEqualTo(1);
        assertThat(result.output()).contains("'\"gridpos\"' does not exist").contains("\"absolut\"");
    }

    record Result(int exit, String output) {
    }

    static Result check(List<Path> dashboards) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(node.toString(), "check-dashboards.mjs"));
        dashboards.forEach(d -> command.add(d.toString()));
        Process process = new ProcessBuilder(command).directory(Repo.GRAFANA.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("check-dashboards.mjs finished in 120 s").isTrue();
        return new Result(process.exitValue(), output);
    }
}
