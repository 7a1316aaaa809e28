package lab.fanout.main.admission;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

/**
 * When a request began to wait for a platform request thread. Tomcat hands each readable connection to its thread
 * pool, whose queue has no bound: past the pool's capacity, requests wait there, and a burst leaves a backlog whose
 * clients have long given up, which the threads then serve one by one (docs/overload.md). Tomcat keeps no arrival
 * time; {@link Protocol}'s pool, Tomcat's own in all else, records the time each task was queued, so that
 * {@link AdmissionFilter} can answer a request that waited past its deadline without starting it.
 * <p>
 * Virtual request threads do not queue here (each request gets a new thread at once), so this applies to the
 * {@code platform} profile only ({@code fanout.admission.expire-queued}, on by default).
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
     * Tomcat's HTTP/1.1 NIO protocol with a request-thread pool that records when each task was queued; Tomcat
     * creates it by class name ({@code TomcatServletWebServerFactory.setProtocol}), hence public.
     */
    public static final class Protocol extends Http11NioProtocol {

        public Protocol() {
            super(new Endpoint());
        }
    }

    /**
     * Builds the pool where and as Tomcat builds its own ({@code AbstractEndpoint.createExecutor}), so that it stays
     * Tomcat's internal pool: an executor set from outside would make Tomcat report its max threads as -1
     * ({@code tomcat_threads_config_max_threads}, the dashboards' thread bound), not resize it and not stop it.
     */
    private static final class Endpoint extends NioEndpoint {

        @Override
        public void createExecutor() {
            if (getUseVirtualThreads()) {
                super.createExecutor();
                return;
            }
            internalExecutor = true;    // before the getters below, which report -1 for an outside pool
            TaskQueue queue = new TaskQueue(getMaxQueueSize());
            var pool = new Stamping(getMinSpareThreads(), getMaxThreads(), getThreadsMaxIdleTime(), queue,
                    new TaskThreadFactory(getName() + "-exec-", getDaemon(), getThreadPriority()));
            queue.setParent(pool);
            setExecutor(pool);
            internalExecutor = true;    // setExecutor cleared it
        }
    }

    /** Tomcat's pool, recording when each task was queued, for the task's own thread to read. */
    private static final class Stamping extends ThreadPoolExecutor {

        Stamping(int core, int max, int idleMillis, TaskQueue queue, TaskThreadFactory threads) {
            super(core, max, idleMillis, TimeUnit.MILLISECONDS, queue, threads);
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
