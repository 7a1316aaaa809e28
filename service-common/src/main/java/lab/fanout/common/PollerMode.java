package lab.fanout.common;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How this JVM wakes a virtual thread whose socket has data: the JDK's {@code jdk.pollerMode} (JDK 25's
 * {@code sun.nio.ch.Poller}), read the way the JDK reads it, since the JDK exposes no API for it. Shown at
 * {@code /actuator/info} ({@code knobs.runtime.pollerMode}).
 * <p>
 * It decides what pinning does to socket I/O (docs/pinning.md): a virtual thread pinned to its carrier (blocked inside
 * a native frame) that waits for a socket parks the carrier itself, and only the poller can wake it early. Under
 * {@link #VTHREAD_POLLERS} the pollers are virtual threads too: once every carrier is pinned, none can run, and each
 * pinned socket wait lasts until its timeout (forever without one). Under {@link #SYSTEM_THREADS} they are platform
 * threads and the pinned waits end when their data comes.
 */
public enum PollerMode {

    /** {@code -Djdk.pollerMode=1}: the read and write pollers are platform threads. */
    SYSTEM_THREADS,
    /** {@code -Djdk.pollerMode=2}, JDK 25's default on Linux: the pollers are virtual threads (a platform master). */
    VTHREAD_POLLERS;

    /** @return this JVM's mode: {@code jdk.pollerMode} if set, else JDK 25's default for this operating system */
    public static PollerMode effective() {
        return of(System.getProperty("jdk.pollerMode"), System.getProperty("os.name", ""));
    }

    /**
     * @param property {@code jdk.pollerMode} as given ({@code 1}, {@code 2} or a mode's name, in any case), or null
     * @param osName   {@code os.name}: unset, Linux defaults to {@link #VTHREAD_POLLERS} (its
     *                 {@code DefaultPollerProvider}), other systems to {@link #SYSTEM_THREADS} (the base provider's)
     * @throws IllegalArgumentException for a value the JDK refuses too ("Can't parse ... as polling mode")
     */
    static PollerMode of(@Nullable String property, String osName) {
        if (property == null) {
            return osName.toLowerCase(Locale.ROOT).startsWith("linux") ? VTHREAD_POLLERS : SYSTEM_THREADS;
        }
        if (property.equals("1") || property.equalsIgnoreCase(SYSTEM_THREADS.name())) {
            return SYSTEM_THREADS;
        }
        if (property.equals("2") || property.equalsIgnoreCase(VTHREAD_POLLERS.name())) {
            return VTHREAD_POLLERS;
        }
        throw new IllegalArgumentException("jdk.pollerMode: '" + property + "' is not 1, 2, " + SYSTEM_THREADS
                + " or " + VTHREAD_POLLERS);
    }
}
