package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.system.CpuPlacement;

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
 * @param cores     per core ({@code cpuN} of /proc/stat, in order), {busy, total} ticks
 */
public record MachineCpu(long busy, long total, Map<String, Long> processes, List<long[]> cores) {

    /** Clock ticks per second of /proc's counters (USER_HZ): 100 on Linux. */
    private static final double HZ = 100;

    /**
     * @param services role to pid of the services the target runs on this machine (empty when it does not know them)
     * @return now, or null where /proc/stat is unreadable
     */
    /** Without per-core figures. */
    public MachineCpu(long busy, long total, Map<String, Long> processes) {
        this(busy, total, processes, List.of());
    }

    public static MachineCpu now(Map<String, Long> services) {
        try {
            List<String> stat = Files.readAllLines(Path.of("/proc/stat"));
            long[] all = busyAndTotal(stat.getFirst());
            List<long[]> cores = stat.stream().filter(l -> l.matches("cpu\\d+ .*")).map(MachineCpu::busyAndTotal)
                    .toList();
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
            return new MachineCpu(all[0], all[1], Collections.unmodifiableMap(processes), cores);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return {busy, total} ticks of a {@code cpu} or {@code cpuN} line; busy leaves out idle and iowait */
    private static long[] busyAndTotal(String line) {
        String[] f = line.trim().split("\\s+");
        long[] v = Arrays.stream(f, 1, Math.min(f.length, 9)).mapToLong(Long::parseLong).toArray();
        long total = Arrays.stream(v).sum();
        return new long[] {total - v[3] - v[4], total};
    }

    /**
     * @param placement   main-service's cores or quota; null (unknown) or shared: no load side of its own
     * @param mainSeconds main-service's CPU seconds between the two snapshots (for a quota), or null
     * @return % busy of the cores not given to main-service: whole cores, those of the load side's cpuset (the
     *         first ones); a quota, the machine's busy ticks less main-service's over the cores less the quota
     */
    public static Double loadSideBusyPercent(MachineCpu start, MachineCpu end, CpuPlacement placement,
                                             Double mainSeconds) {
        if (start == null || end == null || placement == null || placement.shared() || end.total == start.total) {
            return null;
        }
        int machineCores = end.cores.size();
        if (placement.whole()) {
            int load = machineCores - (int) placement.cpus();
            if (load < 1 || start.cores.size() != machineCores) {
                return null;
            }
            long busy = 0;
            long total = 0;
            for (int i = 0; i < load; i++) {
                busy += end.cores.get(i)[0] - start.cores.get(i)[0];
                total += end.cores.get(i)[1] - start.cores.get(i)[1];
            }
            return total == 0 ? null : 100.0 * busy / total;
        }
        if (mainSeconds == null || machineCores <= placement.cpus()) {
            return null;
        }
        double loadTicks = (end.busy - start.busy) - mainSeconds * HZ;
        return 100.0 * loadTicks / ((end.total - start.total) * (machineCores - placement.cpus()) / machineCores);
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
