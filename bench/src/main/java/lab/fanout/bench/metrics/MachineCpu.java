package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;

/**
 * How busy the whole machine was, from {@code /proc/stat} (Linux), and how much of that was ours: the harness, the
 * services it runs and the load driver, from {@code /proc/<pid>/stat}. On 2 cores, near 100 % means the CPU, not the
 * strategy, set the throughput; a large "others" share means someone else's work took part of it.
 *
 * @param busy  jiffies the machine spent not idle (user, nice, system, irq, softirq, steal)
 * @param total all jiffies of all cores
 * @param own   jiffies used so far by the processes we watch (utime + stime)
 */
public record MachineCpu(long busy, long total, long own) {

    /** Clock ticks per second of /proc's counters (USER_HZ): 100 on Linux. */
    static final double HZ = 100;

    /** @return now, watching {@code pids} (gone ones count 0), or null where /proc is unreadable */
    public static MachineCpu now(Collection<Long> pids) {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long[] v = Arrays.stream(f, 1, Math.min(f.length, 9)).mapToLong(Long::parseLong).toArray();
            long idle = v[3] + v[4];   // idle + iowait
            long total = Arrays.stream(v).sum();
            return new MachineCpu(total - idle, total, pids.stream().mapToLong(MachineCpu::jiffies).sum());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return percent of all cores busy between {@code start} and {@code end}, or null */
    public static Double busyPercent(MachineCpu start, MachineCpu end) {
        return start == null || end == null || end.total == start.total ? null
                : 100.0 * (end.busy - start.busy) / (end.total - start.total);
    }

    /**
     * @param extraOwnSeconds CPU of our processes not in the watched pids (the driver, measured by itself)
     * @return percent of all cores busy with other people's work between {@code start} and {@code end}, or null
     */
    public static Double othersPercent(MachineCpu start, MachineCpu end, double extraOwnSeconds) {
        if (start == null || end == null || end.total == start.total) {
            return null;
        }
        double own = end.own - start.own + extraOwnSeconds * HZ;
        return Math.max(0, 100.0 * (end.busy - start.busy - own) / (end.total - start.total));
    }

    private static long jiffies(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // the command name (2nd field) may hold spaces: count fields after its closing parenthesis
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);   // utime, stime: fields 14 and 15
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
