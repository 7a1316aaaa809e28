package lab.fanout.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The repository these tests check (system property {@code fanout.root}, set by the module's pom) and the tools
 * they run. A missing tool skips the test with the fix when the environment variable CI is unset, and fails it
 * when CI=true, so that CI never passes by skipping.
 */
final class Repo {

    static final Path ROOT = Path.of(System.getProperty("fanout.root", "..")).toAbsolutePath().normalize();

    /** The project version, i.e. the tag of the images the build produces. */
    static final String VERSION = System.getProperty("fanout.version", "unknown");

    private Repo() {
    }

    static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The kustomize entry points: every folder under k8s/ and grafana/ with a kustomization that is not a Component
     * (components render through k8s/tests/*). scripts/check-k8s.sh renders the same set.
     *
     * @return paths relative to the repository root, e.g. {@code k8s/tests/with-load-test}
     */
    static List<String> entryPoints() {
        try (Stream<Path> files = Stream.concat(Files.walk(path("k8s")), Files.walk(path("grafana")))) {
            return files.filter(f -> f.getFileName().toString().equals("kustomization.yaml"))
                    .filter(f -> !f.toString().contains("/.cache/"))
                    .filter(f -> !read(f).lines().anyMatch("kind: Component"::equals))
                    .map(f -> ROOT.relativize(f.getParent()).toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The entry points that are whole deployments: k8s/, each combination under k8s/tests/ and each overlay under
     * k8s/overlays/ (e.g. small). The other entry points are building blocks (e.g. grafana/,
     * base/main-service-platform) that refer to what k8s/ adds.
     */
    static List<String> deployments() {
        return entryPoints().stream()
                .filter(e -> e.equals("k8s") || e.startsWith("k8s/tests/") || e.startsWith("k8s/overlays/")).toList();
    }

    /** Skips (locally) or fails (CI=true) the calling test, saying how to get what is missing. */
    static void missing(String what) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(what + " (CI=true: this check must not be skipped)");
        }
        abort(what);
    }

    /**
     * Runs a command in the repository root.
     *
     * @return its standard output; fails the test with its standard error when it exits non-zero
     */
    static String run(List<String> command, String installHint) {
        return run(command, installHint, Duration.ofMinutes(2));
    }

    /**
     * Runs a command in the repository root.
     *
     * @return its standard output; fails the test with its standard error when it exits non-zero or outlasts
     * {@code timeout}
     */
    static String run(List<String> command, String installHint, Duration timeout) {
        Process process;
        try {
            process = new ProcessBuilder(command).directory(ROOT.toFile()).start();
        } catch (IOException e) {
            missing(command.getFirst() + " not found: " + installHint);
            throw new AssertionError("unreachable");
        }
        try {
            process.getOutputStream().close();
            String[] err = new String[1];
            Thread stderr = Thread.ofVirtual().start(() -> err[0] = readAll(process.getErrorStream()));
            String out = readAll(process.getInputStream());
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " did not finish within " + timeout);
            }
            stderr.join();
            if (process.exitValue() != 0) {
                fail(String.join(" ", command) + " exited " + process.exitValue() + ":\n" + err[0]);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A command's exit status and its standard output and error together. */
    record Ran(int status, String output) {
    }

    /**
     * Runs a command in the repository root with {@code env} added to the environment, whatever its exit status.
     *
     * @return its status and output; fails the test when it outlasts 2 minutes
     */
    static Ran exec(Map<String, String> env, String... command) {
        ProcessBuilder builder = new ProcessBuilder(List.of(command)).directory(ROOT.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            String output = readAll(process.getInputStream());
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " did not finish within 2 minutes");
            }
            return new Ran(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String readAll(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
