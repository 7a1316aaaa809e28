package lab.fanout.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.function.Consumer;

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
     * @param clients the most concurrent clients of any cell: hey holds one socket each, main-service accepts them all
     * @param pool    the largest pool: main-service's outbound sockets on top
     * @param warn    told when the limit is enough only as long as no request outlives the driver's timeout: a request
     *                hey gave up on keeps its socket in main-service until answered, while the next run's clients
     *                connect (2 x clients at worst; a first soak run here hit EMFILE in Tomcat's acceptor that way)
     * @throws IllegalStateException if the hard limit is below clients + pool + 1,000, saying how to raise it
     */
    public static void require(int clients, int pool, Consumer<String> warn) {
        long needed = clients + pool + BASE;
        long safe = 2L * clients + pool + BASE;
        hard().ifPresent(limit -> {
            if (limit < needed) {
                throw new IllegalStateException("open-file limit too low: ulimit -Hn is " + limit + ", but " + clients
                        + " clients need about " + needed + " open files in main-service (clients + pool + 1,000)."
                        + RAISE);
            }
            if (limit < safe) {
                warn.accept("open-file limit " + limit + " is below " + safe + " (2 x clients + pool + 1,000): requests"
                        + " that outlive the driver's timeout keep their sockets while the next run connects, and"
                        + " main-service may run out of files (EMFILE)." + RAISE);
            }
        });
    }

    private static final String RAISE = " Raise it in the shell that runs ./lab: as root `ulimit -n 65536` (where"
            + " the container allows it), otherwise a nofile line in /etc/security/limits.conf (and log in again).";
}
