package lab.fanout.bench.driver;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.system.Logs;
import lab.fanout.bench.system.Processes;

/** An external load generator (hey or ab) run as a child process; its raw output is kept next to the results. */
public abstract class LoadDriver {

    private final AtomicReference<Process> current = new AtomicReference<>();

    /** @return e.g. {@code hey} */
    public abstract String name();

    /** @return the install line shown when the tool is missing */
    public abstract String installHint();

    /** @return the command line for {@code load}; files it writes start with {@code base} */
    public abstract List<String> command(Load load, Path base);

    /** @return a shell line that repeats {@code load} by hand, for results.md */
    public String reproduce(Load load, Path base) {
        return shellLine(command(load, base));
    }

    /** @return where the tool's stdout and stderr go, e.g. {@code base.hey.csv} */
    protected abstract Path stdout(Path base);

    /** @return the run, parsed from the files starting with {@code base} */
    protected abstract DriverRun parse(Load load, Path base);

    /** @throws IllegalStateException when the tool is not on PATH, with {@link #installHint()} */
    public void requireInstalled() {
        if (!Processes.onPath(name())) {
            throw new IllegalStateException(name() + " is not installed: " + installHint());
        }
    }

    /**
     * Runs {@code load} to its end.
     *
     * @param base prefix of the files the tool writes (kept next to the results), e.g. {@code raw/03-scopeFork-rep1}
     * @throws IllegalStateException the tool failed without results (message: the end of its output)
     * @throws InterruptedException  this thread was interrupted (after {@link #stop()} the run returns what the tool
     *                               reported before it stopped)
     */
    public DriverRun run(Load load, Path base) throws InterruptedException {
        Path log = stdout(base);
        // own session: a Ctrl-C reaches only the CLI, which stops the tool itself after marking the run cancelled
        Process p = Processes.spawn(command(load, base), base.toAbsolutePath().getParent(), log, true, false);
        current.set(p);
        try {
            p.waitFor();   // returns once the JDK has reaped it: its CPU is then in the harness's children counters
        } finally {
            current.set(null);
        }
        try {
            return parse(load, base);
        } catch (RuntimeException e) {
            throw new IllegalStateException(name() + " failed (exit " + p.exitValue() + "): " + e.getMessage()
                    + "\n" + Logs.tail(log, 10), e);
        }
    }

    /** Stops a run in progress (Ctrl-C): SIGTERM to the tool. */
    public void stop() {
        Process p = current.get();
        if (p != null) {
            p.destroy();
        }
    }

    /** @return {@code base} with {@code suffix} appended to its file name */
    protected static Path with(Path base, String suffix) {
        return base.resolveSibling(base.getFileName() + suffix);
    }

    /** @return the command as a shell line, for results.md */
    public static String shellLine(List<String> command) {
        return String.join(" ", command.stream().map(a -> a.contains("?") || a.contains("&") ? "'" + a + "'" : a).toList());
    }
}
