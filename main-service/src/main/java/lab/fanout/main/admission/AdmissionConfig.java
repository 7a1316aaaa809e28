package lab.fanout.main.admission;

import java.util.LinkedHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.config.AdmissionProperties;
import lab.fanout.main.config.FanoutProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.coyote.AbstractProtocol;
import tools.jackson.databind.ObjectMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Admission control on the fan-out API ({@code /backoffice/api/*}), and open connections capped by the heap;
 * the probes ({@code /livez}, {@code /readyz}) and
 * the management port are never limited, so that an overloaded main-service still reports itself alive. On Spring MVC
 * and Tomcat a servlet filter ({@link AdmissionFilter}), on WebFlux and Reactor Netty a web filter
 * ({@link ReactiveAdmissionFilter}); the connection ceiling as Tomcat's {@code maxConnections} or
 * {@link NettyConnectionCeiling}; queue-time expiry only where Tomcat queues requests for a thread.
 */
@Configuration(proxyBeanMethods = false)
class AdmissionConfig {

    private static final Log log = LogFactory.getLog(AdmissionConfig.class);

    @Bean
    Admission admission(AdmissionProperties properties, MeterRegistry meters) {
        return new Admission(properties, Runtime.getRuntime().maxMemory(), meters, System::nanoTime);
    }

    /**
     * Right after Boot's observation filter (order HIGHEST_PRECEDENCE + 1), so that an overloaded answer is counted, under
     * the route Spring MVC's {@code @RequestMapping} handler mapping finds for it.
     */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    FilterRegistrationBean<AdmissionFilter> admissionFilter(Admission admission, AdmissionProperties properties,
                                                            FanoutProperties fanout, ObjectMapper json,
                                                            @Qualifier("requestMappingHandlerMapping")
                                                            ObjectProvider<HandlerMapping> routes) {
        var registration = new FilterRegistrationBean<>(new AdmissionFilter(admission, fanout.deadline(),
                properties.retryAfter(), properties.refusalStatus(), json, SingletonSupplier.of(routes::getObject)));
        registration.addUrlPatterns("/backoffice/api/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }

    /** The first web filter of every request on WebFlux (the {@code netty} profile). */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    ReactiveAdmissionFilter reactiveAdmissionFilter(Admission admission, AdmissionProperties properties,
                                                    ObjectMapper json, @Qualifier("requestMappingHandlerMapping")
                                                    ObjectProvider<org.springframework.web.reactive.HandlerMapping>
                                                            routes) {
        return new ReactiveAdmissionFilter(admission, properties.retryAfter(), properties.refusalStatus(), json,
                SingletonSupplier.of(routes::getObject));
    }

    @Bean
    InfoContributor admissionInfo(Admission admission, AdmissionProperties properties) {
        return builder -> {
            var info = new LinkedHashMap<>(admission.info());
            info.put("connectionCeiling", properties.connectionCeiling(Runtime.getRuntime().maxMemory()));
            builder.withDetail("admission", info);
        };
    }

    /**
     * The same ceiling on Reactor Netty ({@link NettyConnectionCeiling}), from the same heap share; the bytes per
     * connection are Tomcat's measured figure, not measured again on Netty.
     */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    NettyServerCustomizer nettyConnectionCeiling(AdmissionProperties properties) {
        int ceiling = properties.connectionCeiling(Runtime.getRuntime().maxMemory());
        log.info("Reactor Netty keeps at most " + ceiling + " connections open, what the heap holds"
                + " (fanout.admission.connection-heap-share)");
        return server -> server.doOnChannelInit(new NettyConnectionCeiling(ceiling));
    }

    /**
     * Lowers Tomcat's {@code maxConnections} to what the heap holds ({@link AdmissionProperties#connectionCeiling});
     * a connection past it waits in the kernel's accept queue ({@code server.tomcat.accept-count}) until one closes.
     * Added last, after Boot's customizer has set {@code server.tomcat.max-connections}.
     */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> connectionCeiling(AdmissionProperties properties) {
        int ceiling = properties.connectionCeiling(Runtime.getRuntime().maxMemory());
        return factory -> factory.addConnectorCustomizers(connector -> {
            if (connector.getProtocolHandler() instanceof AbstractProtocol<?> protocol
                    && protocol.getMaxConnections() > ceiling) {
                log.info("server.tomcat.max-connections " + protocol.getMaxConnections() + " lowered to "
                        + ceiling + ", what the heap holds (fanout.admission.connection-heap-share)");
                protocol.setMaxConnections(ceiling);
            }
        });
    }

    /**
     * Tomcat with {@code fanout.admission.expire-queued} (on by default): a protocol whose request executor, the
     * platform pool or Boot's virtual-thread executor, records when each request began to wait ({@link QueuedRequests}).
     */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnBooleanProperty(name = "fanout.admission.expire-queued", matchIfMissing = true)
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> queueTimedPool() {
        return factory -> factory.setProtocol(QueuedRequests.Protocol.class.getName());
    }
}
