package lab.fanout.systemtests;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A program a test needs. Missing: the test is skipped, and says so in the build output with the install line,
 * except under {@code CI=true}, where it fails, so that CI can never pass by skipping.
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
        missing(message, "true".equalsIgnoreCase(System.getenv("CI")), caller(), System.out);
    }

    /**
     * Fails under CI; otherwise prints the skip and its install line where the build output shows it, then aborts the
     * test. Why print: Surefire counts an abort in {@code @BeforeAll} as "Tests run: 0" and one in a test as "Skipped",
     * and shows the reason in neither, so a machine without the tool would pass the check silently (gh-13 part 4).
     *
     * @param test the test class, for the printed line
     */
    static void missing(String message, boolean ci, String test, PrintStream out) {
        if (ci) {
            Assertions.fail(message + " (CI=true: a missing tool fails instead of skipping)");
        }
        out.println(skipLine(test, message));
        out.flush();
        Assumptions.abort(message);
    }

    /** @return e.g. {@code SKIPPED DashboardPromqlTest: promtool is not on PATH; install it: apt-get install -y prometheus} */
    static String skipLine(String test, String message) {
        return "SKIPPED " + test + ": " + message + " (the check did not run; under CI=true this fails)";
    }

    /** @return the simple name of the test class that asked for the tool */
    private static String caller() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
                        .filter(c -> c != RequiredTool.class).findFirst())
                .map(Class::getSimpleName).orElse("a test");
    }
}
