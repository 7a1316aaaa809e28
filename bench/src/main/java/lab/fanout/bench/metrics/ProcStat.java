package lab.fanout.bench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU counters of one process from its {@code /proc/<pid>/stat} line (proc(5)), in clock ticks (USER_HZ).
 *
 * @param utime  ticks in user mode (field 14)
 * @param stime  ticks in kernel mode (field 15)
 * @param cutime user-mode ticks of the children it has waited for (field 16)
 * @param cstime kernel-mode ticks of those children (field 17)
 */
record ProcStat(long utime, long stime, long cutime, long cstime) {

    long ownTicks() {
        return utime + stime;
    }

    /** @return the CPU of the reaped children: all of a child's lands here when the JDK's reaper waits for it */
    long reapedChildrenTicks() {
        return cutime + cstime;
    }

    /**
     * @param line e.g. {@code 4242 (hey) S 1 ...}; the command name may hold spaces and parentheses, so fields are
     *             counted after its <em>last</em> closing parenthesis
     * @throws IllegalArgumentException when the line has not that shape
     */
    static ProcStat parse(String line) {
        int close = line.lastIndexOf(')');
        String[] f = close < 0 ? new String[0] : line.substring(close + 1).trim().split(" +");
        if (f.length < 15) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + line);
        }
        // f[0] is field 3 (state), so field n is f[n - 3]
        return new ProcStat(Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14]));
    }

    /** @return the counters of {@code pid} now, or null when it is gone or /proc is unreadable (not Linux) */
    static ProcStat read(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
