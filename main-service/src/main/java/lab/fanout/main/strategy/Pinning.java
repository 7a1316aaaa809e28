package lab.fanout.main.strategy;

import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.function.Supplier;

import jdk.management.VirtualThreadSchedulerMXBean;
import lab.fanout.common.PollerMode;

/**
 * What each downstream call of a blocking strategy holds while it blocks: the query parameter {@code pinning}
 * (docs/pinning.md). On JDK 25 a virtual thread that blocks while it holds a monitor unmounts all the same (JEP 491),
 * and one that blocks inside a native frame cannot: it keeps its carrier thread, so at most carriers calls run at once,
 * carriers ÷ latency calls per second. {@link #toString()} is the parameter value.
 * <p>
 * Applies to the strategies whose calls block a thread ({@code sequential}, the three CompletableFuture strategies,
 * {@code scopeFork}), on whichever thread runs the call; the reactive strategy makes no blocking call and refuses any
 * value but {@link #NONE}.
 */
public enum Pinning {

    /** The call as it is: the default. */
    NONE("none"),
    /**
     * The call inside {@code synchronized} on a monitor of its own: since JEP 491 (JDK 24) a virtual thread that blocks
     * there unmounts, so nothing changes. One monitor per call, not one shared by the request's calls: a shared one
     * would run them one at a time, which measures contention, not pinning.
     */
    SYNCHRONIZED("synchronized"),
    /**
     * The call from inside a native frame, libc's {@code qsort} calling back a Java comparator through the FFM API
     * ({@link NativeFrame}): the virtual thread is pinned to its carrier for the whole call.
     */
    NATIVE("native");

    private final String parameterValue;

    Pinning(String parameterValue) {
        this.parameterValue = parameterValue;
    }

    /**
     * @param value {@code none}, {@code synchronized} or {@code native}; case-insensitive
     * @throws IllegalArgumentException naming the valid values, if none matches
     */
    public static Pinning fromParameter(String value) {
        return ParameterValues.parse(Pinning.class, value);
    }

    /**
     * Makes a downstream call, on this thread, holding what this value says while it blocks.
     *
     * @param monitor an object no other thread locks: the call's own ({@link #SYNCHRONIZED} holds it; an object that
     *                escapes, so that the JIT cannot elide the lock)
     * @param call    the call
     * @return what {@code call} returns
     * @throws RuntimeException what {@code call} throws, the same instance (also out of {@link #NATIVE}'s upcall)
     */
    <T> T around(Object monitor, Supplier<T> call) {
        return switch (this) {
            case NONE -> call.get();
            case SYNCHRONIZED -> {
                synchronized (monitor) {
                    yield call.get();
                }
            }
            case NATIVE -> NativeFrame.call(call);
        };
    }

    /**
     * What a 504 {@code deadline-exceeded} should add to its detail about this value's part in it.
     *
     * @param pollerMode how this JVM wakes a virtual thread whose socket has data ({@link PollerMode#effective()})
     * @return for {@link #NATIVE}, why its calls may have run out of time: a stall under virtual-thread pollers, the
     *         carrier bound under platform-thread pollers; empty for the others, which change nothing
     */
    public Optional<String> deadlineHint(PollerMode pollerMode) {
        if (this != NATIVE) {
            return Optional.empty();
        }
        int carriers = ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class).getParallelism();
        return Optional.of(switch (pollerMode) {
            case VTHREAD_POLLERS -> "Its calls were pinned to their carrier threads (pinning=native), and the socket"
                    + " pollers are virtual threads here (jdk.pollerMode " + pollerMode + "): with every carrier pinned"
                    + " no poller runs, so each pinned read waits out its timeout. -Djdk.pollerMode=1 turns this stall"
                    + " into the carrier bound.";
            case SYSTEM_THREADS -> "Its calls were pinned to their carrier threads (pinning=native): at most "
                    + carriers + " ran at once (" + carriers + " ÷ latency calls per second), the rest waited for a"
                    + " carrier.";
        });
    }

    @Override
    public String toString() {
        return parameterValue;
    }
}
