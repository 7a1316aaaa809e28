package lab.fanout.bench.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

/**
 * async-profiler (the {@code tools.profiler:async-profiler} jar's {@code linux-x64/libasyncProfiler.so}) in another
 * JVM: each action loads the agent through the Attach API ({@code VirtualMachine.loadAgentPath}, the "load" command
 * its own {@code asprof} sends), which starts it the first time and hands the options to the loaded one after that
 * (the same path every time, or a second copy would load). The target needs no flag at start; JDK 21+
 * only logs a warning about an agent loaded dynamically (JEP 451). The agent's options are comma-separated, so no
 * value may hold a comma; its messages go to a log file ({@code log=}), read back after each action.
 *
 * @param pid     the JVM to profile (same user, same machine)
 * @param library {@link #extract}'s result
 * @param log     every action and the agent's answer are appended here
 */
public record AsyncProfiler(long pid, Path library, Path log) {

    private static final String LIBRARY = "linux-x64/libasyncProfiler.so";

    public AsyncProfiler {
        if (ModuleLayer.boot().findModule("jdk.attach").isEmpty()) {
            throw new IllegalStateException("./lab profile needs a full JDK 25 (module jdk.attach), not a JRE");
        }
    }

    /**
     * @return the agent's {@code .so}, copied out of the jar into {@code dir} once per content: its name carries the
     *         size and it is replaced atomically, so a JVM that has the old one loaded keeps it
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
            Path so = Files.createDirectories(dir).resolve("libasyncProfiler-" + bytes.length + ".so");
            if (!Files.exists(so) || Files.size(so) != bytes.length) {
                Path tmp = Files.write(Files.createTempFile(dir, "libasyncProfiler", ".tmp"), bytes);
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
     * @param event    {@code cpu} (perf events; async-profiler falls back to {@code ctimer} when they are refused),
     *                 {@code itimer} (setitimer, no perf events needed) or {@code wall} (every thread, running or not)
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
     * Writes the last profile as its extension says: {@code .html} a flame graph (headed {@code title}, which may hold
     * no comma), {@code .collapsed} its stacks.
     */
    public void dump(Path file, String title) {
        call("dump,file=" + file.toAbsolutePath() + (file.toString().endsWith(".html") ? ",title=" + title : ""));
    }

    /** @return whether the target holds perf-event descriptors: false when {@code cpu} fell back to a timer */
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

    /**
     * @param action e.g. {@code start,event=cpu,interval=10ms}; logged with the answer and the agent's own log
     * @throws IllegalStateException when the JVM cannot be attached to or the agent refuses (its return code and log)
     */
    void call(String action) {
        Path agentLog = log.resolveSibling(log.getFileName() + ".agent");
        takeText(agentLog);   // a stale one from an interrupted run
        append("> " + action);
        int code;
        try {
            code = load(action + ",log=" + agentLog.toAbsolutePath());
        } catch (IllegalStateException e) {
            append(e.getMessage());
            throw e;
        }
        String agent = takeText(agentLog);
        append("return code: " + code + (agent.isEmpty() ? "" : "\n" + agent));
        if (code != 0) {
            throw new IllegalStateException("async-profiler refused '" + action + "' in pid " + pid + " (return code "
                    + code + "): " + (agent.isEmpty() ? "no message in its log" : agent));
        }
    }

    /** @return the agent's return code: 0 = done; async-profiler answers 100 and up on errors */
    private int load(String options) {
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgentPath(library.toAbsolutePath().toString(), options);
                return 0;
            } catch (AgentInitializationException e) {   // Agent_OnAttach returned non-zero
                return e.returnValue();
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException | IOException e) {
            throw new IllegalStateException("cannot attach to pid " + pid + " (gone, another user's, or not a HotSpot"
                    + " JVM): " + e.getMessage(), e);
        } catch (AgentLoadException e) {
            throw new IllegalStateException("pid " + pid + " could not load " + library + ": " + e.getMessage(), e);
        }
    }

    private void append(String line) {
        try {
            Files.writeString(log, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + log, e);
        }
    }

    /** @return the file's text, stripped, or "" when absent; the file is gone afterwards */
    private static String takeText(Path file) {
        try {
            String text = Files.exists(file) ? Files.readString(file).strip() : "";
            Files.deleteIfExists(file);
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
