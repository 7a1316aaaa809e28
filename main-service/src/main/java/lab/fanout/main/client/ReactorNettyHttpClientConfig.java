package lab.fanout.main.client;

import io.netty.channel.ChannelOption;
import lab.fanout.main.config.FanoutProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;

/**
 * The reactive strategy's client with {@code fanout.reactive.client=reactor-netty} (the default): Reactor Netty's
 * {@link HttpClient} (the one {@code WebClient} uses by default) under the same {@code WebClient}
 * ({@link ReactiveHttpClientConfig}), with the same knobs as HttpClient 5's async client:
 * {@code fanout.pool.max-per-route}, {@code fanout.pool.acquire-timeout}, {@code fanout.connect-timeout},
 * {@code fanout.response-timeout}, retries off.
 * <p>
 * Its calls run on Reactor Netty's event loops, not on threads of its own: under the {@code netty} profile the
 * server's loops ({@code reactor-http-epoll-N}, from the server's {@link ReactorResourceFactory}), so that a request
 * and its calls stay on Reactor Netty's loops, reactive end to end; under Tomcat Reactor Netty's global loops
 * (one per core). Cancelling a call (a failed sibling, the deadline, a lost hedge) closes
 * its connection and frees its pool slot: Reactor Netty does that itself, where HttpClient 5 needs
 * {@link CancellableConnector}. The response timeout is the longest wait between two reads of the response, as
 * HttpClient 5's socket timeout; like it, not capped at the request's deadline ({@code Mono.timeout} ends the request).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "fanout.reactive.client", havingValue = FanoutProperties.Reactive.REACTOR_NETTY,
        matchIfMissing = true)
class ReactorNettyHttpClientConfig {

    private static final Log log = LogFactory.getLog(ReactorNettyHttpClientConfig.class);

    /**
     * The pool, named {@code downstream-reactive} in its meters ({@code reactor_netty_connection_provider_*}: total,
     * active, idle and pending connections, the time waited for one, per {@code remote_address}).
     * {@code maxConnections} is Reactor Netty's limit per remote address (host and port): per downstream, i.e. per
     * route, HttpClient 5's {@code max-per-route}. It has no limit across routes, so {@code fanout.pool.max-total}
     * does not apply here (the three downstreams hold at most 3 × max-per-route, 501 by default, against 500).
     * Acquiring waits at most {@code fanout.pool.acquire-timeout} (its {@code PoolAcquireTimeoutException}: 503
     * {@code pool-exhausted}, as HttpClient 5's lease timeout), in a queue without a bound, as HttpClient 5's: Reactor
     * Netty's default bound, twice the connections, would refuse the calls past it at once, a different fault.
     */
    @Bean(destroyMethod = "dispose")
    ConnectionProvider downstreamReactiveConnectionProvider(FanoutProperties properties) {
        return ConnectionProvider.builder(ReactiveHttpClientConfig.POOL_NAME)
                .maxConnections(properties.pool().maxPerRoute())
                .pendingAcquireTimeout(properties.pool().acquireTimeout())
                .pendingAcquireMaxCount(-1)
                .metrics(true)
                .build();
    }

    /**
     * Retries off, as HttpClient 5's: by default Reactor Netty sends a request again, once, when the pooled connection
     * it leased turns out closed before the request went out; that would hide the fault under study.
     *
     * @param server the Reactor Netty resources of the context: under the {@code netty} profile the server's
     *               (WebFluxServerConfig), whose loops the calls then share; under Tomcat Boot's, on Reactor Netty's
     *               global resources
     */
    @Bean
    ClientHttpConnector downstreamConnector(ConnectionProvider downstreamReactiveConnectionProvider,
                                            FanoutProperties properties,
                                            ObjectProvider<ReactorResourceFactory> server) {
        HttpClient client = HttpClient.create(downstreamReactiveConnectionProvider)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(properties.connectTimeout().toMillis()))
                .responseTimeout(properties.responseTimeout())
                .disableRetry(true);
        ReactorResourceFactory resources = server.getIfAvailable();
        if (resources != null) {
            client = client.runOn(resources.getLoopResources());
        }
        log.info("reactive strategy on Reactor Netty's HttpClient: " + properties.pool().maxPerRoute()
                + " connections per downstream, on " + (resources != null && !resources.isUseGlobalResources()
                ? "the server's event loops" : "Reactor Netty's global event loops"));
        return new ReactorClientHttpConnector(client);
    }
}
