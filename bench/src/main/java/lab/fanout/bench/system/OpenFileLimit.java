package lab.fanout.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The hard limit on open files ({@code ulimit -Hn}) this process passes on to the services and the load driver it
 * starts. Both raise their soft limit to it by themselves (HotSpot's MaxFDLimit, Go since 1.19), so the hard limit
 * is what bounds the clients hey can hold open and the connections main-service can accept.
 */
public final class OpenFileLimit {

    /** Files a JVM or hey holds besides sockets: jars, logs, pipes, epoll, with room to spare. */
    static final long BASE = 1000;
    private static final String RAISE = " Raise it in the shell that runs ./lab: as root `ulimit -n 65536` (where"
            + " the container allows it), otherwise a nofile line in /etc/security/limits.conf (and log in again).";

    private OpenFileLimit() {
    }

    /** @return the hard limit from {@code /proc/self/limits}; empty where there is none to read (not Linux) */
    public static OptionalLong hard() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/limits"))) {
            // "Max open files            1024                 1048576              files"
            return lines.filter(l -> l.startsWith("Max open files")).map(l -> l.substring(14).trim().split("\\s+")[1])
                    .mapToLong(hard -> hard.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(hard)).findFirst();
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();   // not Linux, or an unexpected format: no check
        }
    }

    /**
     * @param clients the most concurrent clients of any cell: hey holds one socket each, main-service accepts them all
     * @param pool    the largest pool: main-service's outbound sockets on top
     * @param warn    told when the limit holds only while no request outlives the driver's timeout: one hey gave up
     *                on keeps its socket in main-service while the next run connects (a soak run hit EMFILE that way)
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
}
