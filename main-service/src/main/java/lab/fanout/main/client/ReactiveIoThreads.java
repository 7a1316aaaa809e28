package lab.fanout.main.client;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The reactive strategy's threads, made and metered here. HttpClient 5's async client runs every call's I/O and
 * callbacks on its I/O reactor threads (one per core, {@code IOReactorConfig}'s default), not on a thread per call,
 * so their number and how busy they are explain reactive's numbers; Micrometer's thread meters
 * ({@code jvm_threads_*}) count all platform threads together, by state only, and cannot show them.
 * <p>
 * The async client takes this as its thread factory ({@code HttpAsyncClientBuilder.setThreadFactory}) and uses it for
 * its I/O dispatch threads and for the one thread that starts the reactor and then waits, idle, until the client
 * closes: the threads counted are the dispatch threads plus that one. Named {@code reactive-io-N}, daemon.
 * <p>
 * Meters ({@link #bindTo}): {@code fanout_reactive_io_threads} (gauge: those threads alive now) and
 * {@code fanout_reactive_io_cpu_seconds_total} (CPU time they used, s, from the JVM's per-thread CPU clock; its rate
 * is the cores they keep busy, at most one per dispatch thread: near that, the reactor, not the pool or the clients,
 * is the limit).
 */
final class ReactiveIoThreads implements ThreadFactory, MeterBinder {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final ThreadFactory factory = Thread.ofPlatform().name("reactive-io-", 1).daemon().factory();
    private final List<Thread> made = new CopyOnWriteArrayList<>();

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = factory.newThread(task);
        made.add(thread);
        return thread;
    }

    /** @return the threads made here that are alive now */
    int alive() {
        return (int) made.stream().filter(Thread::isAlive).count();
    }

    /**
     * @return CPU time used by the threads made here that are alive, s; NaN where the JVM cannot measure a thread's
     *         CPU time (then the counter shows nothing rather than 0)
     */
    double cpuSeconds() {
        if (!THREADS.isThreadCpuTimeSupported() || !THREADS.isThreadCpuTimeEnabled()) {
            return Double.NaN;
        }
        long nanos = 0;
        for (Thread thread : made) {
            long cpu = THREADS.getThreadCpuTime(thread.threadId());   // -1: not started or already ended
            nanos += Math.max(0, cpu);
        }
        return nanos / 1e9;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("fanout.reactive.io.threads", this, ReactiveIoThreads::alive)
                .description("HttpClient 5 async client's threads (reactive strategy): its I/O dispatch threads, which"
                        + " run every reactive call's I/O, plus the one that started them")
                .baseUnit("threads")
                .register(registry);
        FunctionCounter.builder("fanout.reactive.io.cpu", this, ReactiveIoThreads::cpuSeconds)
                .description("CPU time used by the reactive strategy's HttpClient I/O threads; its rate is the cores they keep busy")
                .baseUnit("seconds")
                .register(registry);
    }
}
