package lab.fanout.main.client;

import io.micrometer.core.instrument.binder.MeterBinder;
import lab.fanout.main.config.FanoutProperties;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The reactive strategy's {@code WebClient}, on the HTTP client {@code fanout.reactive.client} names: Apache
 * HttpClient 5's async client ({@link HttpClient5}, the default) or Reactor Netty's
 * ({@link ReactorNettyHttpClientConfig}).
 * Only the chosen client's beans exist, so the other leaves no pool, no threads and no meters behind. Either way a
 * {@link ClientHttpConnector} bean exists, so that Boot's auto-configuration, which would otherwise build a connector
 * with its client's default pool (HttpClient 5: 25 connections), backs off; and the {@code WebClient} is built here,
 * on Boot's builder, the same way for both, so that http.client.requests and tracing see every call.
 */
@Configuration(proxyBeanMethods = false)
class ReactiveHttpClientConfig {

    /** The pool's name in its meters, whichever client: {@code httpclient} or Reactor Netty's {@code name} tag. */
    static final String POOL_NAME = "downstream-reactive";

    /** Names the downstream in http.client.requests' {@code client_name}; Boot applies it to WebClient.Builder. */
    @Bean
    ReactiveDownstreamObservationConvention reactiveDownstreamObservationConvention() {
        return new ReactiveDownstreamObservationConvention();
    }

    /** Built on Boot's builder so that http.client.requests observations stay on. */
    @Bean
    WebClient downstreamWebClient(WebClient.Builder builder, ClientHttpConnector downstreamConnector) {
        return builder.clientConnector(downstreamConnector).build();
    }

    /**
     * Apache HttpClient 5's async client (the same library family as the blocking strategies'), on its own connection
     * pool sized and timed by the same knobs ({@code fanout.pool.*}, {@code fanout.connect-timeout},
     * {@code fanout.response-timeout}), retries off. The pool is a second one, not the blocking client's:
     * HttpClient's async and classic clients cannot share a pool. A request uses one of them, so each strategy still
     * sees a pool of {@code fanout.pool.max-total}.
     * <p>
     * Unlike the blocking client's, these timeouts are not capped at the request's deadline: nothing here blocks a
     * thread, and the reactive strategy ends the request at the deadline itself ({@code Mono.timeout}), which cancels
     * the exchanges still running ({@link CancellableConnector}).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "fanout.reactive.client", havingValue = FanoutProperties.Reactive.HTTPCLIENT5)
    static class HttpClient5 {

        /**
         * How often the I/O reactor looks for timed-out connections. Its default, 1 s, lets a 500 ms response
         * timeout fire anywhere up to 1.5 s (seen: a 1 s stall inside a body went unnoticed), where the blocking
         * client's socket timeouts are exact; 100 ms costs each reactor thread 10 wake-ups a second.
         */
        private static final TimeValue TIMEOUT_CHECK = TimeValue.ofMilliseconds(100);

        @Bean(destroyMethod = "close")
        PoolingAsyncClientConnectionManager downstreamAsyncConnectionPool(FanoutProperties properties) {
            return PoolingAsyncClientConnectionManagerBuilder.create()
                    .setMaxConnTotal(properties.pool().maxTotal())
                    .setMaxConnPerRoute(properties.pool().maxPerRoute())
                    .setDefaultConnectionConfig(ConnectionConfig.custom()
                            .setConnectTimeout(HttpClientConfig.timeout(properties.connectTimeout()))
                            .setSocketTimeout(HttpClientConfig.timeout(properties.responseTimeout()))
                            .build())
                    .build();
        }

        /**
         * The async client's threads, counted and timed: {@code fanout_reactive_io_threads},
         * {@code fanout_reactive_io_cpu_seconds_total} (a {@code MeterBinder} bean, so Boot binds it).
         */
        @Bean
        ReactiveIoThreads reactiveIoThreads() {
            return new ReactiveIoThreads();
        }

        /**
         * Its I/O reactor threads (one per core, {@code reactive-io-N}, made by {@link ReactiveIoThreads}) run every
         * call's I/O and callbacks.
         */
        @Bean(destroyMethod = "close")
        CloseableHttpAsyncClient downstreamAsyncClient(
                PoolingAsyncClientConnectionManager downstreamAsyncConnectionPool, FanoutProperties properties,
                ReactiveIoThreads reactiveIoThreads) {
            return CancellableConnector.abortable(HttpAsyncClients.custom())
                    .setThreadFactory(reactiveIoThreads)
                    .setConnectionManager(downstreamAsyncConnectionPool)
                    .setDefaultRequestConfig(RequestConfig.custom()
                            .setConnectionRequestTimeout(HttpClientConfig.timeout(properties.pool().acquireTimeout()))
                            .setResponseTimeout(HttpClientConfig.timeout(properties.responseTimeout()))
                            .build())
                    .disableAutomaticRetries()   // as the blocking client: a retry would hide the fault under study
                    .disableCookieManagement()   // and, as there, none of these steps is needed for a downstream call
                    .disableRedirectHandling()
                    .disableAuthCaching()
                    .setIOReactorConfig(IOReactorConfig.custom().setSelectInterval(TIMEOUT_CHECK).build())
                    .build();
        }

        /**
         * As {@code downstreamPoolMetrics}, with {@code httpclient="downstream-reactive"}: Micrometer's binder takes
         * any {@code ConnPoolControl<HttpRoute>}, the async pool included (deprecated for the reason given there).
         */
        @Bean
        @SuppressWarnings("deprecation")
        MeterBinder downstreamAsyncPoolMetrics(PoolingAsyncClientConnectionManager downstreamAsyncConnectionPool) {
            return new io.micrometer.core.instrument.binder.httpcomponents.hc5
                    .PoolingHttpClientConnectionManagerMetricsBinder(downstreamAsyncConnectionPool, POOL_NAME);
        }

        /** Cancelling a call aborts its exchange, which frees its connection: {@link CancellableConnector}. */
        @Bean
        ClientHttpConnector downstreamConnector(CloseableHttpAsyncClient downstreamAsyncClient) {
            return new CancellableConnector(downstreamAsyncClient);
        }
    }
}
