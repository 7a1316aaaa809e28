package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import lab.fanout.bench.model.Repetition;

/**
 * A snapshot of the machine's CPU ({@code /proc/stat}) and of the lab's processes' ({@code /proc/<pid>/stat}): the
 * one place that reads CPU time, so the report's busy share, "others" share and CPU-ms per request come from two
 * snapshots, before and after a measured run. The driver counts as the harness's reaped children: it is the only
 * short-lived child during a run and is waited for, so its whole CPU moves there to the tick, where sampling it while
 * it runs would miss its last moments (a service that died and was reaped in the window would count there too).
 *
 * @param busy      ticks the machine spent not idle (user, nice, system, irq, softirq, steal), all cores
 * @param total     all ticks of all cores
 * @param processes role (e.g. {@code main-service}, {@code driver}, {@code harness}) to the CPU ticks it has used so
 *                  far (utime + stime); a role whose process is gone or unreadable is absent, never 0
 */
public record MachineCpu(long busy, long total, Map<String, Long> processes) {

    /** Clock ticks per second of /proc's counters (USER_HZ): 100 on Linux. */
    private static final double HZ = 100;

    /**
     * @param services role to pid of the services the target runs on this machine (empty when it does not know them)
     * @return now, or null where /proc/stat is unreadable
     */
    public static MachineCpu now(Map<String, Long> services) {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long[] v = Arrays.stream(f, 1, Math.min(f.length, 9)).mapToLong(Long::parseLong).toArray();
            long total = Arrays.stream(v).sum();
            Map<String, Long> processes = new LinkedHashMap<>();
            services.forEach((role, pid) -> {
                ProcStat s = ProcStat.read(pid);
                if (s != null) {
                    processes.put(role, s.ownTicks());
                }
            });
            ProcStat self = ProcStat.read(ProcessHandle.current().pid());
            if (self != null) {
                processes.put(Repetition.HARNESS, self.ownTicks());
                processes.put(Repetition.DRIVER, self.reapedChildrenTicks());
            }
            long idle = v[3] + v[4];   // idle + iowait
            return new MachineCpu(total - idle, total, Collections.unmodifiableMap(processes));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @return role to CPU seconds used between {@code start} and {@code end}, for the roles present in both (a process
     *         that ended or was replaced meanwhile is left out); empty when either snapshot is null
     */
    public static Map<String, Double> secondsByProcess(MachineCpu start, MachineCpu end) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        if (start != null && end != null) {
            end.processes.forEach((role, ticks) -> {
                Long before = start.processes.get(role);
                if (before != null && ticks >= before) {
                    seconds.put(role, (ticks - before) / HZ);
                }
            });
        }
        return seconds;
    }

    /** @return percent of all cores busy between {@code start} and {@code end}, or null */
    public static Double busyPercent(MachineCpu start, MachineCpu end) {
        return start == null || end == null || end.total == start.total ? null
                : 100.0 * (end.busy - start.busy) / (end.total - start.total);
    }

    /** @return percent of all cores busy with work neither ours nor our driver's nor our services', or null */
    public static Double othersPercent(MachineCpu start, MachineCpu end) {
        Double busy = busyPercent(start, end);
        double own = secondsByProcess(start, end).values().stream().mapToDouble(Double::doubleValue).sum() * HZ;
        return busy == null ? null : Math.max(0, busy - 100.0 * own / (end.total - start.total));
    }
}
