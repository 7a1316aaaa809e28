package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * How busy the whole machine was, from {@code /proc/stat} (Linux): every process counts, the load driver's and other
 * people's included. On 2 cores, near 100 % means the CPU, not the strategy, set the throughput.
 *
 * @param busy  jiffies spent not idle (user, nice, system, irq, softirq, steal)
 * @param total all jiffies
 */
public record MachineCpu(long busy, long total) {

    /** @return now, or null where /proc/stat is unreadable */
    public static MachineCpu now() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long[] v = Arrays.stream(f, 1, Math.min(f.length, 9)).mapToLong(Long::parseLong).toArray();
            long idle = v[3] + v[4];   // idle + iowait
            long total = Arrays.stream(v).sum();
            return new MachineCpu(total - idle, total);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return percent of all cores busy between {@code start} and now, or null */
    public static Double busyPercentSince(MachineCpu start) {
        MachineCpu end = now();
        if (start == null || end == null || end.total == start.total) {
            return null;
        }
        return 100.0 * (end.busy - start.busy) / (end.total - start.total);
    }
}
