package lab.fanout.main.client;

import java.time.Duration;

import io.micrometer.core.instrument.binder.MeterBinder;
import lab.fanout.main.config.FanoutProperties;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.util.Timeout;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The one Apache HttpClient 5 connection pool that every downstream call leases from, sized explicitly: no Boot
 * property sets it, and HttpClient's defaults (25 total, 5 per route) would turn every benchmark into a benchmark
 * of the pool.
 */
@Configuration(proxyBeanMethods = false)
class HttpClientConfig {

    @Bean(destroyMethod = "close")
    PoolingHttpClientConnectionManager downstreamConnectionPool(FanoutProperties properties) {
        return PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(properties.pool().maxTotal())
                .setMaxConnPerRoute(properties.pool().maxPerRoute())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(timeout(properties.connectTimeout()))
                        .setSocketTimeout(timeout(properties.responseTimeout()))
                        .build())
                .build();
    }

    @Bean(destroyMethod = "close")
    CloseableHttpClient downstreamHttpClient(PoolingHttpClientConnectionManager pool, FanoutProperties properties) {
        return HttpClients.custom()
                .setConnectionManager(pool)
                .setDefaultRequestConfig(requestConfig(properties, properties.deadline()))
                // a retry would hide the fault under study and double the downstream's load
                .disableAutomaticRetries()
                // nothing a downstream call needs, each a step of every call's exec chain (docs/overhead.md): the
                // downstreams set no cookies, never redirect, need no auth and never compress their few KB
                .disableCookieManagement()
                .disableRedirectHandling()
                .disableAuthCaching()
                .disableContentCompression()
                .build();
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

    /** Names the downstream in http.client.requests' {@code client_name}; Boot applies it to RestClient.Builder. */
    @Bean
    DownstreamObservationConvention downstreamObservationConvention() {
        return new DownstreamObservationConvention();
    }

    /** Built on Boot's builder so that http.client.requests observations stay on. */
    @Bean
    RestClient downstreamRestClient(RestClient.Builder builder, CloseableHttpClient client,
                                    FanoutProperties properties) {
        HttpComponentsClientHttpRequestFactory factory = new WatchedRequestFactory(client);
        // each call waits for a connection, and for its response, no longer than its request's deadline allows
        factory.setHttpContextFactory((method, uri) -> {
            HttpClientContext context = HttpClientContext.create();
            context.setRequestConfig(requestConfig(properties, Deadline.remainingOnThisThread(properties.deadline())));
            return context;
        });
        return builder.requestFactory(factory).build();
    }

    private static RequestConfig requestConfig(FanoutProperties properties, Duration remaining) {
        return RequestConfig.custom()
                .setConnectionRequestTimeout(timeout(min(properties.pool().acquireTimeout(), remaining)))
                .setResponseTimeout(timeout(min(properties.responseTimeout(), remaining)))
                .build();
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * Whole milliseconds, rounded up: a timeout capped at the deadline must not fire before it, or the failure would
     * read as the downstream's timeout instead of the deadline's. HttpClient reads a zero timeout as "wait
     * forever": a spent budget must still time out, after 1 ms.
     */
    static Timeout timeout(Duration duration) {
        return Timeout.ofMilliseconds(Math.max(1, Math.ceilDiv(duration.toNanos(), 1_000_000L)));
    }
}
