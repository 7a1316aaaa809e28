package lab.fanout.main.strategy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The three CompletableFuture strategies: the same code ({@link CompletableFutureStrategy}) on three executors.
 * The thread-per-task executors live as long as the application (closed by Spring at shutdown), not per request:
 * an executor per request would have to be closed at the end of the request, and {@code close()} waits for every
 * call, including the ones a failed or timed-out request has abandoned.
 */
@Configuration(proxyBeanMethods = false)
class StrategyConfig {

    /**
     * What {@code supplyAsync(supplier)} without an executor uses: the common ForkJoinPool. Its parallelism is
     * cores - 1, so 1 on 2 cores, and JDK 25 no longer falls back to a thread per task below 2: blocking calls
     * queue behind one worker.
     */
    @Bean
    CompletableFutureStrategy completableFutureStrategy() {
        return new CompletableFutureStrategy(StrategyName.COMPLETABLE_FUTURE, new CompletableFuture<Void>().defaultExecutor());
    }

    /** A new platform thread per call: about 1 MB of reserved stack and a kernel thread each. */
    @Bean
    CompletableFutureStrategy threadPerTaskStrategy() {
        return new CompletableFutureStrategy(StrategyName.THREAD_PER_TASK,
                Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("fanout-platform-", 0).factory()));
    }

    /** A new virtual thread per call, never pooled (JEP 444): it unmounts from its carrier while it waits on I/O. */
    @Bean
    CompletableFutureStrategy virtualThreadPerTaskStrategy() {
        return new CompletableFutureStrategy(StrategyName.VIRTUAL_THREAD_PER_TASK,
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("fanout-virtual-", 0).factory()));
    }
}
