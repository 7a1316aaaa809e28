package lab.fanout.main.server.servlet;

import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;

/**
 * When a request began to wait to run. Tomcat's poller hands each readable connection to the request executor as a
 * task. With platform request threads the pool's queue has no bound: past the pool's capacity, requests wait there,
 * and a burst leaves a backlog whose clients have long given up, which the threads then serve one by one
 * (docs/overload.md). With virtual request threads each task gets a new thread at once, but that thread waits for a
 * carrier, behind every other runnable virtual thread: on 2 cores in a burst of thousands, seconds. Tomcat keeps no
 * arrival time; {@link Protocol}'s endpoint, Tomcat's own in all else, stamps each task as it is handed over, so that
 * {@link AdmissionFilter} can time the wait and answer a request that waited past its deadline without starting it
 * ({@code fanout.admission.expire-queued}, on by default).
 * <p>
 * A stamp is taken once ({@link #takeQueuedAt}): Tomcat may read a kept-alive connection's next request in the same
 * task, and that request did not wait.
 */
public final class QueuedRequests {

    private static final ThreadLocal<Long> QUEUED_AT = new ThreadLocal<>();

    private QueuedRequests() {
    }

    /**
     * @return when the running task was handed to the request executor ({@link System#nanoTime}), for the task's first
     *         request only; empty for a later request of the same task, or where nothing stamped it
     */
    static OptionalLong takeQueuedAt() {
        Long at = QUEUED_AT.get();
        QUEUED_AT.remove();
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
     * Platform: builds the pool where and as Tomcat builds its own ({@code AbstractEndpoint.createExecutor}), so that
     * it stays Tomcat's internal pool: an executor set from outside would make Tomcat report its max threads as -1
     * ({@code tomcat_threads_config_max_threads}, the dashboards' thread bound), not resize it and not stop it.
     * Virtual: Spring Boot sets a {@link VirtualThreadExecutor} from outside (so {@code createExecutor} is not
     * called); it is wrapped to stamp each task, and stays Boot's otherwise.
     */
    private static final class Endpoint extends NioEndpoint {

        @Override
        public void setExecutor(Executor executor) {
            super.setExecutor(executor instanceof VirtualThreadExecutor virtual ? stamping(virtual) : executor);
        }

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

    /** @return the executor, recording when each task was handed over, for the task's own thread to read */
    static Executor stamping(Executor executor) {
        return task -> executor.execute(stamped(task, System.nanoTime()));
    }

    private static Runnable stamped(Runnable task, long queued) {
        return () -> {
            QUEUED_AT.set(queued);
            try {
                task.run();
            } finally {
                QUEUED_AT.remove();
            }
        };
    }

    /** Tomcat's pool, recording when each task was queued, for the task's own thread to read. */
    private static final class Stamping extends ThreadPoolExecutor {

        Stamping(int core, int max, int idleMillis, TaskQueue queue, TaskThreadFactory threads) {
            super(core, max, idleMillis, TimeUnit.MILLISECONDS, queue, threads);
        }

        @Override
        public void execute(Runnable task) {
            super.execute(stamped(task, System.nanoTime()));
        }
    }
}
