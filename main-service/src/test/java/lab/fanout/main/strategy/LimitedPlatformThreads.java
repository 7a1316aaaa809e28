package lab.fanout.main.strategy;

import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A process's thread ceiling, for a test: the thread-per-task strategy's executor gets a thread factory that refuses
 * a platform thread once {@link #LIMIT} of its threads are alive, with the error the JVM throws when the operating
 * system refuses one ({@code ulimit -u}, a pids cgroup): {@code OutOfMemoryError: unable to create native thread}.
 * The rest of main-service is untouched. (reliability-tests have no such test on a real pids cgroup yet.)
 */
@TestConfiguration(proxyBeanMethods = false)
public class LimitedPlatformThreads {

    /** Platform threads the strategy may have alive at once: fewer than the three calls of a width-1 request. */
    public static final int LIMIT = 2;

    private static volatile int limit = LIMIT;

    /** The JVM's message when {@code pthread_create} fails (JDK 25: os::native_thread_creation_failed_msg). */
    static final String JVM_MESSAGE = "unable to create native thread: possibly out of memory or process/resource"
            + " limits reached";

    @Bean
    static BeanPostProcessor limitPlatformThreads() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof CompletableFutureStrategy strategy
                        && strategy.name() == StrategyName.THREAD_PER_TASK
                        ? new CompletableFutureStrategy(StrategyName.THREAD_PER_TASK,
                        Executors.newThreadPerTaskExecutor(factory()))
                        : bean;
            }
        };
    }

    /**
     * Sets the ceiling until {@link #reset()}: a test may raise it to show that the executor works again.
     *
     * @param threads platform threads the strategy may have alive at once
     */
    public static void limit(int threads) {
        limit = threads;
    }

    /** Back to {@link #LIMIT}. */
    public static void reset() {
        limit = LIMIT;
    }

    /** @return platform threads named as StrategyConfig names them, at most {@link #limit(int)} alive at once */
    static ThreadFactory factory() {
        AtomicInteger alive = new AtomicInteger();
        AtomicInteger count = new AtomicInteger();
        return task -> {
            if (alive.incrementAndGet() > limit) {
                alive.decrementAndGet();
                throw new OutOfMemoryError(JVM_MESSAGE);
            }
            return Thread.ofPlatform().name("fanout-platform-" + count.getAndIncrement()).unstarted(() -> {
                try {
                    task.run();
                } finally {
                    alive.decrementAndGet();
                }
            });
        };
    }
}
