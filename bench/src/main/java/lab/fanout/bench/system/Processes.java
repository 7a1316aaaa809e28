package lab.fanout.bench.system;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The one process runner over {@link ProcessBuilder}: {@link #spawn} starts a long-lived process (services,
 * prometheus, load drivers) with its output in a log; {@link #run} runs a short command to its end and returns what it
 * printed; {@link #terminate} stops what {@code spawn} started.
 */
public final class Processes {

    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private Processes() {
    }

    /**
     * @param detached true: in a new session ({@code setsid}), so no SIGINT or SIGHUP from the CLI's terminal reaches
     *                 it and it outlives the CLI
     * @param log      stdout and stderr go here, never to a pipe: nobody would drain a pipe once the CLI exits
     */
    public static Process spawn(List<String> command, Path workDir, Path log, boolean detached, boolean appendLog) {
        List<String> full = new ArrayList<>();
        if (detached) {
            full.add("setsid");
        }
        full.addAll(command);
        try {
            Files.createDirectories(log.getParent());
            return new ProcessBuilder(full)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(appendLog ? ProcessBuilder.Redirect.appendTo(log.toFile())
                            : ProcessBuilder.Redirect.to(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", full) + ": " + e.getMessage(), e);
        }
    }

    /**
     * What a finished command printed and how it ended.
     *
     * @param finished whether it ended within the timeout (else it was killed)
     * @param exitCode its exit code; -1 when not finished
     * @param output   stdout and stderr together, UTF-8
     */
    public record Result(boolean finished, int exitCode, String output) {

        public boolean ok() {
            return finished && exitCode == 0;
        }
    }

    /**
     * Runs {@code command} to its end: stdin closed, stdout and stderr into one temporary file (no pipe to drain, so
     * the timeout holds whatever it prints), killed when {@code timeout} passes.
     *
     * @param dir working directory, or null for the CLI's
     * @throws UncheckedIOException  it cannot start (e.g. not on PATH)
     * @throws IllegalStateException interrupted while waiting (it is killed, the interrupt flag kept)
     */
    public static Result run(List<String> command, Path dir, Duration timeout) {
        Path out = null;
        try {
            out = Files.createTempFile("lab-run-", ".out");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Process p = (dir == null ? pb : pb.directory(dir.toFile())).start();
            boolean finished = waitFor(p, timeout, command);
            return new Result(finished, finished ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(out);
        }
    }

    /** @return its output, trimmed, when it could start and exited 0 within {@code timeout}; else empty (a probe) */
    public static Optional<String> output(Path dir, Duration timeout, String... command) {
        try {
            Result r = run(List.of(command), dir, timeout);
            return r.ok() ? Optional.of(r.output().trim()) : Optional.empty();
        } catch (UncheckedIOException e) {
            return Optional.empty();
        }
    }

    private static boolean waitFor(Process p, Duration timeout, List<String> command) {
        try {
            if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
            p.destroyForcibly();
            return false;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // a temporary file left in /tmp: nothing to recover
        }
    }

    /** SIGTERM to all at once (graceful shutdown), wait up to 30 s for all, then SIGKILL the rest. */
    public static void terminate(List<ProcessHandle> handles) {
        terminate(handles, STOP_TIMEOUT);
    }

    /** SIGTERM to all at once, wait up to {@code timeout} for all, then SIGKILL the rest. */
    public static void terminate(List<ProcessHandle> handles, Duration timeout) {
        handles.forEach(ProcessHandle::destroy);
        Poll.reached(timeout, Duration.ofMillis(100), () -> handles.stream().noneMatch(ProcessHandle::isAlive));
        handles.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** @return whether {@code tool} is an executable on PATH */
    public static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
