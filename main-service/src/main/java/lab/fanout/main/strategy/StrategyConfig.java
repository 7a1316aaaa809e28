package lab.fanout.main.strategy;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import lab.fanout.main.client.FanoutCallMeters;
import lab.fanout.main.config.BoundedPoolProperties;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The four CompletableFuture strategies: the same code ({@link CompletableFutureStrategy}) on four executors, and
 * the metrics that tell the strategies apart on the dashboards (grafana/).
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
        return new CompletableFutureStrategy(StrategyName.COMPLETABLE_FUTURE, ForkJoinPool.commonPool());
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

    /**
     * A fixed pool of platform threads with a bounded queue ({@link BoundedPool}), sized by
     * {@code fanout.bounded-pool.*}: the bulkhead most services put around their calls.
     */
    @Bean
    CompletableFutureStrategy boundedPoolStrategy(BoundedPoolProperties pool) {
        return new CompletableFutureStrategy(StrategyName.BOUNDED_POOL, new BoundedPool(
                StrategyName.BOUNDED_POOL.toString(), pool.threads(), pool.queue(), pool.retryAfter()));
    }

    /**
     * {@code executor_*{name=<strategy>}} for the executor behind each CompletableFuture strategy: for the
     * thread-per-task executors (platform and virtual) {@code executor_active_threads}, the calls running now; for
     * the common ForkJoinPool also {@code executor_parallelism_threads} and {@code executor_queued_tasks}, the calls
     * waiting for one of its (on 2 cores: 1) workers; for the bounded pool also {@code executor_pool_max_threads},
     * {@code executor_queued_tasks} and the calls it refused, {@code fanout_bounded_pool_rejected_total}
     * ({@code executor_queue_remaining_tasks} reads its queue array, threads + queue long: see {@link BoundedPool}).
     * <p>
     * The thread-per-task gauges read a private JDK method, so the JVM needs
     * {@code --add-opens java.base/java.util.concurrent=ALL-UNNAMED} (in main-service.jar's manifest, and in
     * surefire's argLine); without it Micrometer logs a warning and leaves them out.
     */
    @Bean
    MeterBinder strategyExecutorMetrics(List<FanoutStrategy> strategies) {
        return registry -> strategies.stream()
                .filter(CompletableFutureStrategy.class::isInstance)
                .map(CompletableFutureStrategy.class::cast)
                .filter(strategy -> strategy.executor() instanceof ExecutorService)
                .forEach(strategy -> {
                    String name = strategy.name().toString();
                    new ExecutorServiceMetrics((ExecutorService) strategy.executor(), name, Tags.empty())
                            .bindTo(registry);
                    if (strategy.executor() instanceof BoundedPool pool) {
                        FunctionCounter.builder("fanout.bounded.pool.rejected", pool, BoundedPool::rejected)
                                .description("Calls the bounded pool refused, its threads busy and its queue full: each"
                                        + " ended its request 503 bulkhead-full (or left a hedge's copy unsent)")
                                .tag("name", name).register(registry);
                    }
                });
    }

    /** The hedging meters of every strategy that hedges, at 0 from the start (grafana/: a rate of 0, not no data). */
    @Bean
    MeterBinder hedgingMeters(List<FanoutStrategy> strategies, FanoutCallMeters meters) {
        return registry -> strategies.stream().filter(FanoutStrategy::hedges)
                .forEach(strategy -> meters.registerHedging(strategy.name().toString()));
    }
}
