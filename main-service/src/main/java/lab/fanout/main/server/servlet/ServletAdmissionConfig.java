package lab.fanout.main.server.servlet;

import lab.fanout.main.admission.Admission;
import lab.fanout.main.config.AdmissionProperties;
import lab.fanout.main.config.FanoutProperties;
import lab.fanout.main.web.Backoffice;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.coyote.AbstractProtocol;
import tools.jackson.databind.ObjectMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
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
 * Admission on Spring MVC and Tomcat: a servlet filter ({@link AdmissionFilter}), the connection ceiling as Tomcat's
 * {@code maxConnections}, and queue-time expiry, since only Tomcat queues requests for a thread.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ServletAdmissionConfig {

    private static final Log log = LogFactory.getLog(ServletAdmissionConfig.class);

    /**
     * Right after Boot's observation filter (order HIGHEST_PRECEDENCE + 1), so that an overloaded answer is counted,
     * under the route Spring MVC's {@code @RequestMapping} handler mapping finds for it.
     */
    @Bean
    FilterRegistrationBean<AdmissionFilter> admissionFilter(Admission admission, AdmissionProperties properties,
                                                            FanoutProperties fanout, ObjectMapper json,
                                                            @Qualifier("requestMappingHandlerMapping")
                                                            ObjectProvider<HandlerMapping> routes) {
        var registration = new FilterRegistrationBean<>(new AdmissionFilter(admission, fanout.deadline(),
                properties.retryAfter(), properties.refusalStatus(), json, SingletonSupplier.of(routes::getObject)));
        registration.addUrlPatterns(Backoffice.API + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }

    /**
     * Lowers Tomcat's {@code maxConnections} to what the heap holds ({@link AdmissionProperties#connectionCeiling});
     * a connection past it waits in the kernel's accept queue ({@code server.tomcat.accept-count}) until one closes.
     * Added last, after Boot's customizer has set {@code server.tomcat.max-connections}.
     */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
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
     * platform pool or Boot's virtual-thread executor, records when each request began to wait
     * ({@link QueuedRequests}). Read from {@link AdmissionProperties#expireQueued()}, whose default is the one place;
     * Reactor Netty has no request queue to expire, so the reactive adapter has no counterpart.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> queueTimedPool(AdmissionProperties properties) {
        return factory -> {
            if (properties.expireQueued()) {
                factory.setProtocol(QueuedRequests.Protocol.class.getName());
            }
        };
    }
}
