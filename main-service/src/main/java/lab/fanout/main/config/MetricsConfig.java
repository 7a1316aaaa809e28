package lab.fanout.main.config;

import java.util.List;
import java.util.concurrent.ExecutorService;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import lab.fanout.main.strategy.CompletableFutureStrategy;
import lab.fanout.main.strategy.FanoutStrategy;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The metrics that explain main-service's numbers, beyond what Boot binds by itself (JVM, virtual threads through
 * micrometer-java21, Tomcat, {@code http.server.requests}, {@code http.client.requests}): the {@code strategy} and
 * {@code client_name} tags, the connection pool and the executors behind the strategies. Dashboards: grafana/.
 */
@Configuration(proxyBeanMethods = false)
class MetricsConfig {

    @Bean
    StrategyObservationConvention strategyObservationConvention() {
        return new StrategyObservationConvention();
    }

    @Bean
    DownstreamObservationConvention downstreamObservationConvention() {
        return new DownstreamObservationConvention();
    }

    /**
     * {@code httpcomponents_httpclient_pool_total_{connections{state=leased|available},pending,max}} with
     * {@code httpclient="downstream"}: leased near max with pending above 0 means calls wait for a connection.
     * <p>
     * Micrometer 1.17 deprecates this binder in favour of httpclient5-observation's {@code ConnPoolMeters}. We keep
     * the binder on purpose: it works with this pool, its metric names are the ones the dashboards and their tests
     * are written against, and the replacement would be one more dependency, untried here, whose names differ.
     * Revisit when Micrometer removes the binder.
     */
    @Bean
    @SuppressWarnings("deprecation")
    MeterBinder downstreamPoolMetrics(PoolingHttpClientConnectionManager downstreamConnectionPool) {
        return new io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder(
                downstreamConnectionPool, "downstream");
    }

    /**
     * {@code executor_*{name=<strategy>}} for the executor behind each CompletableFuture strategy: for the
     * thread-per-task executors (platform and virtual) {@code executor_active_threads}, the calls running now; for
     * the common ForkJoinPool also {@code executor_parallelism_threads} and {@code executor_queued_tasks}, the calls
     * waiting for one of its (on 2 cores: 1) workers.
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
                .forEach(strategy -> new ExecutorServiceMetrics((ExecutorService) strategy.executor(),
                        strategy.name().toString(), Tags.empty()).bindTo(registry));
    }
}
