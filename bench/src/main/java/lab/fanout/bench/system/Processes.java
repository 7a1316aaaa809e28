package lab.fanout.bench.system;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The one process runner: {@link #spawn} starts a long-lived process (services, prometheus, load drivers) with its
 * output in a log, {@link #run} runs a short command to its end, {@link #terminate} stops what {@code spawn} started.
 * Output always goes to a file, never to a pipe: nobody drains a pipe once the CLI exits, or while it waits.
 */
public final class Processes {

    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Redirect NO_INPUT = Redirect.from(new File("/dev/null"));

    private Processes() {
    }

    /**
     * @param detached true: in a new session ({@code setsid}), so no SIGINT or SIGHUP from the CLI's terminal reaches
     *                 it and it outlives the CLI
     * @param log      where stdout and stderr go, appended to or replaced
     */
    public static Process spawn(List<String> command, Path workDir, Path log, boolean detached, boolean appendLog) {
        List<String> full = new ArrayList<>(detached ? List.of("setsid") : List.of());
        full.addAll(command);
        try {
            Files.createDirectories(log.getParent());
            return new ProcessBuilder(full).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectInput(NO_INPUT)
                    .redirectOutput(appendLog ? Redirect.appendTo(log.toFile()) : Redirect.to(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", full) + ": " + e.getMessage(), e);
        }
    }

    /** How a command ended: exit code -1 when it did not finish in time (it was killed); output: stdout and stderr. */
    public record Result(boolean finished, int exitCode, String output) {

        public boolean ok() {
            return finished && exitCode == 0;
        }
    }

    /**
     * Runs {@code command} to its end, stdin closed, killed when {@code timeout} passes.
     *
     * @param dir working directory, or null for the CLI's
     * @throws UncheckedIOException  it cannot start (e.g. not on PATH)
     * @throws IllegalStateException interrupted while waiting (it is killed, the interrupt flag kept)
     */
    public static Result run(List<String> command, Path dir, Duration timeout) {
        Path out = null;
        Process p = null;
        try {
            out = Files.createTempFile("lab-run-", ".out");
            p = new ProcessBuilder(command).directory(dir == null ? null : dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(NO_INPUT).start();
            boolean finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                p.destroyForcibly();
            }
            return new Result(finished, finished ? p.exitValue() : -1, Files.readString(out));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        } finally {
            if (out != null) {
                out.toFile().delete();
            }
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

    /** SIGTERM to all at once (graceful shutdown), wait up to 30 s for all, then SIGKILL the rest. */
    public static void terminate(List<ProcessHandle> handles) {
        terminate(handles, STOP_TIMEOUT);
    }

    /** As above with another timeout. */
    public static void terminate(List<ProcessHandle> handles, Duration timeout) {
        handles.forEach(ProcessHandle::destroy);
        Poll.reached(timeout, Duration.ofMillis(100), () -> handles.stream().noneMatch(ProcessHandle::isAlive));
        handles.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** @return whether {@code tool} is an executable on PATH */
    public static boolean onPath(String tool) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)));
    }
}
