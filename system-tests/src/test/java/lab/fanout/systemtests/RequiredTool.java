package lab.fanout.systemtests;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A program a test needs. Missing: the test is skipped with the install line, except under {@code CI=true}, where it
 * fails, so that CI can never pass by skipping.
 */
final class RequiredTool {

    private RequiredTool() {
    }

    /** @return the program's path on PATH; skips (fails on CI) when there is none */
    static Path onPath(String command, String installLine) {
        Optional<Path> found = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(dir -> Path.of(dir, command))
                .filter(Files::isExecutable)
                .findFirst();
        if (found.isEmpty()) {
            missing(command + " is not on PATH; install it: " + installLine);
        }
        return found.orElseThrow();
    }

    /** Skips (fails on CI) when {@code file} does not exist. */
    static void file(Path file, String installLine) {
        if (!Files.exists(file)) {
            missing(file + " is missing; install it: " + installLine);
        }
    }

    private static void missing(String message) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail(message + " (CI=true: a missing tool fails instead of skipping)");
        }
        Assumptions.abort(message);
    }
}
