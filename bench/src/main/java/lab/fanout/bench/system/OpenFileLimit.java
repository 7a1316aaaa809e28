package lab.fanout.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The hard limit on open files ({@code ulimit -Hn}) this process passes on to the services and the load driver it
 * starts. Both raise their soft limit to it by themselves (HotSpot's MaxFDLimit, Go since 1.19), so the hard limit
 * is what bounds the clients hey can hold open and the connections main-service can accept.
 */
public final class OpenFileLimit {

    /** Files a JVM or hey holds besides sockets: jars, logs, pipes, epoll, with room to spare. */
    static final long BASE = 1000;

    private OpenFileLimit() {
    }

    /** @return the hard limit from {@code /proc/self/limits}; empty where there is none to read (not Linux) */
    public static OptionalLong hard() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String hard = line.substring("Max open files".length()).trim().split("\\s+")[1];
                    return hard.equals("unlimited") ? OptionalLong.of(Long.MAX_VALUE) : OptionalLong.of(Long.parseLong(hard));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: no check
        }
        return OptionalLong.empty();
    }

    /**
     * @param clients the most concurrent clients of any cell: hey holds one socket each, and main-service accepts them
     *                all, twice over at worst: the requests of the warm-up's clients, dropped when the warm-up ends,
     *                keep their sockets until main-service has answered them, while the measured run's clients connect
     * @param pool    the largest pool: main-service's outbound sockets on top
     * @throws IllegalStateException if the hard limit is too low, saying how to raise it
     */
    public static void require(int clients, int pool) {
        long needed = 2L * clients + pool + BASE;
        hard().ifPresent(limit -> {
            if (limit < needed) {
                throw new IllegalStateException("open-file limit too low: ulimit -Hn is " + limit + ", but " + clients
                        + " clients need about " + needed + " open files in main-service (2 x clients + pool + 1,000). Raise it in the"
                        + " shell that runs ./lab: as root `ulimit -n 65536`, otherwise a nofile line in"
                        + " /etc/security/limits.conf (and log in again)");
            }
        });
    }
}
