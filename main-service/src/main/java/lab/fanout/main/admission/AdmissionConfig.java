package lab.fanout.main.admission;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.MeterRegistry;
import lab.fanout.main.config.AdmissionProperties;
import lab.fanout.main.config.FanoutProperties;
import org.apache.coyote.AbstractProtocol;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import tools.jackson.databind.ObjectMapper;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.tomcat.TomcatProtocolHandlerCustomizer;
import org.springframework.boot.tomcat.autoconfigure.TomcatServerProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Admission control on the fan-out API ({@code /backoffice/api/*}); the probes ({@code /livez}, {@code /readyz}) and
 * the management port are never limited, so that an overloaded main-service still reports itself alive.
 */
@Configuration(proxyBeanMethods = false)
class AdmissionConfig {

    @Bean
    Admission admission(AdmissionProperties properties, MeterRegistry meters) {
        return new Admission(properties, Runtime.getRuntime().maxMemory(), meters, System::nanoTime);
    }

    /** Right after Boot's observation filter (order HIGHEST_PRECEDENCE + 1), so that a 503 overloaded is counted. */
    @Bean
    FilterRegistrationBean<AdmissionFilter> admissionFilter(Admission admission, AdmissionProperties properties,
                                                            FanoutProperties fanout, ObjectMapper json) {
        var registration = new FilterRegistrationBean<>(new AdmissionFilter(admission, fanout.deadline(),
                properties.retryAfter(), json));
        registration.addUrlPatterns("/backoffice/api/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }

    @Bean
    InfoContributor admissionInfo(Admission admission) {
        return builder -> builder.withDetail("admission", admission.info());
    }

    /** Platform request threads: Tomcat's pool, recording when each request began to wait ({@link QueuedRequests}). */
    @Bean
    @ConditionalOnThreading(Threading.PLATFORM)
    QueueTimedPool queueTimedPool(TomcatServerProperties tomcat) {
        return new QueueTimedPool(tomcat.getThreads());
    }

    static final class QueueTimedPool implements TomcatProtocolHandlerCustomizer<AbstractProtocol<?>>, DisposableBean {

        private final TomcatServerProperties.Threads threads;
        private final List<ThreadPoolExecutor> pools = new CopyOnWriteArrayList<>();

        QueueTimedPool(TomcatServerProperties.Threads threads) {
            this.threads = threads;
        }

        @Override
        public void customize(AbstractProtocol<?> protocol) {
            pools.add(QueuedRequests.install(protocol, threads));
        }

        @Override
        public void destroy() {
            pools.forEach(ThreadPoolExecutor::shutdownNow);   // after the server stopped and its requests ended
        }
    }
}
