package lab.fanout.main.admission;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.AbstractProtocol;
import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

import org.springframework.boot.tomcat.autoconfigure.TomcatServerProperties;

/**
 * When a request began to wait for a platform request thread. Tomcat hands each readable connection to its thread
 * pool, whose queue has no bound: past the pool's capacity, requests wait there, and a burst leaves a backlog whose
 * clients have long given up, which the threads then serve one by one (docs/overload.md). Tomcat keeps no arrival
 * time; this pool, Tomcat's own with the same settings, records the time each task was queued, so that
 * {@link AdmissionFilter} can answer a request that waited past its deadline without starting it.
 * <p>
 * Virtual request threads do not queue here (each request gets a new thread at once), so this applies to the
 * {@code platform} profile only, and only with {@code fanout.admission.expire-queued}: Tomcat reports the max
 * threads of a pool it did not create as -1 ({@code AbstractEndpoint.getMaxThreads}), so
 * {@code tomcat_threads_config_max_threads} and the dashboards' platform thread bound go empty while it is on.
 */
public final class QueuedRequests {

    private static final ThreadLocal<Long> QUEUED_AT = new ThreadLocal<>();

    private QueuedRequests() {
    }

    /** @return when the running request's task was queued for a request thread ({@link System#nanoTime}), if known */
    static OptionalLong queuedAt() {
        Long at = QUEUED_AT.get();
        return at == null ? OptionalLong.empty() : OptionalLong.of(at);
    }

    /**
     * Gives the protocol a pool built as Tomcat's {@code AbstractEndpoint.createExecutor} builds it, from the same
     * {@code server.tomcat.threads.*} settings, whose tasks record their queueing time. Tomcat does not shut down a
     * pool it did not create; its threads are daemons, and {@link #shutdown} stops them with the application.
     */
    static ThreadPoolExecutor install(AbstractProtocol<?> protocol, TomcatServerProperties.Threads threads) {
        TaskQueue queue = new TaskQueue(threads.getMaxQueueCapacity());
        // as Tomcat: no more spare threads than threads (AbstractEndpoint.getMinSpareThreads)
        ThreadPoolExecutor pool = new Stamping(Math.min(threads.getMinSpare(), threads.getMax()), threads.getMax(),
                queue, new TaskThreadFactory(protocol.getName() + "-exec-", true, Thread.NORM_PRIORITY));
        queue.setParent(pool);
        protocol.setExecutor(pool);
        return pool;
    }

    /** Tomcat's pool, recording when each task was queued, for the task's own thread to read. */
    private static final class Stamping extends ThreadPoolExecutor {

        Stamping(int core, int max, TaskQueue queue, TaskThreadFactory threads) {
            super(core, max, 60, TimeUnit.SECONDS, queue, threads);
        }

        @Override
        public void execute(Runnable task) {
            long queued = System.nanoTime();
            super.execute(() -> {
                QUEUED_AT.set(queued);
                try {
                    task.run();
                } finally {
                    QUEUED_AT.remove();
                }
            });
        }
    }
}
