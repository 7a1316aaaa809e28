package lab.fanout.bench.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import lab.fanout.bench.system.Processes;

/**
 * async-profiler (the {@code tools.profiler:async-profiler} jar's {@code linux-x64/libasyncProfiler.so}) in another
 * JVM, driven the way its own {@code asprof} drives it: each action is one {@code jcmd <pid> JVMTI.agent_load <so>
 * "<action>,<option>=..."}, which loads the agent on the first call and hands the options to the loaded one after
 * that (the same path every time, or a second copy would load). The target needs no flag at start; JDK 21+ only logs a
 * warning about an agent loaded dynamically (JEP 451).
 * <p>
 * jcmd's own parser would take {@code event=cpu} as a jcmd option and pass nothing, so the agent's options go inside
 * double quotes; they are comma-separated, so no value may hold a comma or a double quote. The agent's messages go to
 * a log file ({@code log=}), read back after each call; jcmd prints the agent's return code ({@code return code: 0}).
 */
public final class AsyncProfiler {

    /** Where the jar keeps the agent for Linux on x86-64. */
    static final String LIBRARY = "linux-x64/libasyncProfiler.so";
    private static final Pattern RETURN_CODE = Pattern.compile("return code: (-?\\d+)");
    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(60);

    private final long pid;
    private final Path jcmd;
    private final Path library;
    private final Path log;

    /**
     * @param pid     the JVM to profile (same user, same machine)
     * @param library {@link #extract}'s result
     * @param log     every call and the agent's answer are appended here
     */
    public AsyncProfiler(long pid, Path library, Path log) {
        this.pid = pid;
        this.library = library;
        this.log = log;
        this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            throw new IllegalStateException(jcmd + " is missing: ./lab profile needs a full JDK 25 (jcmd), not a JRE");
        }
    }

    /**
     * Copies the agent out of the jar on the classpath, once per content: the file name carries the jar's size and
     * the copy is replaced atomically, so a JVM that has the old one loaded keeps it.
     *
     * @param dir e.g. {@code .lab/async-profiler}
     * @return the {@code .so}
     * @throws IllegalStateException on another OS or CPU than Linux x86-64, or when the jar is not on the classpath
     */
    public static Path extract(Path dir) {
        requireLinuxX64(System.getProperty("os.name"), System.getProperty("os.arch"));
        try (InputStream in = AsyncProfiler.class.getClassLoader().getResourceAsStream(LIBRARY)) {
            if (in == null) {
                throw new IllegalStateException(LIBRARY + " is not on the classpath (the tools.profiler:async-profiler"
                        + " jar): rebuild the CLI with ./lab build");
            }
            byte[] bytes = in.readAllBytes();
            Files.createDirectories(dir);
            Path so = dir.resolve("libasyncProfiler-" + bytes.length + ".so");
            if (!Files.exists(so) || Files.size(so) != bytes.length) {
                Path tmp = Files.createTempFile(dir, "libasyncProfiler", ".tmp");
                Files.write(tmp, bytes);
                Files.move(tmp, so, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return so;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + LIBRARY + " into " + dir, e);
        }
    }

    static void requireLinuxX64(String os, String arch) {
        if (!"Linux".equals(os) || !List.of("amd64", "x86_64").contains(arch)) {
            throw new IllegalStateException("./lab profile runs on Linux x86-64 only (the agent it ships is"
                    + " linux-x64/libasyncProfiler.so); this is " + os + " " + arch);
        }
    }

    /**
     * Starts sampling.
     *
     * @param event    {@code cpu} (perf events; async-profiler itself falls back to {@code ctimer} when they are
     *                 refused), {@code itimer} (setitimer, works without perf events) or {@code wall} (every thread,
     *                 running or not)
     * @param interval time between samples: of CPU time for cpu and itimer, of wall time for wall
     * @throws IllegalStateException when the agent answers with an error (message: its log)
     */
    public void start(String event, Duration interval) {
        call("start,event=" + event + ",interval=" + interval.toMillis() + "ms");
    }

    /** Stops sampling; the profile stays in the agent for {@link #dump} until the next start. */
    public void stop() {
        call("stop");
    }

    /**
     * Writes the last profile; the format follows the extension: {@code .html} a flame graph, {@code .collapsed}
     * one line per stack ({@link CollapsedStacks}).
     *
     * @param title the flame graph's heading (no commas)
     */
    public void dump(Path file, String title) {
        call("dump,file=" + file.toAbsolutePath() + (file.toString().endsWith(".html") ? ",title=" + title : ""));
    }

    /**
     * @return whether the target holds perf-event file descriptors now: true while a {@code cpu} profile runs on
     *         perf events, false when async-profiler fell back to its timer engines (perf events refused)
     */
    public boolean perfEventsOpen() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().contains("perf_event");
                } catch (IOException | UnsupportedOperationException e) {
                    return false;   // closed meanwhile
                }
            });
        } catch (IOException e) {
            return false;
        }
    }

    private void call(String action) {
        Path agentLog = log.resolveSibling(log.getFileName() + ".agent");
        List<String> command = command(jcmd, pid, library, action + ",log=" + agentLog.toAbsolutePath());
        try {
            Files.deleteIfExists(agentLog);
            Processes.Result jcmdRun = Processes.run(command, null, JCMD_TIMEOUT);
            if (!jcmdRun.finished()) {
                throw new IllegalStateException("jcmd " + pid + " did not answer within " + JCMD_TIMEOUT.toSeconds() + " s");
            }
            String output = jcmdRun.output();
            String agent = Files.exists(agentLog) ? Files.readString(agentLog) : "";
            Files.deleteIfExists(agentLog);
            Files.writeString(log, "> " + action + "\n" + output + agent + (agent.endsWith("\n") || agent.isEmpty() ? "" : "\n"),
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            int code = returnCode(output);
            if (code != 0) {
                throw new IllegalStateException("async-profiler refused '" + action + "' in pid " + pid + " (return code "
                        + code + "): " + (agent.isBlank() ? output.strip() : agent.strip()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + log, e);
        }
    }

    /**
     * @param agentArgs e.g. {@code start,event=cpu,interval=10ms}
     * @return the jcmd command line, the agent's options quoted for jcmd's own parser
     * @throws IllegalArgumentException when {@code agentArgs} holds a double quote (a path with one, say)
     */
    static List<String> command(Path jcmd, long pid, Path library, String agentArgs) {
        if (agentArgs.contains("\"") || library.toString().contains(" ")) {
            throw new IllegalArgumentException("async-profiler's options cannot carry a double quote, nor its path a"
                    + " space: " + library + " " + agentArgs);
        }
        return new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid), "JVMTI.agent_load",
                library.toAbsolutePath().toString(), "\"" + agentArgs + "\""));
    }

    /**
     * @param jcmdOutput e.g. {@code 4242:\nreturn code: 0\n}
     * @return the agent's return code (0 = done; async-profiler answers 100 and up on errors)
     * @throws IllegalStateException when jcmd printed no return code (the JVM is gone, or not attachable)
     */
    static int returnCode(String jcmdOutput) {
        Matcher m = RETURN_CODE.matcher(jcmdOutput);
        if (!m.find()) {
            throw new IllegalStateException("jcmd did not load the agent: " + jcmdOutput.strip());
        }
        return Integer.parseInt(m.group(1));
    }
}
