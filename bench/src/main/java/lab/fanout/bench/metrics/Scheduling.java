package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How the kernel scheduled main-service during a run (issue 66): its context switches, voluntary (it blocked: a
 * socket read, a park) and involuntary (its time slice ended or it was preempted), summed over its threads from
 * {@code /proc/<pid>/task/<tid>/status}; and where its cgroup has a CFS quota, the periods in which it was throttled
 * and the time it spent so ({@code cpu.stat}: v1 {@code nr_throttled}, {@code throttled_time} ns; v2
 * {@code throttled_usec}). A thread that ended before the second snapshot is lost, so thread-per-task's switches
 * are a floor: each of its call threads lives for one call.
 *
 * @param voluntary     switches per thread id, at this snapshot
 * @param involuntary   as above, involuntary
 * @param throttled     periods throttled so far, or -1 without a quota
 * @param throttledNs   ns throttled so far, or -1 without a quota
 */
public record Scheduling(Map<Long, Long> voluntary, Map<Long, Long> involuntary, long throttled, long throttledNs) {

    private static final Path CGROUPS = Path.of("/sys/fs/cgroup");

    /**
     * The figures between two snapshots.
     *
     * @param voluntarySwitches   voluntary switches of the threads alive at the end (a new thread from 0)
     * @param involuntarySwitches involuntary, likewise
     * @param throttledPeriods    CFS periods throttled, or null without a quota
     * @param throttledSeconds    seconds throttled, or null without a quota
     */
    public record Delta(long voluntarySwitches, long involuntarySwitches, Long throttledPeriods,
                        Double throttledSeconds) {
    }

    /** @return main-service's counters now, or null when its /proc is unreadable (gone, not Linux) */
    public static Scheduling now(Long pid) {
        if (pid == null) {
            return null;
        }
        Map<Long, Long> voluntary = new HashMap<>();
        Map<Long, Long> involuntary = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                long tid = Long.parseLong(task.getFileName().toString());
                for (String line : lines(task.resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        voluntary.put(tid, Long.parseLong(line.split(":")[1].trim()));
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        involuntary.put(tid, Long.parseLong(line.split(":")[1].trim()));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        long[] cfs = throttling(lines(Path.of("/proc/" + pid + "/cgroup")));
        return new Scheduling(voluntary, involuntary, cfs[0], cfs[1]);
    }

    /** @return the delta from {@code start} to {@code end}, or null when either is */
    public static Delta between(Scheduling start, Scheduling end) {
        if (start == null || end == null) {
            return null;
        }
        boolean quota = start.throttled >= 0 && end.throttled >= 0;
        return new Delta(grown(start.voluntary, end.voluntary), grown(start.involuntary, end.involuntary),
                quota ? end.throttled - start.throttled : null, quota ? (end.throttledNs - start.throttledNs) / 1e9
                        : null);
    }

    private static long grown(Map<Long, Long> start, Map<Long, Long> end) {
        return end.entrySet().stream().mapToLong(e -> e.getValue() - start.getOrDefault(e.getKey(), 0L)).sum();
    }

    /**
     * @param cgroup the lines of {@code /proc/<pid>/cgroup}, {@code hierarchy-id:controllers:path}
     * @return {nr_throttled, throttled ns} of its cpu group when that has a quota, else {-1, -1}
     */
    public static long[] throttling(List<String> cgroup) {
        for (String line : cgroup) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            boolean v2 = f[1].isEmpty();
            if (!v2 && !List.of(f[1].split(",")).contains("cpu")) {
                continue;
            }
            Path group = (v2 ? CGROUPS : CGROUPS.resolve(f[1])).resolve(f[2].substring(1));
            String quota = String.join(" ", lines(group.resolve(v2 ? "cpu.max" : "cpu.cfs_quota_us"))).trim();
            if (quota.isEmpty() || quota.startsWith("max") || quota.equals("-1")) {
                continue;
            }
            Map<String, Long> stat = new HashMap<>();
            lines(group.resolve("cpu.stat")).forEach(l -> {
                String[] kv = l.trim().split("\\s+");
                if (kv.length == 2) {
                    stat.put(kv[0], Long.parseLong(kv[1]));
                }
            });
            long ns = v2 ? stat.getOrDefault("throttled_usec", 0L) * 1000 : stat.getOrDefault("throttled_time", 0L);
            return new long[] {stat.getOrDefault("nr_throttled", 0L), ns};
        }
        return new long[] {-1, -1};
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
