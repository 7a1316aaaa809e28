package lab.fanout.bench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import lab.fanout.bench.report.Report;
import lab.fanout.bench.report.ResultsJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every committed {@code ./lab bench} result under docs/results whose results.json is beside it (X.md and X.json)
 * shows the tables today's report code writes from that JSON ({@code ./lab report}), so that a table cannot disagree
 * with its data or with the report code, as quick-forks5-20261125.md's p99 once did (259 ms against its CSV's 253.3).
 */
class CommittedTablesTest {

    @Test
    void everyCommittedResultShowsTheTablesItsJsonGives() throws IOException {
        List<Path> checked = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        try (Stream<Path> files = Files.list(DocLinksTest.ROOT.resolve("docs/results"))) {
            for (Path md : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                Path json = md.resolveSibling(md.getFileName().toString().replaceFirst("\\.md$", ".json"));
                String text = Files.readString(md);
                if (!Files.isRegularFile(json) || !text.startsWith("# fanout-lab benchmark")) {
                    continue;   // no results kept (runs before 2026-11-24), or another kind of page
                }
                var cells = ResultsJson.read(json).cells();
                checked.add(md);
                if (!Report.rewrite(text, cells).equals(text)) {
                    stale.add(md.getFileName() + ": run ./lab report docs/results/" + json.getFileName());
                }
            }
        }
        assertThat(checked).as("committed results with their results.json").hasSizeGreaterThan(10);
        assertThat(stale).as("committed tables that differ from what their JSON gives today").isEmpty();
    }
}
