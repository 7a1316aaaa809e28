package lab.fanout.main.webflux;

import java.util.concurrent.Executors;

import lab.fanout.common.SimulationProperties;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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
     * A new virtual thread per blocking fan-out, named {@code webflux-blocking-N} (thread dumps, flame graphs): the
     * "loom-netty" of the field's benchmarks. Unbounded, like Tomcat's virtual request threads.
     */
    @Bean(destroyMethod = "dispose")
    Scheduler blockingFanouts() {
        return Schedulers.fromExecutorService(Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("webflux-blocking-", 0).factory()), "webflux-blocking");
    }
}
