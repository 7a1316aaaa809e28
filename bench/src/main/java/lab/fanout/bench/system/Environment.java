package lab.fanout.bench.system;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import lab.fanout.bench.model.RunResult;

/**
 * The machine and software behind a run ({@code environment.txt}), and the short summary results.md puts next to
 * the figures. Every line degrades to "unknown" rather than failing a finished run.
 */
public final class Environment {

    private Environment() {
    }

    public static String cpuModel() {
        return line("/proc/cpuinfo", "model name").map(l -> l.substring(l.indexOf(':') + 1).trim())
                .orElse("unknown CPU");
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    public static String memory() {
        return line("/proc/meminfo", "MemTotal:").map(l -> String.format(Locale.ROOT, "%.1f GB",
                Long.parseLong(l.replaceAll("\\D", "")) / 1024.0 / 1024.0)).orElse("unknown memory");
    }

    public static String os() {
        return line("/etc/os-release", "PRETTY_NAME=").map(l -> l.substring(12).replace("\"", ""))
                .orElse(System.getProperty("os.name")) + ", kernel " + System.getProperty("os.version");
    }

    public static String jdk() {
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version");
    }

    /** @return load averages over 1, 5 and 15 minutes: how busy the machine already was */
    public static String loadAverage() {
        String[] f = read("/proc/loadavg").trim().split("\\s+");
        return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "unknown";
    }

    public static String gitCommit(Path repo) {
        String commit = run(repo, "git", "rev-parse", "--short=12", "HEAD").orElse("unknown");
        boolean dirty = run(repo, "git", "status", "--porcelain", "--untracked-files=no").map(s -> !s.isBlank())
                .orElse(false);
        return commit + (dirty ? " (with uncommitted changes)" : "");
    }

    /** @return one line for results.md */
    public static String summary(Path repo) {
        return summary(new RunResult.Machine(cpuModel(), cores(), memory(), os(), jdk(), List.of(), null, null, null,
                null), gitCommit(repo));
    }

    /** @return results.md's machine line of a sitting, live or recorded ({@link #summary(Path)}: the machine now) */
    public static String summary(RunResult.Machine m, String commit) {
        return String.format(Locale.ROOT, "Machine: %s, %d cores, %s RAM, %s; JDK %s; git %s", m.cpuModel(), m.cores(),
                m.memory(), m.os(), m.jdk(), commit);
    }

    /**
     * @param loadBefore load average when the run started; the one after is read now
     * @return the machine and software behind a run, for {@code environment.txt} and {@code results.json}
     */
    public static RunResult.Machine machine(Path repo, String loadBefore) {
        return new RunResult.Machine(cpuModel(), cores(), memory(), os(), jdk(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), debianVersion(repo, "hey"),
                debianVersion(repo, "apache2-utils"), loadBefore, loadAverage());
    }

    /**
     * @param knobs lines describing the matrix, target, driver and service JVM flags
     * @param jvms  main-service's JVMs as they reported themselves
     * @return {@code environment.txt}: one {@code name: value} line each
     */
    public static String text(RunResult.Machine m, String commit, List<String> knobs, List<String> jvms) {
        List<String> lines = new ArrayList<>(List.of("cpu_model: " + m.cpuModel(), "cores: " + m.cores(),
                "memory: " + m.memory(), "os: " + m.os(), "jdk: " + m.jdk(),
                "lab_jvm_flags: " + String.join(" ", m.labJvmFlags()), "git_commit: " + commit,
                "load_average_before: " + m.loadAverageBefore(), "load_average_after: " + m.loadAverageAfter(),
                "hey: " + m.hey(), "ab: " + m.ab()));
        lines.addAll(knobs);
        lines.addAll(jvms);
        return String.join("\n", lines) + "\n";
    }

    private static String debianVersion(Path repo, String pkg) {
        return run(repo, "dpkg-query", "-W", "-f", "${Version}", pkg).orElse("unknown");
    }

    /** @return the first line of {@code file} that starts with {@code prefix}; empty when none or unreadable */
    private static Optional<String> line(String file, String prefix) {
        return read(file).lines().filter(l -> l.startsWith(prefix)).findFirst();
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            return "";
        }
    }

    private static Optional<String> run(Path dir, String... command) {
        return Processes.output(dir, Duration.ofSeconds(10), command);
    }
}
