package lab.fanout.main.server.reactive;

import java.util.concurrent.Executors;

import lab.fanout.common.SimulationProperties;
import lab.fanout.main.web.Backoffice;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.resources.LoopResources;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;

/**
 * The {@code netty} profile's server side: main-service on Spring WebFlux and Reactor Netty. The profile itself
 * (application.yml) makes the application reactive and leaves Tomcat, still on the classpath for the other two
 * profiles, out of it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class WebFluxServerConfig {

    /** The Simulation knobs bound as on Spring MVC: custom resolvers come before WebFlux's model-attribute binding. */
    @Bean
    WebFluxConfigurer simulationBinding(SimulationProperties properties) {
        return new WebFluxConfigurer() {
            @Override
            public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
                configurer.addCustomResolver(new ReactiveSimulationArgumentResolver(properties.requestKnobs()));
            }
        };
    }

    /**
     * Reactor Netty's loops with a selector thread of their own that only accepts connections
     * ({@code reactor-http-select-epoll-1}) beside the worker loops (one per core) that serve them, as Tomcat has its
     * acceptor thread. By default Reactor Netty accepts on the worker loops: under a burst of 6,000 clients on two
     * cores the kernel's accept queue overflowed about 100,000 times and some 4,200 clients a run got no answer in
     * 20 s (docs/overload.md, "The same probe on Reactor Netty"). Set on the resource factory, not by a
     * {@code NettyServerCustomizer}: Boot's {@code NettyWebServer} runs the server on the factory's loops at start,
     * after the customizers.
     */
    @Bean
    ReactorResourceFactory reactorResourceFactory() {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        factory.setLoopResourcesSupplier(() -> LoopResources.create("reactor-http", 1,
                LoopResources.DEFAULT_IO_WORKER_COUNT, true));
        return factory;
    }

    /**
     * Reactor Netty's own server metrics, which it publishes only when asked (Spring Boot has no property for them):
     * connections open and serving a request ({@code connections.total}, {@code .active}; in Prometheus
     * {@code reactor_netty_http_server_connections} and {@code ..._connections_active}) and each event loop's queued
     * tasks ({@code reactor_netty_eventloop_pending_tasks}), for Grafana's Reactor Netty row.
     * Every path is recorded as the one endpoint's template or {@code /**}, so the per-URI meters stay two series
     * whatever paths callers try.
     */
    @Bean
    NettyServerCustomizer reactorNettyMetrics() {
        return server -> server.metrics(true, uri -> uri.equals(ORDERS) ? ORDERS : "/**");
    }

    private static final String ORDERS = Backoffice.ORDERS;

    /**
     * A new virtual thread per blocking fan-out, named {@code webflux-blocking-N} (thread dumps, flame graphs): the
     * "loom-netty" of the field's benchmarks. Unbounded, like Tomcat's virtual request threads.
     */
    @Bean(destroyMethod = "dispose")
    Scheduler blockingFanouts() {
        return Schedulers.fromExecutorService(Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("webflux-blocking-", 0).factory()), "webflux-blocking");
    }
}
