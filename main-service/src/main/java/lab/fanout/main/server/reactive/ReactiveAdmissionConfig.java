package lab.fanout.main.server.reactive;

import lab.fanout.main.admission.Admission;
import lab.fanout.main.config.AdmissionProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.ObjectMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.reactive.HandlerMapping;

/**
 * Admission on WebFlux and Reactor Netty (the {@code netty} profile): a web filter ({@link ReactiveAdmissionFilter})
 * and the connection ceiling ({@link NettyConnectionCeiling}); no queue-time expiry, Reactor Netty queues no request
 * for a thread.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveAdmissionConfig {

    private static final Log log = LogFactory.getLog(ReactiveAdmissionConfig.class);

    /** The first web filter of every request. */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    ReactiveAdmissionFilter reactiveAdmissionFilter(Admission admission, AdmissionProperties properties,
                                                    ObjectMapper json, @Qualifier("requestMappingHandlerMapping")
                                                    ObjectProvider<HandlerMapping> routes) {
        return new ReactiveAdmissionFilter(admission, properties.retryAfter(), properties.refusalStatus(), json,
                SingletonSupplier.of(routes::getObject));
    }

    /**
     * The same ceiling as Tomcat's from the same heap share; the bytes per connection are Tomcat's measured figure,
     * not measured again on Netty.
     */
    @Bean
    NettyServerCustomizer nettyConnectionCeiling(AdmissionProperties properties) {
        int ceiling = properties.connectionCeiling(Runtime.getRuntime().maxMemory());
        log.info("Reactor Netty keeps at most " + ceiling + " connections open, what the heap holds"
                + " (fanout.admission.connection-heap-share)");
        return server -> server.doOnChannelInit(new NettyConnectionCeiling(ceiling));
    }
}
