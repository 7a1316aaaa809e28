package lab.fanout.bench.driver;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.system.CpuGroups;
import lab.fanout.bench.system.Logs;
import lab.fanout.bench.system.Processes;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * An external load generator run as a child process, its raw output kept next to the results. A driver gives its
 * command line and reads what the tool wrote; starting, stopping and failing are here.
 */
public abstract class LoadDriver {

    private final String name;
    private final String installHint;
    private final String outputSuffix;
    private final AtomicReference<Process> current = new AtomicReference<>();

    /** @param outputSuffix the tool's stdout and stderr go to the run's base path plus this, e.g. {@code .hey.csv} */
    protected LoadDriver(String name, String installHint, String outputSuffix) {
        this.name = name;
        this.installHint = installHint;
        this.outputSuffix = outputSuffix;
    }

    public String name() {
        return name;
    }

    /** @return the command line for {@code load}; files it writes start with {@code base} */
    public abstract List<String> command(Load load, Path base);

    /** @return the run, parsed from the files starting with {@code base} */
    protected abstract DriverRun parse(Load load, Path base);

    /** @return a shell line that repeats {@code load} by hand, for results.md */
    public String reproduce(Load load, Path base) {
        return String.join(" ", command(load, base).stream()
                .map(a -> a.contains("?") || a.contains("&") ? "'" + a + "'" : a).toList());
    }

    /** @throws IllegalStateException when the tool is not on PATH, with its install line */
    public void requireInstalled() {
        if (!Processes.onPath(name)) {
            throw new IllegalStateException(name + " is not installed: " + installHint);
        }
    }

    /**
     * Runs {@code load} to its end; after {@link #stop()}, returns what the tool reported until then.
     *
     * @param base prefix of the files the tool writes (kept next to the results), e.g. {@code raw/03-scopeFork-rep1}
     * @throws IllegalStateException the tool failed without results (message: the end of its output)
     */
    public DriverRun run(Load load, Path base) throws InterruptedException {
        Path log = output(base);
        // own session: a Ctrl-C reaches only the CLI, which stops the tool itself after marking the run cancelled
        Process p = Processes.spawn(CpuGroups.onLoadSide(command(load, base)), base.toAbsolutePath().getParent(), log,
                true, false);
        current.set(p);
        try {
            p.waitFor();   // returns once the JDK has reaped it: its CPU is then in the harness's children counters
        } finally {
            current.set(null);
        }
        try {
            return parse(load, base);
        } catch (RuntimeException e) {
            throw new IllegalStateException(name + " failed (exit " + p.exitValue() + "): " + e.getMessage()
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

    protected Path output(Path base) {
        return with(base, outputSuffix);
    }

    /** @return {@code base} with {@code suffix} appended to its file name */
    protected static Path with(Path base, String suffix) {
        return base.resolveSibling(base.getFileName() + suffix);
    }

    /** @return -n of a closed loop, or -1 for a run of a duration */
    protected static long requested(Load load) {
        return load.requests() == null ? -1 : load.requests();
    }

    /**
     * @param row a row's value, or null to skip it
     * @throws IllegalStateException naming the file when it is not {@code tool}'s CSV
     */
    protected static <T> List<T> readCsv(String tool, Path csv, CSVFormat format, Function<CSVRecord, T> row) {
        try (Reader r = Files.newBufferedReader(csv)) {
            return format.parse(r).stream().map(row).filter(Objects::nonNull).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + tool + "'s CSV " + csv, e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("not " + tool + " CSV output (" + csv + "): " + e.getMessage(), e);
        }
    }
}
