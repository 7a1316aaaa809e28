package lab.fanout.bench.system;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Starting and stopping the processes the CLI owns: services, prometheus, load drivers. */
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
