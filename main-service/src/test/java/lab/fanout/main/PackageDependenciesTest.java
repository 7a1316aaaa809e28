package lab.fanout.main;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * main-service's packages depend one way, webflux -> web -> strategy -> client -> config (and admission -> config,
 * strategy -> config): the Spring MVC controller and the server-neutral request (web.Backoffice) under the WebFlux one,
 * with no cycle (gh-15 item 10: client
 * and config imported each other). Read from the sources' imports, so a new cycle fails here with its file named.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/lab/fanout/main");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?lab\\.fanout\\.main\\.(\\w+)\\.", Pattern.MULTILINE);
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "admission", Set.of("config"),
            "webflux", Set.of("web", "strategy"),
            "web", Set.of("strategy", "client", "config"),
            "strategy", Set.of("client", "config"),   // config: the bounded pool's size
            "client", Set.of("config"),
            "config", Set.of());

    @Test
    void packagesDependOneWay() throws IOException {
        Set<String> violations = new TreeSet<>();
        for (var entry : ALLOWED.entrySet()) {
            try (Stream<Path> files = Files.list(SOURCES.resolve(entry.getKey()))) {
                for (Path file : files.toList()) {
                    Matcher imported = IMPORT.matcher(Files.readString(file));
                    while (imported.find()) {
                        String target = imported.group(1);
                        if (!target.equals(entry.getKey()) && !entry.getValue().contains(target)) {
                            violations.add(file.getFileName() + " (" + entry.getKey() + ") imports " + target);
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void everyPackageIsListed() throws IOException {
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            assertThat(dirs.filter(Files::isDirectory).map(dir -> dir.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(ALLOWED.keySet());
        }
    }
}
