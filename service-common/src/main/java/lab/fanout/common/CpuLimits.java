package lab.fanout.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The CPU limits the kernel puts on this JVM, as {@code ./lab up --main-cpus} or a pod's {@code limits.cpu} set them
 * (issue 66): its cpuset ({@code Cpus_allowed_list} of {@code /proc/self/status}) and its cgroup's CFS quota
 * ({@code cpu.cfs_quota_us}/{@code cpu.cfs_period_us} on cgroup v1, {@code cpu.max} on v2). The JVM's
 * availableProcessors follows both; these say which one set it.
 */
final class CpuLimits {

    private static final Path CGROUPS = Path.of("/sys/fs/cgroup");

    private CpuLimits() {
    }

    /** @return the cores this JVM may run on, e.g. {@code 1} or {@code 0-1}; {@code unknown} off Linux */
    static String cpuset() {
        return lines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
    }

    /** @return the quota over its period in µs, e.g. {@code 50000/100000}, or {@code none} (also off Linux) */
    static String quota() {
        for (String line : lines(Path.of("/proc/self/cgroup"))) {
            String[] f = line.split(":", 3);   // hierarchy-id:controllers:path
            if (f.length < 3) {
                continue;
            }
            String path = f[2].substring(1);
            if (f[1].isEmpty()) {
                Optional<String> max = first(CGROUPS.resolve(path).resolve("cpu.max"));
                if (max.isPresent() && !max.get().startsWith("max")) {
                    return max.get().replace(' ', '/');
                }
            } else if (List.of(f[1].split(",")).contains("cpu")) {
                Path group = CGROUPS.resolve(f[1]).resolve(path);
                Optional<String> quota = first(group.resolve("cpu.cfs_quota_us"));
                if (quota.isPresent() && !quota.get().equals("-1")) {
                    return quota.get() + "/" + first(group.resolve("cpu.cfs_period_us")).orElse("?");
                }
            }
        }
        return "none";
    }

    private static Optional<String> first(Path file) {
        return lines(file).stream().findFirst().map(String::trim);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }
}
