package lab.fanout.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bench's packages depend one way (issue 25): cli -> run -> driver/metrics/matrix -> system -> model, with faults and
 * profile beside run (faults writing its tables with report's one markdown writer), overload beside it too (it
 * borrows run's ETA format, report's charts and markdown writer), and report reading
 * results alone (model). Read from the sources' imports, as main-service's
 * PackageDependenciesTest does, so a new edge fails here with its file named; an edge this map does not list is
 * either a mistake or a decision to write down here.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/lab/fanout/bench");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?lab\\.fanout\\.bench\\.(\\w+)\\.",
            Pattern.MULTILINE);
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            // the composition root: turns options into a matrix, a target, a driver and a report
            Map.entry("cli", Set.of("run", "faults", "overload", "profile", "report", "driver", "matrix", "metrics",
                    "system", "model")),
            Map.entry("faults", Set.of("report", "metrics", "system", "model")),   // report's MarkdownTable
            Map.entry("overload", Set.of("run", "report", "driver", "metrics", "system", "model")),
            Map.entry("profile", Set.of("metrics", "system", "model")),
            Map.entry("report", Set.of("model")),
            Map.entry("run", Set.of("driver", "metrics", "matrix", "system", "model")),
            Map.entry("driver", Set.of("system", "model")),
            Map.entry("metrics", Set.of("system", "model")),
            Map.entry("matrix", Set.of("model")),
            Map.entry("system", Set.of("model")),
            Map.entry("model", Set.of()));

    @Test
    void packagesDependOneWay() throws IOException {
        assertThat(imports().stream().filter(edge -> !ALLOWED.get(edge.from()).contains(edge.to()))
                .map(edge -> edge.file() + " (" + edge.from() + ") imports " + edge.to()).sorted())
                .isEmpty();
    }

    /** One import of another bench package. */
    private record Import(String file, String from, String to) {
    }

    /** @return every import in a package of bench's sources of another package of bench */
    private static List<Import> imports() throws IOException {
        List<Import> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.getParent() != null && !f.getParent().equals(SOURCES)
                    && f.toString().endsWith(".java")).toList()) {
                String from = SOURCES.relativize(file).getName(0).toString();
                IMPORT.matcher(Files.readString(file)).results().map(m -> m.group(1)).filter(to -> !to.equals(from))
                        .forEach(to -> found.add(new Import(file.getFileName().toString(), from, to)));
            }
        }
        return found;
    }

    @Test
    void allowedEdgesHaveNoCycle() {
        for (String start : ALLOWED.keySet()) {
            assertThat(reachable(start, new HashSet<>())).as("packages reachable from " + start).doesNotContain(start);
        }
    }

    @Test
    void everyPackageIsListedAndSaysItsRole() throws IOException {
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            assertThat(dirs.filter(Files::isDirectory).map(dir -> dir.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(ALLOWED.keySet());
        }
        for (String pkg : ALLOWED.keySet()) {
            assertThat(SOURCES.resolve(pkg).resolve("package-info.java")).as(pkg).exists();
        }
    }

    private static Set<String> reachable(String from, Set<String> seen) {
        for (String next : ALLOWED.get(from)) {
            if (seen.add(next)) {
                reachable(next, seen);
            }
        }
        return seen;
    }
}
